/**
 * `npm run bench -- [--projects 10000] [--db sqlite|postgres] [--duration 5] [--connections 10] [--only NAME,…] [--data-dir DIR]`
 *
 * Loads the demo program with N generated projects, starts apas and a baseline server (a bare Fastify route
 * answering pre-rendered copies of apas's own answers) as separate processes on loopback, and drives both with
 * autocannon from this process. Prints requests/s, p50/p99 latency, the ratio ours/baseline and the server's
 * peak RSS, and writes the figures to bench/results/<db>-<N>.json (bench/report.ts turns them into a table).
 * `--floor` also drives floor-server.ts, which runs the statements apas ran for each read before answering the same
 * bytes: the best ratio any implementation that reads the database per request could reach here.
 * It ends with bench/rules-cost.ts: what the demo program's rules add to a draft save and a submission
 * (`--only rules` runs just that, after the load), and bench/seal-cost.ts: rendering a three-page agreement from its
 * template and making its sealed signed PDF (`--only seal` runs just that, with no load), and bench/generation-cost.ts:
 * a status change whose automation asks for a document against one that does not (`--only generation`, no load).
 * `--against REF [--rounds 3]` instead runs the reads on REF and on this checkout side by side (bench/against.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { systemClock } from '../src/model/clock.ts';
import { DEMO_CREDENTIALS, seedDemo } from '../src/domain/programs/demo.ts';
import { RandomIdGenerator } from '../src/model/ids.ts';
import { openDatabase } from '../src/store/database.ts';
import { createBlobStore } from '../src/store/create-blob-store.ts';
import { createKyselyStore } from '../src/store/kysely-store.ts';
import { createSecretBox, parseSecretKeys } from '../src/store/secret-box.ts';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../test/support/embedded-postgres.ts';
import { measureAuthentication } from './auth-overhead.ts';
import { type BulkAssignFigures, measureBulkAssign } from './bulk-assign.ts';
import { isRead, recordReads } from './floor-statements.ts';
import { generateProjects } from './generate.ts';
import { runAgainst } from './against.ts';
import { scenarios } from './scenarios.ts';
import type { Scenario } from './scenario-types.ts';
import { benchKeyFile, drive, type Figures, freePort, ROOT, rssMb, serverEnv, spawnLogged, waitFor } from './servers.ts';
import { programCheckers } from '../src/domain/wiring/program-checkers.ts';

export type { Figures } from './servers.ts';

/** One scenario's result: ours, the baseline's, and the server's peak RSS during it. */
export interface ScenarioResult {
  name: string; ours: Figures; baseline: Figures; ratio: number; peakRssMb: number;
  /** With --floor, for reads: the floor server's figures and its ratio to the baseline. */
  floor?: Figures; floorRatio?: number;
}

/** A whole run, as written to bench/results. */
export interface RunResult {
  db: string; projects: number; loadMs: number; date: string; machine: string; duration: number; connections: number;
  scenarios: ScenarioResult[]; auth: { authUs: number; requestUs: number; share: number }; maxRssMb: number;
  /** The work queue's bulk assign of 500 projects (bench/bulk-assign.ts), when the run measured it. */
  bulkAssign?: BulkAssignFigures;
}

async function cannedOne(base: string, name: string, method: string, url: string, headers?: Record<string, string>, body?: string) {
  const res = await fetch(`${base}${url}`, { method, headers, body });
  const text = await res.text();
  if (!res.ok) throw new Error(`${name}: apas answered ${res.status}: ${text.slice(0, 500)}`);
  return { method, url, ...(body ? { requestBody: body } : {}), status: res.status, contentType: res.headers.get('content-type') ?? 'application/xml', body: text };
}

// apas's own answers, for the baseline to repeat; a chain is run once, so its later paths hold that run's project.
async function canned(base: string, list: Scenario[]): Promise<object[]> {
  const out: object[] = [];
  for (const s of list) {
    if (!s.steps) {
      out.push(await cannedOne(base, s.name, s.method, s.url, s.headers, s.body));
      continue;
    }
    let project = '';
    for (const step of s.steps) {
      const answer = await cannedOne(base, s.name, step.method, step.path.replace('{project}', project), step.headers, step.body);
      project ||= /ProjectId="([^"]+)"/.exec(answer.body)?.[1] ?? '';
      out.push(answer);
    }
  }
  return out;
}

async function prepareDatabase(db: string, dir: string, projects: number, pg?: EmbeddedPostgres): Promise<{ url: string; loadMs: number; stop: () => Promise<void>; generated: Awaited<ReturnType<typeof generateProjects>> }> {
  process.stdout.write(`loading ${projects} projects into ${db}…\n`);
  let url = path.join(dir, 'bench.db');
  let stop = async () => {};
  if (db === 'postgres') {
    const server = pg ?? await startEmbeddedPostgres();
    url = server.url;
    stop = () => server.stop();
  }
  const config = db === 'postgres' ? { kind: 'postgres' as const, url } : { kind: 'sqlite' as const, file: url };
  // Sealed with the key the server is given (benchKeyFile): the demo's sensitive values are stored sealed.
  const store = createKyselyStore(await openDatabase(config), { secrets: createSecretBox(parseSecretKeys(fs.readFileSync(benchKeyFile(dir), 'utf8'), benchKeyFile(dir))) });
  // The blob store the server will use by default: a directory beside the SQLite file, or the database.
  const blobs = createBlobStore({ blobStore: db === 'postgres' ? 'database' : 'local', blobDir: path.join(dir, 'blobs') }, store);
  try {
    await seedDemo({ store, clock: systemClock, ids: new RandomIdGenerator(), checkers: programCheckers() });
    const generated = await generateProjects(store, projects, blobs);
    // What autovacuum would do soon after a bulk load: the planner's statistics and the visibility map (which lets
    // index-only scans skip the table), so the runs measure a settled database rather than the minutes after a load.
    if (db === 'postgres') await vacuumAnalyze(url);
    return { url, loadMs: generated.ms, stop, generated };
  } finally {
    await store.close();
  }
}

async function vacuumAnalyze(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('vacuum analyze');
  } finally {
    await client.end();
  }
}

/** A run of some scenarios (--only) put into the file's earlier run: its scenarios replaced, the others kept. */
function mergedRun(file: string, run: RunResult): RunResult {
  if (!fs.existsSync(file)) return run;
  const earlier = JSON.parse(fs.readFileSync(file, 'utf8')) as RunResult;
  const fresh = new Map(run.scenarios.map((s) => [s.name, s]));
  const scenarios = earlier.scenarios.map((s) => fresh.get(s.name) ?? s);
  for (const s of run.scenarios) if (!earlier.scenarios.some((e) => e.name === s.name)) scenarios.push(s);
  return { ...earlier, date: run.date, scenarios, maxRssMb: Math.max(...scenarios.map((s) => s.peakRssMb)), bulkAssign: run.bulkAssign ?? earlier.bulkAssign };
}

type Prepared = Awaited<ReturnType<typeof prepareDatabase>>;

/**
 * A database loaded by an earlier run with the same --data-dir, or loaded now and kept there: the SQLite file,
 * or for PostgreSQL the embedded cluster's directory (DIR/pg), started again on its data. generated.json marks
 * a finished load; without it (say, an interrupted load) the directory's database is made afresh.
 */
async function keptDatabase(db: string, dir: string, projects: number): Promise<Prepared> {
  const marker = path.join(dir, 'generated.json');
  const pgDir = path.join(dir, 'pg');
  if (fs.existsSync(marker)) {
    const saved = JSON.parse(fs.readFileSync(marker, 'utf8')) as { db?: string; loadMs: number; generated: Prepared['generated'] };
    if (saved.generated.count !== projects) throw new Error(`${dir} holds ${saved.generated.count} projects, not ${projects}`);
    if ((saved.db ?? 'sqlite') !== db) throw new Error(`${dir} holds a ${saved.db ?? 'sqlite'} database, not ${db}`);
    process.stdout.write(`reusing the ${projects} projects loaded into ${dir}\n`);
    if (db === 'postgres') {
      const pg = await startEmbeddedPostgres({ keepDir: pgDir });
      if (!pg.reused) {
        await pg.stop();
        throw new Error(`${pgDir} holds no PostgreSQL cluster; delete ${marker} to load it again`);
      }
      return { url: pg.url, loadMs: saved.loadMs, stop: () => pg.stop(), generated: saved.generated };
    }
    return { url: path.join(dir, 'bench.db'), loadMs: saved.loadMs, stop: async () => {}, generated: saved.generated };
  }
  fs.mkdirSync(dir, { recursive: true });
  let prepared: Prepared;
  if (db === 'postgres') {
    fs.rmSync(pgDir, { recursive: true, force: true });
    prepared = await prepareDatabase(db, dir, projects, await startEmbeddedPostgres({ keepDir: pgDir }));
  } else {
    prepared = await prepareDatabase(db, dir, projects);
  }
  fs.writeFileSync(marker, JSON.stringify({ db, loadMs: prepared.loadMs, generated: prepared.generated }));
  return prepared;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      projects: { type: 'string', default: '10000' }, db: { type: 'string', default: 'sqlite' },
      duration: { type: 'string', default: '5' }, connections: { type: 'string', default: '10' }, only: { type: 'string' },
      'data-dir': { type: 'string' }, floor: { type: 'boolean', default: false }, against: { type: 'string' }, rounds: { type: 'string', default: '3' },
    },
  });
  const projects = Number(values.projects);
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  if (values.against) {
    await runAgainst({ ref: values.against, db: values.db!, projects, duration, connections, rounds: Number(values.rounds), ...(values.only ? { only: values.only } : {}) });
    return;
  }
  // The document benches open databases of their own: asked for alone, they run without the load.
  const only = values.only?.split(',');
  if (only?.every((part) => part === 'seal' || part === 'generation')) {
    if (only.includes('seal')) await runSealCost();
    if (only.includes('generation')) await runGenerationCost(values.db === 'postgres');
    return;
  }
  // --data-dir keeps the loaded database (SQLite's file or PostgreSQL's cluster, and the files) for later runs,
  // which skip the load; the write scenarios
  // add to it, so such a run is close to, not the same as, a run on freshly loaded data.
  const kept = values['data-dir'] ? path.resolve(values['data-dir']) : undefined;
  const dir = kept ?? fs.mkdtempSync(path.join(os.tmpdir(), 'apas-bench-'));
  const children: ChildProcess[] = [];
  let stopDb = async () => {};
  try {
    const prepared = kept ? await keptDatabase(values.db!, kept, projects) : await prepareDatabase(values.db!, dir, projects);
    stopDb = prepared.stop;
    process.stdout.write(`loaded in ${(prepared.loadMs / 1000).toFixed(1)} s\n`);
    const [port, basePort] = [await freePort(), await freePort()];
    // APAS_BENCH_NODE_ARGS adds node options to apas's server, e.g. `--cpu-prof --cpu-prof-dir=DIR`, as with --against.
    const nodeArgs = (process.env.APAS_BENCH_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
    const server = spawnLogged([...nodeArgs, 'bin/apas.js', 'serve'], serverEnv(prepared.url, port, benchKeyFile(dir)));
    children.push(server.child);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/readyz`, server.child, server.log);
    const list = (await scenarios(base, prepared.generated)).filter((s) => !values.only || values.only.split(',').some((part) => s.name.includes(part)));
    const cannedFile = path.join(dir, 'canned.json');
    fs.writeFileSync(cannedFile, JSON.stringify(await canned(base, list)));
    const baseline = spawnLogged(['--import', 'tsx', 'bench/baseline-server.ts', cannedFile, String(basePort)], {});
    children.push(baseline.child);
    const baseUrl = `http://127.0.0.1:${basePort}`;
    await waitFor(`${baseUrl}/`, baseline.child, baseline.log, true);
    let floorUrl: string | undefined;
    let floorPid: number | undefined;
    if (values.floor) {
      const readsFile = path.join(dir, 'floor-reads.json');
      fs.writeFileSync(readsFile, JSON.stringify(await recordReads(prepared.url, list, benchKeyFile(dir))));
      const floorPort = await freePort();
      const floor = spawnLogged(['--import', 'tsx', 'bench/floor-server.ts', cannedFile, readsFile, String(floorPort), prepared.url], {});
      children.push(floor.child);
      floorPid = floor.child.pid;
      floorUrl = `http://127.0.0.1:${floorPort}`;
      await waitFor(`${floorUrl}/`, floor.child, floor.log, true);
    }
    const results: ScenarioResult[] = [];
    let maxRss = rssMb(server.child.pid!);
    for (const s of list) {
      let peak = rssMb(server.child.pid!);
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.child.pid!))), 200);
      const ours = await drive(base, s, duration, connections, server.child.pid);
      clearInterval(sampler);
      const theirs = await drive(baseUrl, s, duration, connections, baseline.child.pid);
      maxRss = Math.max(maxRss, peak);
      const r: ScenarioResult = { name: s.name, ours, baseline: theirs, ratio: ours.rps / theirs.rps, peakRssMb: peak };
      if (floorUrl && isRead(s)) {
        r.floor = await drive(floorUrl, s, duration, connections, floorPid);
        r.floorRatio = r.floor.rps / theirs.rps;
      }
      results.push(r);
      const cpu = (f: Figures) => (f.cpuUs === undefined ? '' : `  cpu ${f.cpuUs.toFixed(0)} µs/req`);
      const floorText = r.floor ? `  | floor ${r.floor.rps.toFixed(0).padStart(7)} req/s  ratio ${r.floorRatio!.toFixed(2)}${cpu(r.floor)}${r.floor.errors + r.floor.non2xx > 0 ? ' FAILED' : ''}` : '';
      process.stdout.write(`${s.name.padEnd(44)} ${ours.rps.toFixed(0).padStart(7)} req/s  p50 ${String(ours.p50).padStart(4)} ms  p99 ${String(ours.p99).padStart(4)} ms  | baseline ${theirs.rps.toFixed(0).padStart(7)} req/s  ratio ${r.ratio.toFixed(2)}  rss ${peak.toFixed(0)} MB${cpu(ours)}${cpu(theirs)}${ours.errors + ours.non2xx > 0 ? `  FAILED ${ours.errors} errors ${ours.non2xx} non-2xx` : ''}${floorText}\n`);
    }
    // One bulk action at a time, after the scenarios: its 500 change steps would otherwise compete with theirs.
    let bulkAssign: BulkAssignFigures | undefined;
    if (!values.only || values.only.split(',').includes('bulk')) {
      bulkAssign = await measureBulkAssign(base, Math.min(500, projects), 3);
      process.stdout.write(`Web bulk assign of ${bulkAssign.projects} projects: p50 ${bulkAssign.p50Ms.toFixed(0)} ms (${bulkAssign.msPerProject.toFixed(2)} ms a project), max ${bulkAssign.maxMs.toFixed(0)} ms of ${bulkAssign.rounds}; one SetAssignee at a time p50 ${bulkAssign.singleSetAssigneeMs.toFixed(1)} ms\n`);
    }
    const auth = await measureAuthentication(values.db === 'postgres' ? { kind: 'postgres', url: prepared.url } : { kind: 'sqlite', file: prepared.url },
      DEMO_CREDENTIALS[0]!, results.find((r) => r.name.startsWith('GetProjects limit=100'))?.ours.p50 ?? 0);
    process.stdout.write(`authentication: ${auth.authUs.toFixed(0)} µs of a ${auth.requestUs.toFixed(0)} µs request (${(auth.share * 100).toFixed(1)}%)\n`);
    const run: RunResult = {
      db: values.db!, projects, loadMs: prepared.loadMs, date: new Date().toISOString(), machine: `${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`,
      duration, connections, scenarios: results, auth, maxRssMb: maxRss, ...(bulkAssign ? { bulkAssign } : {}),
    };
    const out = path.join(ROOT, 'bench', 'results', `${values.db}-${projects}.json`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify(values.only ? mergedRun(out, run) : run, null, 2)}\n`);
    process.stdout.write(`written ${path.relative(ROOT, out)}\n`);
    // What the demo program's rules add to a draft save and a submission (issue 20: at most 10 %), in-process on
    // SQLite whatever --db says: the rules run in the service, not in the database.
    if (!values.only || values.only.split(',').includes('rules')) await runRulesCost();
    if (!values.only || values.only.split(',').includes('seal')) await runSealCost();
    if (!values.only || values.only.split(',').includes('generation')) await runGenerationCost(values.db === 'postgres');
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await stopDb();
    if (!kept) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs bench/seal-cost.ts in a process of its own (its memory is the signed PDFs' alone), its output passed through. */
async function runSealCost(): Promise<void> {
  process.stdout.write('rendering a three-page agreement and making its signed PDF (bench/seal-cost.ts 30):\n');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'seal-cost.ts'), '30'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`bench/seal-cost.ts exited with ${code}`);
}

/** Runs bench/generation-cost.ts in a process of its own (its own database, PostgreSQL when the run's is), its output passed through. */
async function runGenerationCost(postgres: boolean): Promise<void> {
  process.stdout.write('a status change that asks for a document, against one that does not (bench/generation-cost.ts 100 7):\n');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'generation-cost.ts'), '100', '7', ...(postgres ? ['--pg'] : [])], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`bench/generation-cost.ts exited with ${code}`);
}

/** Runs bench/rules-cost.ts in a process of its own (it opens its own database), its output passed through. */
async function runRulesCost(): Promise<void> {
  process.stdout.write('the demo program\'s rules (bench/rules-cost.ts 150 5):\n');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'rules-cost.ts'), '150', '5'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`bench/rules-cost.ts exited with ${code}`);
}

await main();
