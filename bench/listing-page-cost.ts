/**
 * `npx tsx bench/listing-page-cost.ts DIR [--pg] [RUNS]` — a GetProjects page read through the store both ways, on
 * the database a `npm run bench -- --data-dir DIR` run kept (SQLite: a copy of DIR/bench.db; `--pg`: the cluster in
 * DIR/pg): as rows (listProjectListings in project-queries.ts) and as one JSON text built by the database
 * (listing-page-json.ts). Pages of 101 and 1,001 listings (GetProjects reads one more than it shows), first and by
 * keyset from the middle, the two ways interleaved; prints this process's CPU µs per read, the median of RUNS.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ProjectQuery } from '../src/model/records.ts';
import { openDatabase } from '../src/store/database.ts';
import { listProjectListingsJson } from '../src/store/listing-page-json.ts';
import { listProjectListings } from '../src/store/project-queries.ts';
import { SqliteBinding } from '../src/store/sqlite-binding.ts';
import { startEmbeddedPostgres } from '../test/support/embedded-postgres.ts';

const args = process.argv.slice(2);
const dir = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a));
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? '7');
if (!dir) throw new Error('usage: listing-page-cost.ts DIR [--pg] [RUNS]');
const onPg = args.includes('--pg');
const server = onPg ? await startEmbeddedPostgres({ keepDir: path.join(dir, 'pg') }) : undefined;
let file = '';
if (!onPg) {
  file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'apas-listing-page-')), 'copy.db');
  new SqliteBinding(path.join(dir, 'bench.db'), { readonly: true }).exec(`vacuum into '${file}'`);
}
const { db } = await openDatabase(server ? { kind: 'postgres', url: server.url } : { kind: 'sqlite', file }, { migrate: false });
try {
  const { program_id: programId } = await db.selectFrom('projects').select('program_id').groupBy('program_id').orderBy((eb) => eb.fn.countAll(), 'desc').executeTakeFirstOrThrow();
  const middle = await db.selectFrom('projects').select(['created_at', 'id']).where('program_id', '=', programId).orderBy('created_at').orderBy('id').offset(5000).limit(1).executeTakeFirstOrThrow();
  const pages: [string, ProjectQuery][] = [
    ['limit=100 (101 rows)', { programId, limit: 101, offset: 0 }],
    ['limit=1000 (1,001 rows)', { programId, limit: 1001, offset: 0 }],
    ['limit=100 after the 5,000th', { programId, limit: 101, offset: 0, after: { createdAt: middle.created_at, id: middle.id } }],
  ];
  const ways = [['rows', listProjectListings], ['one JSON text', listProjectListingsJson]] as const;
  for (const [name, q] of pages) {
    const n = q.limit > 500 ? 100 : 1000;
    const times: number[][] = ways.map(() => []);
    for (const [, read] of ways) for (let i = 0; i < 20; i++) await read(db, q);
    for (let r = 0; r < runs; r++) {
      for (const [k, [, read]] of ways.entries()) {
        const t0 = process.cpuUsage();
        for (let i = 0; i < n; i++) await read(db, q);
        const t = process.cpuUsage(t0);
        times[k]!.push((t.user + t.system) / n);
      }
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    process.stdout.write(`${onPg ? 'PostgreSQL' : 'SQLite'} ${name.padEnd(30)} ${ways.map(([w], k) => `${w} ${median(times[k]!).toFixed(0).padStart(5)} µs`).join('   ')}\n`);
  }
} finally {
  await db.destroy();
  await server?.stop();
  if (file) fs.rmSync(path.dirname(file), { recursive: true, force: true });
}
