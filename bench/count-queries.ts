/**
 * `npx tsx bench/count-queries.ts DIR/bench.db METHOD URL [BODYFILE]` — the SQL statements one API request runs
 * on a SQLite database kept by `npm run bench -- --data-dir DIR` (as the admin of the demo), after one warm-up.
 */
import fs from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { loadConfig } from '../src/config.ts';
import { DEMO_CREDENTIALS } from '../src/domain/demo.ts';
import { buildApp } from '../src/http/app.ts';
import { createBlobStore } from '../src/store/create-blob-store.ts';
import { openDatabase } from '../src/store/database.ts';
import { createKyselyStore } from '../src/store/kysely-store.ts';

const [file, method, url, bodyFile] = process.argv.slice(2);
const seen: string[] = [];
const probe = new BetterSqlite3(':memory:').prepare('select 1');
const proto = Object.getPrototypeOf(probe) as Record<string, (...a: unknown[]) => unknown>;
for (const name of ['all', 'get', 'run', 'iterate']) {
  const original = proto[name]!;
  proto[name] = function (this: { source: string }, ...args: unknown[]) {
    seen.push(`${name}: ${this.source.slice(0, 160)}`);
    return original.apply(this, args);
  };
}
process.env.DATABASE_URL = file;
process.env.APAS_RATE_LIMIT_MAX = '10000000';
const config = loadConfig();
const store = createKyselyStore(await openDatabase(config.database));
const app = await buildApp({ config, store, logger: false, blobs: createBlobStore(config, store) });
const admin = DEMO_CREDENTIALS[0]!;
const headers = { authorization: `Basic ${Buffer.from(`${admin.email}:${admin.password}`).toString('base64')}`, 'x-apikey': admin.apiKey, 'content-type': 'application/xml' };
const request = { method: method as 'GET', url: url!, headers, ...(bodyFile ? { payload: fs.readFileSync(bodyFile) } : {}) };
await app.inject(request);
await app.inject(request);
seen.length = 0;
const res = await app.inject(request);
process.stdout.write(`${res.statusCode}, ${seen.length} statements\n${seen.join('\n')}\n`);
await app.close();
await store.close();
