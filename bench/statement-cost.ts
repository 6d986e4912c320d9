/**
 * `npx tsx bench/statement-cost.ts DIR/bench.db URL` (SQLite) or `… --pg DIR URL` (PostgreSQL): the milliseconds each
 * SQL statement of one web page (GET, as the demo admin) takes on a database kept by `npm run bench -- --data-dir DIR`,
 * averaged over 10 requests after 3 warm-ups; the costliest 8 first. How the work queue's 1,000,000-project costs were
 * found (performance.md).
 */
import pg from 'pg';
import { SqliteBinding } from '../src/store/sqlite-binding.ts';
import { demoAuth, openKeptApp } from './in-process.ts';

const cost = new Map<string, number>();
const note = (text: string, started: number) => {
  const k = text.slice(0, 150);
  cost.set(k, (cost.get(k) ?? 0) + performance.now() - started);
};
// PostgreSQL: every statement goes through pg's Client#query, with a text or a query config.
const clientProto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
const query = clientProto.query;
clientProto.query = function (this: unknown, ...args: unknown[]) {
  const t = performance.now();
  const out = query.apply(this, args);
  // The store's guarded pool passes a query config ({ text, values, query_timeout }).
  const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: unknown } | undefined)?.text;
  if (typeof text === 'string' && out instanceof Promise) return out.finally(() => note(text, t));
  return out;
};
const proto = Object.getPrototypeOf(new SqliteBinding(':memory:').prepare('select 1')) as Record<string, (...a: unknown[]) => unknown>;
for (const name of ['all', 'get', 'run', 'iterate']) {
  const original = proto[name]!;
  proto[name] = function (this: { source: string }, ...args: unknown[]) {
    const t = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      note(this.source, t);
    }
  };
}
const { app, close, rest } = await openKeptApp(process.argv.slice(2));
const url = rest[0]!;
const headers = { authorization: demoAuth('admin').authorization! };
for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url, headers });
cost.clear();
for (let i = 0; i < 10; i++) await app.inject({ method: 'GET', url, headers });
for (const [k, v] of [...cost].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log((v / 10).toFixed(1), 'ms', k);
await close();
