/**
 * The floor of every read: the baseline's bare Fastify route, which first runs the SQL statements apas ran for that
 * request (recorded by floor-statements.ts) through the raw driver, each prepared once on SQLite and sent over a pool
 * of 10 on PostgreSQL, named as apas names it (a statement it keeps prepared, statement-names.ts), then answers apas's pre-rendered bytes. No authentication, query building,
 * domain or XML work: what is left is the database's own share, so `floor / baseline` bounds the ratio any
 * implementation that reads the database on each request can reach on this machine.
 *   node --import tsx bench/floor-server.ts ROUTES.json READS.json PORT DATABASE
 */
import fs from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import { SqliteBinding } from '../src/store/sqlite-binding.ts';
import { StatementNames } from '../src/store/statement-names.ts';
import Fastify from 'fastify';
import pg from 'pg';
import { cannedKey, readCanned } from './canned-answers.ts';
import type { FloorRead } from './floor-statements.ts';

const [cannedFile, readsFile, port, database] = process.argv.slice(2);
if (!cannedFile || !readsFile || !port || !database) throw new Error('usage: floor-server.ts ROUTES.json READS.json PORT DATABASE');
const canned = readCanned(cannedFile);
const reads = JSON.parse(fs.readFileSync(readsFile, 'utf8')) as FloorRead[];

type Run = () => Promise<void> | void;
let runners: Map<string, Run[]>;
if (/^postgres(ql)?:/.test(database)) {
  const pool = new pg.Pool({ connectionString: database, max: 10 });
  const names = new StatementNames();
  runners = new Map(reads.map((r) => [cannedKey(r.method, r.url, r.body), r.statements.map((s) => {
    const name = names.nameOf(s.sql);
    return async () => {
      await (name === undefined ? pool.query(s.sql, s.params) : pool.query({ name, text: s.sql, values: s.params }));
    };
  })]));
} else {
  const db = new SqliteBinding(database, { readonly: true });
  const prepared = new Map<string, BetterSqlite3.Statement>();
  const statement = (sql: string) => prepared.get(sql) ?? prepared.set(sql, db.prepare(sql)).get(sql)!;
  runners = new Map(reads.map((r) => [cannedKey(r.method, r.url, r.body), r.statements.map((s) => {
    const st = statement(s.sql);
    return () => void st.all(...(s.params as unknown[]));
  })]));
}

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024 });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
app.all('/*', async (request, reply) => {
  const key = cannedKey(request.method, request.url, request.body as Buffer | undefined);
  const c = canned.get(key);
  const run = runners.get(key);
  if (!c || !run) return reply.code(404).send('not canned');
  for (const step of run) await step();
  return reply.code(c.status).type(c.contentType).send(c.body);
});
await app.listen({ host: '127.0.0.1', port: Number(port) });
process.stdout.write('floor ready\n');
