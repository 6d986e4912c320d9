import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(what: string, check: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 200))) {
    if (await check()) return;
  }
  throw new Error(`timed out waiting until ${what}`);
}

// A process manager (systemd, a container runtime, a shell's kill) signals the process it started. When that is npm,
// npm passes the signal to its script's shell; the server must get it too, and stop, not keep serving re-parented.
test('SIGTERM to `npm start` stops the server it started', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-npm-start-'));
  const port = await freePort();
  // --ignore-scripts skips only the prestart build (npm test built dist/ already); `start` itself runs as written.
  const npm = spawn('npm', ['start', '--ignore-scripts'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: path.join(dir, 'apas.db'), APAS_PORT: String(port), APAS_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that whatever it started can be killed after a failed assertion.
    detached: true,
  });
  let log = '';
  npm.stdout.on('data', (d) => (log += d));
  npm.stderr.on('data', (d) => (log += d));
  const npmExit = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
  let serverPid = 0;
  try {
    // Up to a minute: the demo's argon2 hashes are slow on a loaded machine.
    await until('the server logs that it is serving', () => {
      const pid = /"pid":(\d+)[^\n]*"msg":"apas is serving"/.exec(log)?.[1];
      serverPid = Number(pid ?? 0);
      return serverPid > 0;
    }, 60_000).catch((error: Error) => assert.fail(`${error.message}:\n${log}`));
    assert.notEqual(serverPid, npm.pid, 'the server is a child of npm, as with `npm start` from a shell');
    assert.equal((await fetch(`http://127.0.0.1:${port}/readyz`)).status, 200);

    process.kill(npm.pid!, 'SIGTERM');
    await npmExit;
    await until('the server process has exited', () => !alive(serverPid), 15_000)
      .catch(() => assert.fail(`the server (pid ${serverPid}) is still running after SIGTERM to npm (pid ${npm.pid}):\n${log}`));
    await assert.rejects(fetch(`http://127.0.0.1:${port}/readyz`), 'nothing answers on the port any more');
    assert.match(log, /"signal":"SIGTERM"[^\n]*"msg":"shutting down"/, 'the server shut down on SIGTERM, in order');
  } finally {
    try {
      process.kill(-npm.pid!, 'SIGKILL');
    } catch {
      // the group has ended
    }
    if (serverPid > 0 && alive(serverPid)) process.kill(serverPid, 'SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
