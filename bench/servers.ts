/**
 * What `bench/run.ts` and `bench/against.ts` share: free ports, server processes with their output kept, waiting for
 * an answer, the bench key file, and one autocannon drive of a scenario.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import { newSecretKeyLine } from '../src/store/secret-box.ts';
import type { Scenario, Step } from './scenario-types.ts';

/** The checkout the bench runs from. */
export const ROOT = path.resolve(import.meta.dirname, '..');

/** One scenario's figures for one server; `requests` is how many were answered in all. */
export interface Figures {
  rps: number; p50: number; p99: number; errors: number; non2xx: number; requests?: number;
  /** The server's CPU time (user and system) per answered request, in µs, when its process id was given. */
  cpuUs?: number;
}

/** A port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Waits until `url` answers 2xx (or, with `anyAnswer`, answers at all: the baseline knows only its canned requests). */
export async function waitFor(url: string, child: ChildProcess, log: () => string, anyAnswer = false): Promise<void> {
  // Two minutes: a kept database's first start after an upgrade migrates it (a million projects' worth) first.
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${log()}`);
    try {
      const res = await fetch(url);
      if (res.ok || anyAnswer) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no answer from ${url}:\n${log()}`);
}

/** Starts `node ARGS` in `cwd` (this checkout by default), keeping the last 20 KB of its output for errors. */
export function spawnLogged(args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): { child: ChildProcess; log: () => string } {
  let out = '';
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d) => (out = (out + d).slice(-20000)));
  child.stderr?.on('data', (d) => (out = (out + d).slice(-20000)));
  return { child, log: () => out };
}

/** The resident set of a process, in MB (0 once it is gone). */
export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * The CPU time (user and system, ms) a process has used so far, from /proc; null where there is none. CPU per request
 * is far steadier than requests/s on a machine other work shares: waiting for a core costs no CPU time.
 */
export function cpuMs(pid: number): number | null {
  try {
    // The fields after the command name (which may hold spaces), from its closing parenthesis: utime is the 12th, stime the 13th.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/**
 * The key file of the secrets at rest of a bench database, beside it (made once, so a kept --data-dir keeps its key):
 * the loader seals the demo's sensitive values with it and the server opens them with it.
 */
export function benchKeyFile(dir: string): string {
  const file = path.join(dir, 'apas-secret.key');
  if (!fs.existsSync(file)) fs.writeFileSync(file, `${newSecretKeyLine()}\n`, { mode: 0o600 });
  return file;
}

/** The settings a bench server runs with: no rate limit in the way, bodies and number lists as large as the scenarios send. */
export function serverEnv(databaseUrl: string, port: number, keyFile: string): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: databaseUrl, APAS_PORT: String(port), APAS_LOG_LEVEL: 'warn', APAS_RATE_LIMIT_MAX: '10000000',
    APAS_BODY_LIMIT_BYTES: String(8 * 1024 * 1024), APAS_MAX_NUMBERS_PER_REQUEST: '1000', APAS_SECRET_KEY_FILE: keyFile,
  };
}

// A chain passes the ProjectId of its first answer on to the later steps, per connection.
function chained(steps: Step[]): autocannon.Request[] {
  return steps.map((step, i): autocannon.Request => {
    const request: autocannon.Request = { method: step.method as 'POST', path: step.path, headers: step.headers, body: step.body };
    if (i === 0) {
      request.onResponse = (_status, body, context) => {
        (context as Record<string, unknown>)['project'] = /ProjectId="([^"]+)"/.exec(body)?.[1];
      };
    }
    if (step.usesProject) {
      request.setupRequest = (req, context) => ({ ...req, path: step.path.replace('{project}', String((context as Record<string, unknown>)['project'])) });
    }
    return request;
  });
}

/** Drives one scenario against `base` for `duration` seconds over `connections` connections. */
export async function drive(base: string, s: Scenario, duration: number, connections: number, pid?: number): Promise<Figures> {
  const before = pid === undefined ? null : cpuMs(pid);
  const r = await autocannon({
    url: s.steps ? base : `${base}${s.url}`, method: s.method as 'GET', headers: s.headers, body: s.body, duration, connections,
    ...(s.steps ? { requests: chained(s.steps) } : {}),
  });
  const after = pid === undefined ? null : cpuMs(pid);
  const cpu = before !== null && after !== null && r.requests.total > 0 ? { cpuUs: ((after - before) * 1000) / r.requests.total } : {};
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx, requests: r.requests.total, ...cpu };
}
