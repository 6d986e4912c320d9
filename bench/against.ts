/**
 * `npm run bench -- --against REF [--db sqlite|postgres] [--projects N] [--duration S] [--connections C] [--rounds R] [--only NAME,…]`
 *
 * Runs an earlier release (any commit, branch or tag) beside this checkout in one run: REF is checked out into a
 * temporary `git worktree`, given node_modules (this checkout's when the lockfiles are the same, else its own
 * `npm ci`, kept by lockfile for the next run) and built; REF's own bench loads the data, so both releases start on
 * copies of one freshly loaded database (this checkout's server migrates its copy forward, as an upgrade would).
 * Each read of `readScenarios` is then driven on both servers in turn, R rounds, the side that goes first swapped
 * every round, so that the machine's noise falls on both. Prints each round, then the medians and their ratio, and
 * writes bench/results/against-<db>-<N>.json.
 */
import { type ChildProcess, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../test/support/embedded-postgres.ts';
import type { Generated } from './generate.ts';
import { readScenarios } from './scenarios.ts';
import type { Scenario } from './scenario-types.ts';
import { benchKeyFile, cpuMs, drive, type Figures, freePort, ROOT, serverEnv, spawnLogged, waitFor } from './servers.ts';

/** What `--against` was given. */
export interface AgainstOptions { ref: string; db: string; projects: number; duration: number; connections: number; rounds: number; only?: string }

/** One side's figures of one round, with the server's CPU time per answered request (µs). */
export interface SideFigures extends Figures { cpuUs: number }

/**
 * One read's figures on both sides, a round each; the ratio of the medians of requests/s (this checkout / REF), its
 * range over the rounds, and the same ratio by CPU time per request (REF's µs / this checkout's: above 1 is faster).
 */
export interface AgainstScenario {
  name: string; ref: SideFigures[]; head: SideFigures[]; ratio: number; ratioMin: number; ratioMax: number; cpuRatio: number;
}

/** A whole `--against` run, as written to bench/results. */
export interface AgainstResult {
  ref: string; refCommit: string; head: string; db: string; projects: number; date: string; machine: string;
  duration: number; connections: number; rounds: number; scenarios: AgainstScenario[];
}

interface Side { label: string; base: string; child: ChildProcess; log: () => string; list: Scenario[] }

function git(args: string[], cwd = ROOT): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

function run(command: string, args: string[], cwd: string, what: string): void {
  process.stdout.write(`${what}…\n`);
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${what} failed (${command} ${args.join(' ')} in ${cwd}):\n${(r.stdout + r.stderr).slice(-4000)}`);
}

/**
 * node_modules for REF's tree: this checkout's when the lockfiles agree, else an `npm ci` of REF's lockfile, kept
 * under the temporary directory by the lockfile's hash so that the next run against the same REF skips it.
 */
function linkModules(tree: string, commit: string): void {
  const theirs = git(['show', `${commit}:package-lock.json`]);
  const ours = fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8').trim();
  if (theirs === ours) {
    fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(tree, 'node_modules'));
    return;
  }
  const kept = path.join(os.tmpdir(), 'apas-bench-modules', createHash('sha256').update(theirs).digest('hex').slice(0, 16));
  if (!fs.existsSync(path.join(kept, 'node_modules', '.package-lock.json'))) {
    run('npm', ['ci', '--no-audit', '--no-fund'], tree, `installing REF's own dependencies (its lockfile differs), kept in ${kept}`);
    fs.rmSync(kept, { recursive: true, force: true });
    fs.mkdirSync(kept, { recursive: true });
    fs.renameSync(path.join(tree, 'node_modules'), path.join(kept, 'node_modules'));
  }
  fs.symlinkSync(path.join(kept, 'node_modules'), path.join(tree, 'node_modules'));
}

/** REF checked out in a temporary worktree, with node_modules and a build; `remove` takes the worktree away again. */
function refTree(ref: string, dir: string): { tree: string; commit: string; remove: () => void } {
  const commit = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  const tree = path.join(dir, 'tree');
  git(['worktree', 'add', '--detach', tree, commit]);
  const remove = () => {
    spawnSync('git', ['worktree', 'remove', '--force', tree], { cwd: ROOT });
    spawnSync('git', ['worktree', 'prune'], { cwd: ROOT });
  };
  try {
    linkModules(tree, commit);
    run('npm', ['run', 'build'], tree, `building ${ref} (${commit.slice(0, 7)})`);
  } catch (error) {
    remove();
    throw error;
  }
  return { tree, commit, remove };
}

/**
 * Loads the data with REF's own bench (its loader, its schema): `bench/run.ts --data-dir` with an `--only` that names
 * no scenario loads, keeps the database and writes generated.json, and measures nothing.
 */
function loadWithRef(tree: string, options: AgainstOptions, dataDir: string): Generated {
  run(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--db', options.db, '--projects', String(options.projects), '--data-dir', dataDir,
    '--only', 'no scenario: load only', '--duration', '1'], tree, `loading ${options.projects} projects into ${options.db} with REF's bench`);
  const { generated } = JSON.parse(fs.readFileSync(path.join(dataDir, 'generated.json'), 'utf8')) as { generated: Omit<Generated, 'firstAt' | 'spanMs'> & Partial<Generated> };
  // Loaders before `firstAt` and `spanMs` made one project a minute from 2024-01-01 on.
  return { firstAt: Date.UTC(2024, 0, 1), spanMs: generated.count * 60_000, ...generated };
}

/** Two copies of the loaded database, one per side: files for SQLite, databases made from it as a template on PostgreSQL. */
async function copies(db: string, dataDir: string): Promise<{ urls: [string, string]; stop: () => Promise<void> }> {
  if (db !== 'postgres') {
    const urls = ['ref', 'head'].map((side) => {
      const to = path.join(dataDir, side);
      fs.mkdirSync(to, { recursive: true });
      for (const f of fs.readdirSync(dataDir)) if (f.startsWith('bench.db')) fs.copyFileSync(path.join(dataDir, f), path.join(to, f));
      if (fs.existsSync(path.join(dataDir, 'blobs'))) fs.cpSync(path.join(dataDir, 'blobs'), path.join(to, 'blobs'), { recursive: true });
      return path.join(to, 'bench.db');
    });
    return { urls: urls as [string, string], stop: async () => {} };
  }
  const server: EmbeddedPostgres = await startEmbeddedPostgres({ keepDir: path.join(dataDir, 'pg') });
  const at = (name: string) => Object.assign(new URL(server.url), { pathname: `/${name}` }).toString();
  // Connected to template1: a database cannot be copied while anyone is connected to it.
  const admin = new pg.Client({ connectionString: at('template1') });
  await admin.connect();
  try {
    for (const name of ['apas_ref', 'apas_head']) await admin.query(`create database ${name} template postgres`);
  } finally {
    await admin.end();
  }
  return { urls: [at('apas_ref'), at('apas_head')], stop: () => server.stop() };
}

async function startSide(label: string, cwd: string, url: string, keyFile: string): Promise<Omit<Side, 'list'>> {
  const port = await freePort();
  // APAS_BENCH_NODE_ARGS adds node options to both servers, e.g. `--cpu-prof --cpu-prof-dir=DIR` to see where a read's time goes.
  const nodeArgs = (process.env.APAS_BENCH_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
  const { child, log } = spawnLogged([...nodeArgs, path.join(cwd, 'bin', 'apas.js'), 'serve'], serverEnv(url, port, keyFile), cwd);
  return { label, base: `http://127.0.0.1:${port}`, child, log };
}

/** The reads both sides answer with 2xx; one that either side refuses (say, an operation REF did not have) is left out, and said so. */
async function common(sides: Side[]): Promise<[Scenario, Scenario][]> {
  const pairs: [Scenario, Scenario][] = [];
  for (const s of sides[0]!.list) {
    const other = sides[1]!.list.find((o) => o.name === s.name);
    if (!other) continue;
    const answers = await Promise.all([[sides[0]!, s], [sides[1]!, other]].map(async ([side, sc]) => {
      const { base } = side as Side;
      const { url, method, headers, body } = sc as Scenario;
      return (await fetch(`${base}${url}`, { method, headers, body })).status;
    }));
    if (answers.every((status) => status >= 200 && status < 300)) pairs.push([s, other]);
    else process.stdout.write(`${s.name}: left out (answered ${answers.join(' and ')})\n`);
  }
  return pairs;
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });

/** The run's table, in markdown: each side's requests/s per round, then the ratio of the medians and its range per round. */
export function againstTable(r: AgainstResult): string {
  const cpu = (fs: SideFigures[]) => fmt(median(fs.map((f) => f.cpuUs)));
  const rows = r.scenarios.map((s) => `| ${s.name} | ${s.ref.map((f) => fmt(f.rps)).join(' / ')} | ${s.head.map((f) => fmt(f.rps)).join(' / ')} | ${s.ratio.toFixed(2)} (${s.ratioMin.toFixed(2)}–${s.ratioMax.toFixed(2)}) | ${cpu(s.ref)} / ${cpu(s.head)} | ${s.cpuRatio.toFixed(2)} |`);
  return [
    `| read | ${r.ref} req/s | ${r.head} req/s | new/old req/s (rounds) | CPU µs/request old / new | new/old by CPU |`, '|---|---|---|---|---|---|', ...rows,
  ].join('\n');
}

/** Runs the comparison described at the top of this file. */
export async function runAgainst(options: AgainstOptions): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-against-'));
  // Run as root, embedded PostgreSQL serves as the user postgres, who must be able to enter this folder to its data.
  fs.chmodSync(dir, 0o755);
  const dataDir = path.join(dir, 'data');
  const children: ChildProcess[] = [];
  let stopDb = async () => {};
  let removeTree = () => {};
  const cleanUp = async () => {
    await Promise.all(children.map((c) => new Promise<void>((resolve) => {
      if (c.exitCode !== null) return resolve();
      c.once('exit', () => resolve());
      c.kill('SIGTERM');
    })));
    await stopDb();
    removeTree();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  // An interrupted run still stops its servers and database and takes its worktree away.
  const interrupted = () => void cleanUp().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const { tree, commit, remove } = refTree(options.ref, dir);
    removeTree = remove;
    const generated = loadWithRef(tree, options, dataDir);
    const db = await copies(options.db, dataDir);
    stopDb = db.stop;
    const keyFile = benchKeyFile(dataDir);
    const head = `${git(['rev-parse', '--short', 'HEAD'])}${git(['status', '--porcelain', '--untracked-files=no']) ? '+changes' : ''}`;
    const started = await Promise.all([startSide(options.ref, tree, db.urls[0], keyFile), startSide(head, ROOT, db.urls[1], keyFile)]);
    children.push(...started.map((s) => s.child));
    await Promise.all(started.map((s) => waitFor(`${s.base}/readyz`, s.child, s.log)));
    const sides: Side[] = await Promise.all(started.map(async (s) => ({
      ...s, list: (await readScenarios(s.base, generated)).filter((sc) => !options.only || options.only.split(',').some((part) => sc.name.includes(part))),
    })));
    const pairs = await common(sides);
    const seconds = pairs.length * 2 * (options.rounds * options.duration + 1);
    process.stdout.write(`${pairs.length} reads, ${options.rounds} rounds of ${options.duration} s on each side: about ${Math.ceil(seconds / 60)} min\n`);
    // A second of each read on each side first, so that neither side's first round runs unoptimised code.
    for (const pair of pairs) for (const [i, side] of sides.entries()) await drive(side.base, pair[i]!, 1, options.connections);
    const measure = async (side: Side, s: Scenario): Promise<SideFigures> => {
      const before = cpuMs(side.child.pid!) ?? 0;
      const f = await drive(side.base, s, options.duration, options.connections);
      return { ...f, cpuUs: (((cpuMs(side.child.pid!) ?? 0) - before) * 1000) / Math.max(1, f.requests ?? 0) };
    };
    const figures = pairs.map(() => [[], []] as [SideFigures[], SideFigures[]]);
    for (let round = 0; round < options.rounds; round++) {
      for (const [k, pair] of pairs.entries()) {
        const order = round % 2 === 0 ? [0, 1] : [1, 0];
        for (const i of order) figures[k]![i]!.push(await measure(sides[i]!, pair[i]!));
        const [a, b] = [figures[k]![0]!.at(-1)!, figures[k]![1]!.at(-1)!];
        const failed = [a, b].some((f) => f.errors + f.non2xx > 0) ? '  FAILED (errors or non-2xx)' : '';
        process.stdout.write(`round ${round + 1}  ${pair[0].name.padEnd(44)} ${options.ref} ${fmt(a.rps).padStart(7)}  ${head} ${fmt(b.rps).padStart(7)}  ratio ${(b.rps / a.rps).toFixed(2)}  CPU µs/request ${fmt(a.cpuUs)} / ${fmt(b.cpuUs)}${failed}\n`);
      }
    }
    const result: AgainstResult = {
      ref: options.ref, refCommit: commit, head, db: options.db, projects: options.projects, date: new Date().toISOString(),
      machine: `${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, load ${os.loadavg()[0]!.toFixed(1)}`,
      duration: options.duration, connections: options.connections, rounds: options.rounds,
      scenarios: pairs.map(([s], k) => {
        const [ref, ours] = figures[k]!;
        const ratios = ours.map((f, i) => f.rps / ref[i]!.rps);
        return {
          name: s.name, ref, head: ours, ratio: median(ours.map((f) => f.rps)) / median(ref.map((f) => f.rps)), ratioMin: Math.min(...ratios), ratioMax: Math.max(...ratios),
          cpuRatio: median(ref.map((f) => f.cpuUs)) / median(ours.map((f) => f.cpuUs)),
        };
      }),
    };
    process.stdout.write(`\n${againstTable(result)}\n`);
    const out = path.join(ROOT, 'bench', 'results', `against-${options.db}-${options.projects}.json`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(`written ${path.relative(ROOT, out)}\n`);
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await cleanUp();
  }
}
