/**
 * `npx tsx bench/profile-read.ts DIR NAME [SECONDS] [PROFILE_DIR]` — drives one read scenario (named exactly) against
 * apas alone on the SQLite database a `npm run bench -- --data-dir DIR` run kept, and prints the server's CPU time per
 * request; with PROFILE_DIR the server runs under `--cpu-prof`, so the profile holds that one read and nothing else.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readScenarios } from './scenarios.ts';
import { benchKeyFile, drive, freePort, serverEnv, spawnLogged, waitFor } from './servers.ts';

const [dir, name, seconds = '10', profileDir] = process.argv.slice(2);
if (!dir || !name) throw new Error('usage: profile-read.ts DIR NAME [SECONDS] [PROFILE_DIR]');
const generated = (JSON.parse(fs.readFileSync(path.join(dir, 'generated.json'), 'utf8')) as { generated: Parameters<typeof readScenarios>[1] }).generated;
const port = await freePort();
const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
const server = spawnLogged([...nodeArgs, 'bin/apas.js', 'serve'], serverEnv(path.join(dir, 'bench.db'), port, benchKeyFile(dir)));
try {
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/readyz`, server.child, server.log);
  const s = (await readScenarios(base, generated)).find((x) => x.name === name);
  if (!s) throw new Error(`no read scenario named ${name}`);
  const warm = await drive(base, s, 1, 10);
  const f = await drive(base, s, Number(seconds), 10, server.child.pid);
  process.stdout.write(`${name}: ${f.rps.toFixed(0)} req/s, p50 ${f.p50} ms, ${f.requests} requests (and ${warm.requests} in a second of warm-up before), cpu ${f.cpuUs?.toFixed(0)} µs/req${f.errors + f.non2xx > 0 ? ' FAILED' : ''}\n`);
} finally {
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  await exited;
}
