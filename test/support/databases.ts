import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe } from 'node:test';
import type { Kysely } from 'kysely';
import type { DatabaseConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createKyselyStore, type KyselyStoreOptions } from '../../src/store/kysely-store.ts';
import { ephemeralSecretBox, type SecretBox } from '../../src/store/secret-box.ts';
import type { Store } from '../../src/store/store.ts';
import type { Database } from '../../src/store/tables.ts';
import { admin, TEMPLATE_ENV } from './database-templates.ts';
import { type EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres.ts';
import { chosenDialects, type TestDialect } from './dialects.ts';

export { ALL_DIALECTS, chosenDialects, type TestDialect } from './dialects.ts';

/**
 * The databases contract tests run on, once per entry: all of them unless APAS_TEST_DIALECTS names some (.ci/run runs
 * the older Node lines on SQLite only; scripts/run-tests.ts says so in its first lines).
 */
export const DIALECTS: readonly TestDialect[] = chosenDialects(process.env.APAS_TEST_DIALECTS);

/** A Store on a database of its own, deleted again by `close()`. */
export interface TestStore {
  store: Store;
  /** Where the database is, for opening more instances on it. */
  config: DatabaseConfig;
  /** Opens another Store on the same database, as a second server instance would (with the same keys unless `options` say); closed by `close()`. */
  reopen(options?: TestStoreOptions): Promise<Store>;
  /** Closes every Store of this database, then deletes the database. */
  close(): Promise<void>;
}

/** What `forEachDialect` hands to a suite: its dialect and a store opener whose stores close after each test. */
export interface DialectSuite {
  readonly dialect: TestDialect;
  /** `options.clock` times the store's write transactions (the wall clock when left out). */
  open(options?: TestStoreOptions): Promise<TestStore>;
}

/** Store options of a test: a fresh random key seals its secrets unless the test brings its own SecretBox. */
export type TestStoreOptions = Partial<KyselyStoreOptions>;

/** A SecretBox with one new random key, for a test's store. */
export function testSecretBox(): SecretBox {
  return ephemeralSecretBox();
}

/** Opens a Store on a fresh, migrated database: a temp SQLite file, or a new PostgreSQL database. */
export async function openTestStore(dialect: TestDialect, options: TestStoreOptions = {}): Promise<TestStore> {
  return dialect === 'sqlite' ? openSqliteStore(options) : openPostgresStore(options);
}

/** Opens a Store on an existing database, migrating it first. */
export async function openStore(config: DatabaseConfig, options: KyselyStoreOptions): Promise<Store> {
  return createKyselyStore(await openDatabase(config), options);
}

/** Registers one `describe` per dialect around `fn`, so a file writes its cases once for both databases. */
export function forEachDialect(name: string, fn: (suite: DialectSuite) => void): void {
  for (const dialect of DIALECTS) {
    describe(`${name} [${dialect}]`, () => {
      const opened: TestStore[] = [];
      afterEach(async () => {
        await Promise.all(opened.splice(0).map((s) => s.close()));
      });
      fn({
        dialect,
        open: async (options) => {
          const s = await openTestStore(dialect, options);
          opened.push(s);
          return s;
        },
      });
    });
  }
}

async function openSqliteStore(options: TestStoreOptions): Promise<TestStore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-sqlite-'));
  const config: DatabaseConfig = { kind: 'sqlite', file: path.join(dir, 'apas.db') };
  // A copy of the run's migrated template (database-templates.ts), when scripts/run-tests.ts made one.
  const template = process.env[TEMPLATE_ENV.sqlite];
  if (template) fs.copyFileSync(template, config.file);
  return track(config, options, () => fs.rmSync(dir, { recursive: true, force: true }));
}

async function openPostgresStore(options: TestStoreOptions): Promise<TestStore> {
  const serverUrl = await postgresServerUrl();
  const name = `apas_test_${randomBytes(6).toString('hex')}`;
  const template = process.env[TEMPLATE_ENV.postgres];
  await admin(serverUrl, template ? `create database ${name} template ${template}` : `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // WITH (FORCE) ends sessions a closed pool may still leave behind for a moment.
  return track({ kind: 'postgres', url: url.toString() }, options, () => admin(serverUrl, `drop database if exists ${name} with (force)`));
}

async function track(config: DatabaseConfig, given: TestStoreOptions, remove: () => unknown): Promise<TestStore> {
  const options: KyselyStoreOptions = { ...given, secrets: given.secrets ?? testSecretBox() };
  let store: Store;
  try {
    store = await openStore(config, options);
  } catch (error) {
    await remove();
    throw error;
  }
  const others: Store[] = [];
  let closing: Promise<void> | undefined;
  const close = async () => {
    try {
      await Promise.allSettled(others.map((s) => s.close()));
      await store.close();
    } finally {
      await remove();
    }
  };
  return {
    store,
    config,
    reopen: async (otherOptions?: TestStoreOptions) => {
      const other = await openStore(config, { ...options, ...otherOptions });
      others.push(other);
      return other;
    },
    close: () => (closing ??= close()),
  };
}


// The one piece of module state: a file run on its own (without scripts/run-tests.ts, so without
// APAS_TEST_PG_URL) starts its own server on first use and shares it among its tests; starting one
// per test would cost about a second each. The server is signalled at exit and the watchdog removes it.
let ownServer: Promise<EmbeddedPostgres> | undefined;

async function postgresServerUrl(): Promise<string> {
  const given = process.env.APAS_TEST_PG_URL;
  if (given) return given;
  ownServer ??= startEmbeddedPostgres().then((server) => {
    process.once('exit', () => server.stopSoon());
    return server;
  });
  return (await ownServer).url;
}

/** A database of its own with nothing in it (not migrated), for tests of migrating; `remove()` deletes it. */
export async function emptyTestDatabase(dialect: TestDialect): Promise<{ config: DatabaseConfig; url: string; remove(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-sqlite-'));
    const file = path.join(dir, 'apas.db');
    return { config: { kind: 'sqlite', file }, url: file, remove: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const serverUrl = await postgresServerUrl();
  const name = `apas_test_${randomBytes(6).toString('hex')}`;
  await admin(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { config: { kind: 'postgres', url: url.toString() }, url: url.toString(), remove: () => admin(serverUrl, `drop database if exists ${name} with (force)`) };
}

/** Runs `work` on a connection of its own to a database, without migrating it (to read or alter what a test made). */
export async function onDatabase<T>(config: DatabaseConfig, work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  const opened = await openDatabase(config, { migrate: false });
  try {
    return await work(opened.db);
  } finally {
    await opened.changes.close();
    await opened.db.destroy();
  }
}
