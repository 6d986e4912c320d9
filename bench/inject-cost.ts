/**
 * `npx tsx bench/inject-cost.ts DIR/bench.db METHOD URL [BODYFILE] [N]` — the server-side cost of one API request
 * (as the demo admin), measured in process with `app.inject` one request at a time, without a network or a load
 * generator sharing the CPU: the figure to compare before and after a change (run with --cpu-prof to see where).
 */
import fs from 'node:fs';
import { loadConfig } from '../src/config.ts';
import { DEMO_CREDENTIALS } from '../src/domain/demo.ts';
import { buildApp } from '../src/http/app.ts';
import { createBlobStore } from '../src/store/create-blob-store.ts';
import { openDatabase } from '../src/store/database.ts';
import { createKyselyStore } from '../src/store/kysely-store.ts';

const [file, method, url, bodyFile, n] = process.argv.slice(2);
process.env.DATABASE_URL = file;
process.env.APAS_RATE_LIMIT_MAX = '10000000';
const config = loadConfig();
const store = createKyselyStore(await openDatabase(config.database));
const app = await buildApp({ config, store, logger: false, blobs: createBlobStore(config, store) });
const admin = DEMO_CREDENTIALS[0]!;
const headers = { authorization: `Basic ${Buffer.from(`${admin.email}:${admin.password}`).toString('base64')}`, 'x-apikey': admin.apiKey, 'content-type': 'application/xml' };
const request = { method: method as 'GET', url: url!, headers, ...(bodyFile && bodyFile !== '-' ? { payload: fs.readFileSync(bodyFile) } : {}) };
const rounds = Number(n ?? 3000);
for (let i = 0; i < 200; i++) await app.inject(request);
const started = process.hrtime.bigint();
let status = 0;
for (let i = 0; i < rounds; i++) status = (await app.inject(request)).statusCode;
const us = Number(process.hrtime.bigint() - started) / 1000 / rounds;
process.stdout.write(`${method} ${url}: ${status}, ${us.toFixed(0)} µs per request (${rounds} rounds)\n`);
await app.close();
await store.close();
