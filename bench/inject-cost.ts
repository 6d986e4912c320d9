/**
 * `npx tsx bench/inject-cost.ts DIR/bench.db METHOD URL [BODYFILE|-] [N]` (or `--pg DIR METHOD …` for a PostgreSQL
 * database kept by `npm run bench -- --db postgres --data-dir DIR`) — the server-side cost of one API request
 * (as the demo admin), measured in process with `app.inject` one request at a time, without a network or a load
 * generator sharing the CPU: the figure to compare before and after a change (run with --cpu-prof to see where).
 * Prints the wall time and the process's CPU time per request: on a busy machine the CPU time is the steadier one.
 */
import fs from 'node:fs';
import { demoAuth, openKeptApp } from './in-process.ts';

const { app, close, rest } = await openKeptApp(process.argv.slice(2));
const [method, url, bodyFile, n] = rest;
const headers = { ...demoAuth('admin'), 'content-type': 'application/xml' };
const request = { method: method as 'GET', url: url!, headers, ...(bodyFile && bodyFile !== '-' ? { payload: fs.readFileSync(bodyFile) } : {}) };
const rounds = Number(n ?? 3000);
for (let i = 0; i < 200; i++) await app.inject(request);
const started = process.hrtime.bigint();
const cpuBefore = process.cpuUsage();
let status = 0;
for (let i = 0; i < rounds; i++) status = (await app.inject(request)).statusCode;
const us = Number(process.hrtime.bigint() - started) / 1000 / rounds;
const cpu = process.cpuUsage(cpuBefore);
const cpuUs = (cpu.user + cpu.system) / rounds;
process.stdout.write(`${method} ${url}: ${status}, ${us.toFixed(0)} µs per request, ${cpuUs.toFixed(1)} µs CPU (${rounds} rounds)\n`);
await close();
