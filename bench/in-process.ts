/**
 * What the in-process measurements (count-queries.ts, inject-cost.ts, cycle-cost.ts) share: the app over a SQLite
 * database kept by `npm run bench -- --data-dir DIR`, Basic + X-ApiKey headers of a demo user, and a hook that
 * reports every SQL statement better-sqlite3 runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SqliteBinding } from '../src/store/sqlite-binding.ts';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../src/config.ts';
import { DEMO_CREDENTIALS } from '../src/domain/programs/demo.ts';
import { buildApp } from '../src/http/app.ts';
import { createBlobStore } from '../src/store/create-blob-store.ts';
import { openDatabase } from '../src/store/database.ts';
import { createKyselyStore } from '../src/store/kysely-store.ts';
import { createSecretBox, ephemeralSecretBox, parseSecretKeys } from '../src/store/secret-box.ts';
import { startEmbeddedPostgres } from '../test/support/embedded-postgres.ts';

/**
 * The app on the SQLite database `file` (or a PostgreSQL URL, with `keyFile` the bench's key file beside its data),
 * with a rate limit no measurement reaches; `close` ends app and store.
 */
export async function openApp(file: string, keyFile = path.join(path.dirname(file), 'apas-secret.key')): Promise<{ app: FastifyInstance; close: () => Promise<void> }> {
  process.env.DATABASE_URL = file;
  process.env.APAS_RATE_LIMIT_MAX = '10000000';
  const config = loadConfig();
  // The key file the bench's server used beside the database (bench/run.ts), so sealed sensitive values open.
  const secrets = fs.existsSync(keyFile) ? createSecretBox(parseSecretKeys(fs.readFileSync(keyFile, 'utf8'), keyFile)) : ephemeralSecretBox();
  const store = createKyselyStore(await openDatabase(config.database), { secrets });
  const app = await buildApp({ config, store, logger: false, blobs: createBlobStore(config, store) });
  return { app, close: async () => {
    await app.close();
    await store.close();
  } };
}

/**
 * The app on the database a measurement's arguments name: `DIR/bench.db …` (SQLite) or `--pg DIR …` (the PostgreSQL
 * cluster kept in DIR/pg, started here and stopped by `close`). Returns the arguments after the database too.
 */
export async function openKeptApp(argv: string[]): Promise<{ app: FastifyInstance; close: () => Promise<void>; rest: string[] }> {
  if (argv[0] !== '--pg') {
    const opened = await openApp(argv[0]!);
    return { ...opened, rest: argv.slice(1) };
  }
  const dir = argv[1]!;
  const server = await startEmbeddedPostgres({ keepDir: path.join(dir, 'pg') });
  const opened = await openApp(server.url, path.join(dir, 'apas-secret.key'));
  return {
    app: opened.app, rest: argv.slice(2),
    close: async () => {
      await opened.close();
      await server.stop();
    },
  };
}

/** The Basic and X-ApiKey headers of a demo user by role (admin, applicant, reviewer). */
export function demoAuth(role: string): Record<string, string> {
  const who = DEMO_CREDENTIALS.find((c) => c.role === role);
  if (!who) throw new Error(`no demo user ${role}`);
  return { authorization: `Basic ${Buffer.from(`${who.email}:${who.password}`).toString('base64')}`, 'x-apikey': who.apiKey };
}

/** Calls `seen` with the SQL text and parameters of every statement better-sqlite3 runs from now on, in this process. */
export function watchStatements(seen: (sql: string, params: unknown[]) => void): void {
  const proto = Object.getPrototypeOf(new SqliteBinding(':memory:').prepare('select 1')) as Record<string, (...a: unknown[]) => unknown>;
  for (const name of ['all', 'get', 'run', 'iterate']) {
    const original = proto[name]!;
    proto[name] = function (this: { source: string }, ...args: unknown[]) {
      seen(this.source, args);
      return original.apply(this, args);
    };
  }
}
