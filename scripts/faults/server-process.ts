import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DatabaseConfig } from '../../src/config.ts';
import { createSecretBox, newSecretKeyLine, parseSecretKeys, type SecretBox } from '../../src/store/secret-box.ts';
import { copySeededDemo } from './seeded-demo.ts';

/** The repository root, where `bin/apas.js` is. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** How to start one server process. */
export interface ServerOptions {
  /** DATABASE_URL: a SQLite file or a postgres:// URL. */
  databaseUrl: string;
  /** Pass --demo (migrate, then seed the demo agency, program and users). Default true. */
  demo?: boolean;
  /** Extra environment, over the defaults below. */
  env?: Record<string, string>;
  /**
   * How long to wait for /readyz while the server shows no progress (no CPU time used, no output). Default 60 s. A
   * server that keeps working is waited for up to READY_CAP_FACTOR times as long (see startOnce).
   */
  readyTimeoutMs?: number;
  /** A name for messages, e.g. "instance 2". */
  name?: string;
}

/** A running `node bin/apas.js serve` on 127.0.0.1. */
export interface ServerProcess {
  readonly name: string;
  readonly pid: number;
  readonly port: number;
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  /** What the process wrote to stdout and stderr (the last 256 KiB). */
  log(): string;
  alive(): boolean;
  /** Resolves when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** kill -9, and wait for the exit. */
  kill9(): Promise<void>;
  /** SIGTERM (graceful shutdown), then SIGKILL after 10 s; waits for the exit. */
  stop(): Promise<void>;
}

/** Thrown when a server exits or is not ready in time; the message ends with its log. */
export class ServerStartError extends Error {}

const LOG_LIMIT = 256 * 1024;
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

// Servers must not outlive the harness that started them, even when it fails or is interrupted.
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

// Every instance on one PostgreSQL database must seal secrets with the same key, as in a real deployment.
const POSTGRES_KEYS = new Map<string, string>();

/** The key lines (APAS_SECRET_KEYS) of the servers of a PostgreSQL database in this run: one key per database. */
export function postgresSecretKeys(databaseUrl: string): string {
  let keys = POSTGRES_KEYS.get(databaseUrl);
  if (keys === undefined) POSTGRES_KEYS.set(databaseUrl, (keys = newSecretKeyLine()));
  return keys;
}

/** Makes `keys` the key lines of a PostgreSQL database's servers in this run: a database moved from another installation keeps its key. */
export function adoptPostgresSecretKeys(databaseUrl: string, keys: string): void {
  POSTGRES_KEYS.set(databaseUrl, keys);
}

/**
 * The keys the servers of a database in this run seal secrets with: on PostgreSQL this run's key for it, on SQLite
 * the key file the first server made beside the file. A verifier opens sealed sensitive values with them.
 */
export function serverSecretBox(config: DatabaseConfig): SecretBox {
  if (config.kind === 'postgres') return createSecretBox(parseSecretKeys(postgresSecretKeys(config.url), 'the run\'s keys'));
  const file = path.join(path.dirname(config.file), 'apas-secret.key');
  return createSecretBox(parseSecretKeys(fs.readFileSync(file, 'utf8'), file));
}

/** The environment every fault-run server gets: quiet logs, no rate limit or sign-in lockout in the way. */
export function serverEnv(databaseUrl: string, port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    ...(/^postgres(ql)?:/.test(databaseUrl) ? { APAS_SECRET_KEYS: postgresSecretKeys(databaseUrl) } : {}),
    APAS_HOST: '127.0.0.1',
    APAS_PORT: String(port),
    APAS_PUBLIC_URL: `http://127.0.0.1:${port}`,
    APAS_LOG_LEVEL: 'warn',
    APAS_RATE_LIMIT_MAX: '10000000',
    APAS_SIGNIN_LOCK_USER_AFTER: '1000000',
    APAS_SIGNIN_LOCK_ADDRESS_AFTER: '1000000',
    APAS_SIGNIN_ACCOUNT_SLOW_AFTER: '1000000',
    ...extra,
  };
}

/** Starts `node bin/apas.js serve [--demo]` on a free port and resolves once /readyz answers 200. */
export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  // In `npm test`, a new SQLite database starts as a copy of the run's seeded demo (seeded-demo.ts).
  if (options.demo !== false) await copySeededDemo(options.databaseUrl, { ...process.env, ...options.env }, ROOT);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options, await freePort());
    } catch (error) {
      // Another process may take the port between freePort() and the server's listen.
      if (attempt < 3 && error instanceof ServerStartError && /EADDRINUSE/.test(error.message)) continue;
      throw error;
    }
  }
}

async function startOnce(options: ServerOptions, port: number): Promise<ServerProcess> {
  installExitHook();
  const name = options.name ?? 'server';
  const args = ['bin/apas.js', 'serve', ...(options.demo === false ? [] : ['--demo'])];
  const child = spawn(process.execPath, args, {
    cwd: ROOT, env: serverEnv(options.databaseUrl, port, options.env), stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let log = '';
  let received = 0;
  const append = (chunk: Buffer) => {
    received += chunk.length;
    log += chunk.toString('utf8');
    if (log.length > LOG_LIMIT) log = log.slice(-LOG_LIMIT);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
    child.once('error', (error) => {
      append(Buffer.from(`spawn failed: ${error.message}\n`));
      live.delete(child);
      resolve({ code: null, signal: null });
    });
  });
  const alive = () => child.exitCode === null && child.signalCode === null && live.has(child);
  const origin = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    name, pid: child.pid ?? -1, port, origin, exited, alive,
    log: () => log,
    kill9: async () => {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (alive()) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
  const limitMs = options.readyTimeoutMs ?? 60_000;
  const progress = progressOf(child.pid ?? -1, () => received);
  const started = Date.now();
  let lastProgress = started;
  while (Date.now() - lastProgress < limitMs && Date.now() - started < READY_CAP_FACTOR * limitMs) {
    if (!alive()) {
      const { code, signal } = await exited;
      throw new ServerStartError(`${name} exited during start-up (code ${code}, signal ${signal}):\n${log.slice(-4000)}`);
    }
    try {
      const res = await fetch(`${origin}/readyz`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) return server;
    } catch {
      // not listening yet
    }
    if (progress()) lastProgress = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await server.kill9();
  const why = Date.now() - lastProgress >= limitMs ? `made no progress for ${limitMs} ms` : `was still starting after ${READY_CAP_FACTOR * limitMs} ms`;
  throw new ServerStartError(`${name} was not ready: it ${why} (${Date.now() - started} ms in all):\n${log.slice(-4000)}`);
}

/**
 * How many times the no-progress limit a start may take in all while it keeps working. Several servers starting at
 * once on a machine the rest of a test run keeps busy each need their 2–3 s of CPU and get a small share of it: a
 * fixed wall-clock limit failed them while they were working normally (issue 31, G). A hung start (a lock never
 * granted, a database that does not answer) shows no progress and still fails after the limit.
 */
const READY_CAP_FACTOR = 4;

/**
 * A probe of whether a process moved on since the last call: it used CPU time (Linux: /proc/PID/stat) or wrote output.
 * Where /proc is missing, only output counts.
 */
function progressOf(pid: number, outputLength: () => number): () => boolean {
  let cpu = cpuTicks(pid);
  let output = outputLength();
  return () => {
    const nowCpu = cpuTicks(pid);
    const nowOutput = outputLength();
    const moved = (nowCpu !== null && cpu !== null && nowCpu > cpu) || nowOutput !== output;
    cpu = nowCpu;
    output = nowOutput;
    return moved;
  };
}

/** The user and system CPU ticks a process has used, or null when they cannot be read. */
function cpuTicks(pid: number): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks : null;
  } catch {
    return null;
  }
}
