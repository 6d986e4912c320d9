/**
 * `npx tsx bench/inject-cost.ts DIR/bench.db METHOD URL [BODYFILE|-] [N]` (or `--pg DIR METHOD …` for a PostgreSQL
 * database kept by `npm run bench -- --db postgres --data-dir DIR`) — the server-side cost of one API request
 * (as the demo admin), measured in process with `app.inject` one request at a time, without a network or a load
 * generator sharing the CPU: the figure to compare before and after a change (run with --cpu-prof to see where).
 */
import fs from 'node:fs';
import path from 'node:path';
import { startEmbeddedPostgres } from '../test/support/embedded-postgres.ts';
import { demoAuth, openApp } from './in-process.ts';

const onPg = process.argv[2] === '--pg';
const [target, method, url, bodyFile, n] = process.argv.slice(onPg ? 3 : 2);
const pgDir = onPg ? process.argv[3]! : undefined;
const server = pgDir ? await startEmbeddedPostgres({ keepDir: path.join(pgDir, 'pg') }) : undefined;
const opened = await openApp(server ? server.url : target!, pgDir ? path.join(pgDir, 'apas-secret.key') : undefined);
const close = async () => {
  await opened.close();
  await server?.stop();
};
const { app } = opened;
const headers = { ...demoAuth('admin'), 'content-type': 'application/xml' };
const request = { method: method as 'GET', url: url!, headers, ...(bodyFile && bodyFile !== '-' ? { payload: fs.readFileSync(bodyFile) } : {}) };
const rounds = Number(n ?? 3000);
for (let i = 0; i < 200; i++) await app.inject(request);
const started = process.hrtime.bigint();
let status = 0;
for (let i = 0; i < rounds; i++) status = (await app.inject(request)).statusCode;
const us = Number(process.hrtime.bigint() - started) / 1000 / rounds;
process.stdout.write(`${method} ${url}: ${status}, ${us.toFixed(0)} µs per request (${rounds} rounds)\n`);
await close();
