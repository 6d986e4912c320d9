/**
 * `npx tsx bench/read-model-cost-pg.ts DIR [N]` — GetProjectData's and a GetProjects page's database work on the
 * PostgreSQL cluster a `npm run bench -- --db postgres --data-dir DIR --floor` run kept, one read at a time over a
 * pool of 10: the statements apas runs today (DIR/floor-reads.json; the project row, then the other three at once, as
 * GetProjectData does) against one statement that gathers the values, files and lookups as JSON (design (c) of
 * docs/performance.md, "Reads near the limit"), and the page as rows against the page as one JSON text. Prints this
 * process's CPU µs per read (what apas's process would pay) and the wall time per read, medians of 5.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../test/support/embedded-postgres.ts';
import type { FloorRead } from './floor-statements.ts';

const [dir, nArg = '2000'] = process.argv.slice(2);
if (!dir) throw new Error('usage: read-model-cost-pg.ts DIR [N]');
const reads = JSON.parse(fs.readFileSync(path.join(dir, 'floor-reads.json'), 'utf8')) as FloorRead[];
const data = reads.find((r) => r.url.endsWith('/Data'))!;
const page = reads.find((r) => r.url.endsWith('Projects?limit=100'))!;
const [projectId, programId] = data.statements[0]!.params as string[];
const server = await startEmbeddedPostgres({ keepDir: path.join(dir, 'pg') });
const pool = new pg.Pool({ connectionString: server.url, max: 10 });
try {
  const [first, ...rest] = data.statements;
  const combined = `select p.id, p.program_id, p.number, p.status_id, p.status_at, p.created_at, p.created_by, p.updated_at, p.updated_by,
    p.owner_id, p.assignee_id, p.version, p.organization_id, p.access_groups,
    (select coalesce(json_agg(json_build_array(v.field_id, v.value, v.values_json, v.updated_at, v.updated_by) order by v.field_id), '[]')::text from project_values v where v.project_id = p.id) as vals,
    (select coalesce(json_agg(json_build_array(f.definition_id, f.version, f.file_name, f.approval_status) order by f.definition_id, f.version), '[]')::text from attachments f where f.project_id = p.id) as files,
    (select coalesce(json_agg(json_build_array(l.field_id, l.state, l.message, l.checked_at)), '[]')::text from field_lookups l where l.project_id = p.id) as lookups
    from projects p where p.id = $1 and p.program_id = $2`;
  const pageSql = page.statements[0]!.sql;
  const pageJson = `select coalesce(json_agg(json_build_array(id, program_id, number, status_id, status_at, created_at, updated_at) order by created_at, id), '[]')::text as page from (${pageSql}) as x`;
  const checked = await pool.query(combined, [projectId, programId]);
  process.stdout.write(`one statement: ${JSON.parse(checked.rows[0].vals).length} values, ${JSON.parse(checked.rows[0].files).length} files\n`);
  const cases: [string, () => Promise<unknown>][] = [
    ['GetProjectData today: the project row, then three at once', async () => {
      await pool.query(first!.sql, first!.params);
      await Promise.all(rest.map((s) => pool.query(s.sql, s.params)));
    }],
    ['(c) one statement, values/files/lookups as JSON, parsed', async () => {
      const r = (await pool.query(combined, [projectId, programId])).rows[0];
      return [JSON.parse(r.vals), JSON.parse(r.files), JSON.parse(r.lookups)];
    }],
    ['GetProjects limit=100 today: 101 rows', () => pool.query(pageSql, page.statements[0]!.params)],
    ['(c) the page as one JSON text, parsed', async () => JSON.parse((await pool.query(pageJson, page.statements[0]!.params)).rows[0].page)],
  ];
  const n = Number(nArg);
  for (const [label, run] of cases) {
    const cpu: number[] = [];
    const wall: number[] = [];
    for (let round = 0; round < 5; round++) {
      const c0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < n; i++) await run();
      const c = process.cpuUsage(c0);
      wall.push(Number(process.hrtime.bigint() - t0) / 1000 / n);
      cpu.push((c.user + c.system) / n);
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[2]!.toFixed(0).padStart(6);
    process.stdout.write(`${label.padEnd(62)} client CPU ${median(cpu)} µs   wall ${median(wall)} µs\n`);
  }
} finally {
  await pool.end();
  await server.stop();
}
