/**
 * `npx tsx bench/access-groups-cost.ts DIR/bench.db [ROUNDS]` (or `--pg DIR [ROUNDS]`) — what a grant limited to access
 * groups costs the reads a reviewer makes (issue 34, §4), on a SQLite database (or the PostgreSQL cluster in DIR/pg)
 * kept by `npm run bench -- --data-dir DIR`. The first run gives
 * the demo program three groups and every project its membership (North about 50 % of the projects, South the rest,
 * Islands about 1 % beside South), as the import's recount would write it for conditions that split them so, and
 * adds two reviewers limited to North and to Islands; then, in process (app.inject, no network), each read is sent
 * ROUNDS times (20 by default) after two warm-ups as the demo's unlimited reviewer and as each limited one, and its
 * p50, p95 and CPU time per request are printed. A last part times the recount of a program's membership (the import
 * of a changed condition) over the first 10,000 projects, in one transaction rolled back, then again with each of
 * them assigned to the North reviewer (the recount unassigns those it moves out of North); ROUNDS 0 times only that.
 */
import fs from 'node:fs';
import path from 'node:path';
import { formatApiKey, hashSecret } from '../src/domain/accounts/secrets.ts';
import { regroupProgram } from '../src/domain/access-groups/keep-access-groups.ts';
import { changeReactions } from '../src/domain/wiring/change-reactions.ts';
import { RandomIdGenerator } from '../src/model/ids.ts';
import { openDatabase } from '../src/store/database.ts';
import { createKyselyStore } from '../src/store/kysely-store.ts';
import { createSecretBox, ephemeralSecretBox, parseSecretKeys } from '../src/store/secret-box.ts';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { startEmbeddedPostgres } from '../test/support/embedded-postgres.ts';
import { demoAuth, openApp } from './in-process.ts';

const args = process.argv.slice(2);
const pgDir = args[0] === '--pg' ? args[1] : undefined;
const [file, roundsArg] = pgDir ? [pgDir, args[2]] : args;
if (!file) throw new Error('usage: tsx bench/access-groups-cost.ts DIR/bench.db|--pg DIR [ROUNDS]');
const rounds = Number(roundsArg ?? 20);
const dataDir = pgDir ?? path.dirname(file);
const pg = pgDir ? await startEmbeddedPostgres({ keepDir: path.join(pgDir, 'pg') }) : undefined;
/** The database's URL: the SQLite file, or the started cluster's. */
const url = pg?.url ?? file;
const API = '/services/v2/Programs/RES-SOLAR';
const GROUPS = [
  { customId: 'north', name: 'North', if: 'SystemSizeKwDc < 7.0' },
  { customId: 'south', name: 'South', if: 'SystemSizeKwDc >= 7.0' },
  { customId: 'islands', name: 'Islands', if: 'SystemSizeKwDc >= 7.0 && SystemSizeKwDc < 7.1' },
];
const LIMITED = { north: 'AGBENCHNORTH', islands: 'AGBENCHISLND' } as const;
/** The number of a North project, which GetProjectsByNumber looks up. */
let northNumber = '';

// A project's place in the split, from its random id: stable across runs of one database (SQLite's unicode() is
// PostgreSQL's ascii() for these characters).
const BUCKET = (code: string) => sql.raw(`(${code}(substr(id, 12, 1)) * 31 + ${code}(substr(id, 11, 1)) * 7 + ${code}(substr(id, 10, 1))) % 100`);

async function openStore() {
  process.env.DATABASE_URL = url;
  const keyFile = path.join(dataDir, 'apas-secret.key');
  const secrets = fs.existsSync(keyFile) ? createSecretBox(parseSecretKeys(fs.readFileSync(keyFile, 'utf8'), keyFile)) : ephemeralSecretBox();
  const opened = await openDatabase(loadConfig().database);
  return { opened, store: createKyselyStore(opened, { secrets }) };
}

async function prepare(): Promise<void> {
  const { opened, store } = await openStore();
  const db = opened.db;
  const bucket = BUCKET(opened.dialect === 'postgres' ? 'ascii' : 'unicode');
  const program = await db.selectFrom('programs').select(['id', 'access_groups']).where('custom_id', '=', 'RES-SOLAR').executeTakeFirstOrThrow();
  // The demo program has access groups of its own (north and south by Territory): the bench's replace them once.
  if (program.access_groups !== JSON.stringify(GROUPS)) {
    const started = performance.now();
    await db.transaction().execute(async (tx) => {
      await tx.updateTable('programs').set({ access_groups: JSON.stringify(GROUPS) } as never).where('id', '=', program.id).execute();
      await tx.deleteFrom('project_access_groups').where('program_id', '=', program.id).execute();
      await sql`insert into project_access_groups (project_id, group_id, program_id) select id, case when ${bucket} < 50 then 'north' else 'south' end, program_id from projects where program_id = ${program.id}`.execute(tx);
      await sql`insert into project_access_groups (project_id, group_id, program_id) select id, 'islands', program_id from projects where program_id = ${program.id} and ${bucket} = 99`.execute(tx);
      await sql`update projects set access_groups = case when ${bucket} < 50 then '["north"]' when ${bucket} = 99 then '["south","islands"]' else '["south"]' end where program_id = ${program.id}`.execute(tx);
    });
    await sql`analyze`.execute(db);
    process.stdout.write(`memberships written in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  }
  const counts = await db.selectFrom('project_access_groups').select(['group_id', (eb) => eb.fn.countAll<number | string>().as('n')]).where('program_id', '=', program.id).groupBy('group_id').execute();
  process.stdout.write(`members: ${counts.map((c) => `${c.group_id} ${c.n}`).join(', ')}\n`);
  northNumber = (await sql<{ number: string }>`select p.number from projects p join project_access_groups g on g.project_id = p.id where g.group_id = 'north' and p.number is not null limit 1`.execute(db)).rows[0]!.number;
  const agency = (await store.programs.findProgram('RES-SOLAR'))!;
  for (const [group, id] of Object.entries(LIMITED)) {
    // The demo reviewer's role (editor), limited to one group.
    const grant = { userId: id, programId: agency.id, role: 'editor', sensitive: false, accessGroups: [group] };
    if (await store.accounts.findUserById(id)) {
      await store.transaction((tx) => tx.accounts.setGrant(grant));
      continue;
    }
    const [passwordHash, secretHash] = await Promise.all([hashSecret(`password-${group}`), hashSecret(`secret${group}`.padEnd(32, 'x'))]);
    await store.transaction(async (tx) => {
      await tx.accounts.insertUser({ id, agencyId: agency.agencyId, email: `${group}@bench.apas.local`, name: `Reviewer ${group}`, agencyAdmin: false, disabled: false }, passwordHash, Date.now());
      await tx.accounts.insertApiKey({ id: `K${id.slice(1)}`, userId: id, name: 'bench', secretHash, createdAt: Date.now(), revokedAt: null });
      await tx.accounts.setGrant(grant);
    });
  }
  await store.close();
}

function limitedAuth(group: keyof typeof LIMITED): Record<string, string> {
  return {
    authorization: `Basic ${Buffer.from(`${group}@bench.apas.local:password-${group}`).toString('base64')}`,
    'x-apikey': formatApiKey({ id: `K${LIMITED[group].slice(1)}`, secret: `secret${group}`.padEnd(32, 'x') }),
  };
}

async function measure(): Promise<void> {
  const { app, close } = await openApp(url, path.join(dataDir, 'apas-secret.key'));
  const callers: [string, Record<string, string>][] = [['unlimited reviewer', demoAuth('reviewer')], ['North (~50 %)', limitedAuth('north')], ['Islands (~1 %)', limitedAuth('islands')]];
  const reads: [string, string][] = [
    ['GetProjects limit=100', `${API}/Projects?limit=100`],
    ['GetProjects limit=100 offset=10000', `${API}/Projects?limit=100&offset=10000`],
    ['GetProjectsByNumber (a North project)', ''],
    ['Web work queue first page (100 rows, with its counts)', '/Projects/ProjectList?ProgramId=RES-SOLAR&size=100'],
    ['Web work queue status filter', '/Projects/ProjectList?ProgramId=RES-SOLAR&size=100&status=ApprovedForInstallation'],
    ['Web work queue needs attention', '/Projects/ProjectList?ProgramId=RES-SOLAR&size=100&attention=any'],
  ];
  process.stdout.write(`\n| read | caller | rows | p50 ms | p95 ms | CPU ms a request |\n|---|---|---|---|---|---|\n`);
  for (const [name, url] of reads) {
    for (const [who, headers] of callers) {
      const web = url.startsWith('/Projects/') ? { authorization: headers.authorization! } : headers;
      const request = url === ''
        ? { method: 'POST' as const, url: `${API}/Projects/ByNumber`, headers: { ...headers, 'content-type': 'application/xml' }, payload: `<ProjectByNumberRequest xmlns="http://service.powerclerk.com/api/v1/"><Project ProjectNumber="${northNumber}"/></ProjectByNumberRequest>` }
        : { method: 'GET' as const, url, headers: web };
      let rows = 0;
      for (let i = 0; i < 2; i++) {
        const res = await app.inject(request);
        if (res.statusCode !== 200) throw new Error(`${name} as ${who}: ${res.statusCode} ${res.body.slice(0, 300)}`);
        rows = (res.body.match(/<Project /g) ?? res.body.match(/\/Review"/g) ?? []).length;
      }
      const times: number[] = [];
      const cpu = process.cpuUsage();
      for (let i = 0; i < rounds; i++) {
        const t = performance.now();
        await app.inject(request);
        times.push(performance.now() - t);
      }
      const used = process.cpuUsage(cpu);
      times.sort((a, b) => a - b);
      const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
      process.stdout.write(`| ${name} | ${who} | ${rows} | ${at(0.5)} | ${at(0.95)} | ${((used.user + used.system) / 1000 / rounds).toFixed(1)} |\n`);
    }
  }
  await close();
}

async function recount(assigned: boolean): Promise<void> {
  const { store } = await openStore();
  const program = (await store.programs.findProgram('RES-SOLAR'))!;
  const limit = 10_000;
  let started = 0;
  let ms = 0;
  let cpu = process.cpuUsage();
  let used = cpu;
  let moved = 0;
  let unassigned = 0;
  let flushMs = 0;
  await store.transaction(async (tx) => {
    // Only the first `limit` projects: a stand-in program of that size, the rest left as they are, all rolled back.
    const page = await tx.projects.projectGroupsPage(program.id, null, limit);
    const last = page.at(-1)!.id;
    // With `assigned`, each of them is the North reviewer's: those the recount moves out of North are unassigned.
    if (assigned) for (const p of page) await tx.projects.updateProject(p.id, p.version, { assigneeId: LIMITED.north });
    const probe = { ...tx, projects: { ...tx.projects, projectGroupsPage: async (id: string, after: string | null, n: number) => (after !== null && after >= last ? [] : (await tx.projects.projectGroupsPage(id, after, n)).filter((r) => r.id <= last)) } };
    started = performance.now();
    cpu = process.cpuUsage();
    moved = await regroupProgram(probe as typeof tx, program.id, Date.now(), { ids: new RandomIdGenerator(), reactions: changeReactions(), actorId: null, requestId: null });
    used = process.cpuUsage(cpu);
    ms = performance.now() - started;
    // The dashboards' counts of the moved projects, which the store refreshes just before the commit.
    const flushing = performance.now();
    await tx.dashboards.flush();
    flushMs = performance.now() - flushing;
    if (assigned) unassigned = (await tx.projects.projectGroupsPage(program.id, null, limit)).filter((p) => p.assigneeId === null).length;
    throw new Error('rollback');
  }).catch((error: unknown) => {
    if ((error as Error).message !== 'rollback') throw error;
  });
  const cpuMs = (used.user + used.system) / 1000;
  const who = assigned ? `, every one assigned to the North reviewer: ${unassigned} unassigned` : '';
  process.stdout.write(`\nrecount of ${limit} projects (conditions evaluated on their submitted values${who}): ${(ms / 1000).toFixed(1)} s (CPU ${(cpuMs / 1000).toFixed(1)} s), ${moved} moved, ${(ms / limit).toFixed(2)} ms a project; then the dashboards' refresh at commit ${(flushMs / 1000).toFixed(1)} s\n`);
  await store.close();
}

try {
  await prepare();
  // ROUNDS 0: only the recount.
  if (rounds > 0) await measure();
  await recount(false);
  await recount(true);
} finally {
  await pg?.stop();
}
