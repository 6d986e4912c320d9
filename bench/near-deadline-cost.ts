/**
 * `npx tsx bench/near-deadline-cost.ts DIR/bench.db` (SQLite) or `… --pg DIR` (PostgreSQL): what the near-deadline
 * task's recount (src/domain/queue/near-deadline-task.ts) costs on a database kept by `npm run bench -- --data-dir DIR`,
 * as it runs once a day per program. A first recount on a database that had no marks marks every project whose
 * running deadline is due within the window; later ones read and find nothing to change (performance.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { attentionDueBy } from '../src/domain/queue/queue-columns.ts';
import { recountNearMarks } from '../src/domain/queue/near-deadline-task.ts';
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
    const t = performance.now();
    const changed = await recountNearMarks(store, programId, attentionDueBy(program, Date.now()));
    console.log(`round ${round} program ${program.customId}: ${(performance.now() - t).toFixed(1)} ms, ${changed} projects recounted`);
  }
}
await store.close();
await server?.stop();
