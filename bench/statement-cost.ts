/**
 * `npx tsx bench/statement-cost.ts DIR/bench.db URL`: the milliseconds each SQL statement of one web page (GET, as
 * the demo admin) takes on a SQLite database kept by `npm run bench -- --data-dir DIR`, averaged over 10 requests
 * after 3 warm-ups; the costliest 8 first. How the work queue's 1,000,000-project count was found (performance.md).
 */
import { SqliteBinding } from '../src/store/sqlite-binding.ts';
import { demoAuth, openApp } from './in-process.ts';
const file = process.argv[2]!;
const url = process.argv[3]!;
const proto = Object.getPrototypeOf(new SqliteBinding(':memory:').prepare('select 1')) as Record<string, (...a: unknown[]) => unknown>;
const cost = new Map<string, number>();
for (const name of ['all', 'get', 'run', 'iterate']) {
  const original = proto[name]!;
  proto[name] = function (this: { source: string }, ...args: unknown[]) {
    const t = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      const k = this.source.slice(0, 150);
      cost.set(k, (cost.get(k) ?? 0) + performance.now() - t);
    }
  };
}
const { app, close } = await openApp(file);
const headers = { authorization: demoAuth('admin').authorization! };
for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url, headers });
cost.clear();
for (let i = 0; i < 10; i++) await app.inject({ method: 'GET', url, headers });
for (const [k, v] of [...cost].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log((v / 10).toFixed(1), 'ms', k);
await close();
