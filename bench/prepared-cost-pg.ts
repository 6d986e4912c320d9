/**
 * `npx tsx bench/prepared-cost-pg.ts DIR [N]` — what naming a statement saves, on the PostgreSQL cluster a
 * `npm run bench -- --db postgres --data-dir DIR --floor` run kept: GetProjects limit=100's and GetProjectData's
 * statements (DIR/floor-reads.json) run N times over one connection unnamed (parsed and planned on every run), named
 * (statement-names.ts: parsed once, planned as PostgreSQL's plan cache decides) and named with
 * `plan_cache_mode = force_custom_plan` (parsed once, planned every run). Prints, per run, this process's CPU µs, the
 * server backend's CPU µs (from /proc) and the wall µs, three rounds each.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../test/support/embedded-postgres.ts';
import type { FloorRead } from './floor-statements.ts';

const [dir, nArg = '2000'] = process.argv.slice(2);
if (!dir) throw new Error('usage: prepared-cost-pg.ts DIR [N]');
const reads = JSON.parse(fs.readFileSync(path.join(dir, 'floor-reads.json'), 'utf8')) as FloorRead[];
const last = (suffix: string) => reads.find((r) => r.url.endsWith(suffix))!.statements.at(-1)!;
const server = await startEmbeddedPostgres({ keepDir: path.join(dir, 'pg') });
const client = new pg.Client({ connectionString: server.url });
await client.connect();
try {
  const pid = (await client.query<{ p: number }>('select pg_backend_pid() as p')).rows[0]!.p;
  // utime + stime of the backend, in clock ticks of 10 ms.
  const backendCpuUs = () => {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  };
  const n = Number(nArg);
  const measure = async (label: string, run: () => Promise<unknown>) => {
    for (let i = 0; i < 200; i++) await run();
    const rounds: string[] = [];
    for (let round = 0; round < 3; round++) {
      const c0 = process.cpuUsage();
      const b0 = backendCpuUs();
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < n; i++) await run();
      const c = process.cpuUsage(c0);
      const us = (x: number) => (x / n).toFixed(0).padStart(4);
      rounds.push(`client ${us(c.user + c.system)}  server ${us(backendCpuUs() - b0)}  wall ${us(Number(process.hrtime.bigint() - t0) / 1000)}`);
    }
    process.stdout.write(`${label.padEnd(36)} ${rounds.join('  |  ')}\n`);
  };
  for (const [label, s] of [['GetProjects limit=100', last('Projects?limit=100')], ['GetProjectData', last('/Data')]] as const) {
    const values = s.params as unknown[];
    await measure(`${label}, unnamed`, () => client.query(s.sql, values));
    await measure(`${label}, named`, () => client.query({ name: `${label}-auto`, text: s.sql, values }));
    await client.query('set plan_cache_mode = force_custom_plan');
    await measure(`${label}, named, custom plans`, () => client.query({ name: `${label}-custom`, text: s.sql, values }));
    await client.query('reset plan_cache_mode');
  }
} finally {
  await client.end();
  await server.stop();
}
