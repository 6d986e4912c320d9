/**
 * `npm test`: starts one embedded PostgreSQL for the whole run, runs node's test runner over the test files
 * with APAS_TEST_PG_URL pointing at it, then stops the server and deletes its files, whatever happened.
 *
 * Usage: `npm test [-- [--node-test-flag=value …] [file, directory or glob …]]`; without files it runs
 * `test/**\/*.test.ts`. Flags must be written `--flag=value` so that their values are not taken for files.
 * Files run APAS_TEST_CONCURRENCY at a time (default: one more than the CPUs, the fewer of the cores and the cgroup's
 * CPU quota, scripts/test-concurrency.ts; `--test-concurrency=N` overrides), which the run's first line states:
 * a test file waits for its servers, browser and database much of the time, so one per core leaves cores idle
 * (the suite took 23.6 min one at a time on 2 cores, 14.8 min three at a time; docs/performance.md, "The test suite").
 * APAS_TEST_EXCLUDE (comma-separated files or directories) leaves matching files out, and says so: .ci/run uses it
 * for every Node line but the newest.
 * At the end it prints the 15 test files that used the most CPU (each file's process and what it spawned) and the CPU
 * time of the whole run, PostgreSQL and Chromium included, what PostgreSQL was seen doing (scripts/pg-activity-sampler.ts),
 * and the concurrency again (the first line scrolls out of a CI log's tail).
 * Exits with the runner's code, 128+N when stopped by signal N, 1 when PostgreSQL cannot start.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type BrowserServer, chromium as playwright } from 'playwright-core';
import { BROWSER_ENV, chromiumLaunchOptions } from '../test/support/chromium.ts';
import { prepareTemplates } from '../test/support/database-templates.ts';
import { ALL_DIALECTS, chosenDialects } from '../test/support/dialects.ts';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../test/support/embedded-postgres.ts';
import { PgActivitySampler } from './pg-activity-sampler.ts';
import { formatCpuTable, processTreeCpuSeconds, readFileCpu } from './test-cpu-table.ts';
import { testConcurrency } from './test-concurrency.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Preloaded into the runner, which passes it on to every test file's process: reports that process's CPU time. */
const CPU_REPORT = pathToFileURL(path.join(ROOT, 'scripts/test-cpu-report.mjs')).href;
/**
 * Loaded before tsx, so natively: tsx passes every ES module it loads, node_modules included, through a rewrite of
 * dynamic `import()` with a source map, and libxml2-wasm's 850 kB module (the WebAssembly inlined) has one: that cost
 * 1.3 s of CPU in every test file's process that loads the app, against 0.15 s to load it without tsx.
 */
const NATIVE_PRELOADS = ['--import', 'libxml2-wasm'];
const DEFAULT_FILES = 'test/**/*.test.ts';
/** TAP on stdout as before, and a summary of the failures (if any) on stderr once the run ends. */
const REPORTERS = [
  '--test-reporter=tap', '--test-reporter-destination=stdout',
  '--test-reporter=./scripts/failure-summary-reporter.mjs', '--test-reporter-destination=stderr',
];

function say(message: string): void {
  process.stderr.write(`run-tests: ${message}\n`);
}

/** Test files matching each pattern (a file, a directory, or a glob with * and **), relative to ROOT. */
function expand(patterns: string[]): string[] {
  const files = new Set<string>();
  for (const pattern of patterns) {
    const matches = matchFiles(pattern);
    if (matches.length === 0) throw new Error(`no test files match "${pattern}"`);
    for (const file of matches) files.add(file);
  }
  return [...files];
}

function matchFiles(pattern: string): string[] {
  const normal = path.relative(ROOT, path.resolve(ROOT, pattern)).split(path.sep).join('/');
  if (!/[*?]/.test(normal)) {
    const stat = fs.statSync(path.join(ROOT, normal), { throwIfNoEntry: false });
    if (stat?.isFile()) return [normal];
    if (stat?.isDirectory()) return matchFiles(`${normal}/**/*.test.ts`);
    return [];
  }
  const segments = normal.split('/');
  const firstGlob = segments.findIndex((s) => /[*?]/.test(s));
  const base = segments.slice(0, firstGlob).join('/');
  const regex = new RegExp(`^${segments.map(globSegment).join('/').replaceAll('(?:.*/)?/', '(?:.*/)?')}$`);
  return walk(base).filter((file) => regex.test(file)).sort();
}

function globSegment(segment: string, index: number, all: string[]): string {
  if (segment === '**') return index === all.length - 1 ? '.*' : '(?:.*/)?';
  return segment.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*').replaceAll('?', '[^/]');
}

function walk(dir: string): string[] {
  const out: string[] = [];
  const full = path.join(ROOT, dir);
  if (!fs.existsSync(full)) return out;
  for (const entry of fs.readdirSync(full, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...walk(rel));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

function signalCode(signal: NodeJS.Signals): number {
  return 128 + (os.constants.signals[signal] ?? 0);
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const flags = args.filter((a) => a.startsWith('-'));
  const patterns = args.filter((a) => !a.startsWith('-'));
  const excluded = (process.env.APAS_TEST_EXCLUDE ?? '').split(',').map((e) => e.trim()).filter((e) => e !== '');
  const excludedFiles = new Set(excluded.flatMap((e) => expand([e])));
  const files = expand(patterns.length > 0 ? patterns : [DEFAULT_FILES]).filter((f) => !excludedFiles.has(f));
  const flagged = [...flags].reverse().find((f) => f.startsWith('--test-concurrency='))?.slice('--test-concurrency='.length);
  const { files: concurrency, reason } = flagged
    ? { ...testConcurrency(flagged), reason: '--test-concurrency' }
    : testConcurrency(process.env.APAS_TEST_CONCURRENCY);
  say(`${files.length} test file(s), ${concurrency} at a time (${reason})`);
  if (excluded.length > 0) say(`APAS_TEST_EXCLUDE leaves out ${excludedFiles.size} test file(s) under ${excluded.join(', ')}`);
  const dialects = chosenDialects(process.env.APAS_TEST_DIALECTS);
  if (dialects.length < ALL_DIALECTS.length) say(`APAS_TEST_DIALECTS runs the contract tests on ${dialects.join(', ')} only, not on ${ALL_DIALECTS.filter((d) => !dialects.includes(d)).join(', ')}`);

  let stopSignal: NodeJS.Signals | undefined;
  let runner: ChildProcess | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    // The first signal lets the runner finish its report; a second one stops it at once.
    runner?.kill(stopSignal ? 'SIGKILL' : signal);
    stopSignal ??= signal;
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);

  const started = performance.now();
  // Each test file's process writes its CPU time here (scripts/test-cpu-report.mjs), ranked once the run ends.
  const cpuDir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-test-cpu-'));
  // V8's compiled code of every module, kept for the run's other processes (Node 22.1 and later; Node 20 ignores it):
  // each test file's process and each `apas` process it starts compiles much the same modules again.
  const compileCache = process.env.NODE_COMPILE_CACHE ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'apas-compile-cache-'));
  let server: EmbeddedPostgres | undefined;
  let templates: { remove: () => void } | undefined;
  let browser: BrowserServer | undefined;
  let sampler: PgActivitySampler | undefined;
  try {
    server = await startEmbeddedPostgres();
    say(`PostgreSQL ${server.version} ready in ${(server.startupMs / 1000).toFixed(1)} s`);
    sampler = new PgActivitySampler(server.url);
    await sampler.start().catch((error: unknown) => {
      say(`PostgreSQL's activity is not sampled: ${error instanceof Error ? error.message : String(error)}`);
      sampler = undefined;
    });
    if (stopSignal) return signalCode(stopSignal);
    // Test stores start as copies of databases migrated once here (test/support/database-templates.ts).
    const prepared = await prepareTemplates(server.url);
    templates = prepared;
    // One Chromium for every browser test file of the run (test/support/browser.ts connects to it).
    if (files.some((f) => f.startsWith('test/web/'))) browser = await playwright.launchServer(await chromiumLaunchOptions());
    const env = { ...process.env, ...(compileCache ? { NODE_COMPILE_CACHE: compileCache } : {}), APAS_TEST_CPU_DIR: cpuDir, APAS_TEST_PG_URL: server.url, ...prepared.env, ...(browser ? { [BROWSER_ENV]: browser.wsEndpoint() } : {}) };
    const child = spawn(process.execPath, [...NATIVE_PRELOADS, '--import', 'tsx', '--import', CPU_REPORT, '--test', `--test-concurrency=${concurrency}`, ...REPORTERS, ...flags, ...files], {
      cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'],
    });
    runner = child;
    const code = await new Promise<number>((resolve) => {
      child.once('error', (error) => {
        say(`could not run node's test runner: ${error.message}`);
        resolve(1);
      });
      child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? signalCode(signal) : 1)));
    });
    return stopSignal ? signalCode(stopSignal) : code;
  } finally {
    // Read before the stops, while the processes are there: each one's CPU and that of the children it waited for
    // (PostgreSQL's connection backends, Chromium's renderers).
    const shared = {
      PostgreSQL: server?.pid === undefined ? undefined : processTreeCpuSeconds(server.pid),
      Chromium: browser?.process().pid === undefined ? undefined : processTreeCpuSeconds(browser.process().pid!),
    };
    await sampler?.stop();
    await browser?.close();
    templates?.remove();
    await server?.stop();
    // After the stops, so that PostgreSQL's and Chromium's CPU time is in the total.
    for (const line of formatCpuTable(readFileCpu(cpuDir), { cpu: processTreeCpuSeconds(), wall: (performance.now() - started) / 1000, shared })) say(line);
    for (const line of sampler?.report() ?? []) say(line);
    say(`(${files.length} test file(s), ${concurrency} at a time: ${reason})`);
    fs.rmSync(cpuDir, { recursive: true, force: true });
    if (compileCache) fs.rmSync(compileCache, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    say(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
