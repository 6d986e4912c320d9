/**
 * `npx tsx bench/deadline-marks-cost.ts DIR/bench.db` (SQLite) or `… --pg DIR` (PostgreSQL): what the deadline marks
 * task's recount (src/domain/queue/deadline-marks-task.ts) costs on a database kept by `npm run bench -- --data-dir DIR`,
 * as it runs at an instance's first round (near and overdue compared), and once a day per program (near only). A first
 * recount on a database that had no marks marks every project whose running deadline is due within the window; later
 * ones read and find nothing to change (performance.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { recountDeadlineMarks } from '../src/domain/queue/deadline-marks-task.ts';
import { deadlineMarks } from '../src/domain/queue/queue-attention.ts';
import { openDatabase } from '../src/store/database.ts';
import { createKyselyStore } from '../src/store/kysely-store.ts';
import { createSecretBox, parseSecretKeys } from '../src/store/secret-box.ts';
import { startEmbeddedPostgres } from '../test/support/embedded-postgres.ts';

const onPg = process.argv[2] === '--pg';
const target = onPg ? process.argv[3]! : process.argv[2]!;
const dir = onPg ? target : path.dirname(target);
const server = onPg ? await startEmbeddedPostgres({ keepDir: path.join(dir, 'pg') }) : undefined;
process.env.DATABASE_URL = server ? server.url : target;
const keyFile = path.join(dir, 'apas-secret.key');
const store = createKyselyStore(await openDatabase(loadConfig().database), { secrets: createSecretBox(parseSecretKeys(fs.readFileSync(keyFile, 'utf8'), keyFile)) });
for (let round = 1; round <= 3; round++) {
  for (const programId of await store.queueViews.programIds()) {
    const program = await store.programs.findProgram(programId);
    if (!program) continue;
    const marks = deadlineMarks(program, await store.programs.loadProgramModel(program), Date.now());
    for (const which of [{ near: true, overdue: true }, { near: true, overdue: false }]) {
      const t = performance.now();
      const changed = await recountDeadlineMarks(store, programId, marks, which);
      console.log(`round ${round} program ${program.customId} ${which.overdue ? 'near and overdue' : 'near'}: ${(performance.now() - t).toFixed(1)} ms, ${changed} projects recounted`);
    }
  }
}
await store.close();
await server?.stop();
