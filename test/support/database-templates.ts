import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { DEMO_TEMPLATE_ENV } from '../../scripts/faults/seeded-demo.ts';
import { openDatabase } from '../../src/store/database.ts';

/**
 * Migrated databases that test stores start as copies of. Migrating a new database runs every migration's DDL (up to
 * a second on SQLite and a few on PostgreSQL on a busy machine, much less on an idle one), and the suite opens
 * hundreds of stores; a copy of a migrated SQLite file, or `CREATE DATABASE … TEMPLATE` on PostgreSQL, does not. The migrations themselves
 * still run: here once per test run, and from scratch in the tests of migrating (emptyTestDatabase).
 */

/** The environment that tells test stores where their templates are. */
export const TEMPLATE_ENV = { sqlite: 'APAS_TEST_SQLITE_TEMPLATE', postgres: 'APAS_TEST_PG_TEMPLATE' } as const;

/** The PostgreSQL template's name on the test server. */
const PG_TEMPLATE = 'apas_test_template';

/**
 * Migrates a SQLite file and a PostgreSQL database on `serverUrl` to copy from, and makes the directory of the run's
 * seeded demo; returns their environment and a cleanup.
 */
export async function prepareTemplates(serverUrl: string): Promise<{ env: Record<string, string>; remove: () => void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-template-'));
  const file = path.join(dir, 'template.db');
  const sqlite = await openDatabase({ kind: 'sqlite', file });
  await sqlite.changes.close();
  await sqlite.db.destroy();
  // Closing the last connection checkpoints the WAL into the file: the file alone is the whole database.
  if (fs.existsSync(`${file}-wal`) && fs.statSync(`${file}-wal`).size > 0) throw new Error('the SQLite template kept a WAL; a copy of its file would miss what is in it');
  await admin(serverUrl, `drop database if exists ${PG_TEMPLATE}`);
  await admin(serverUrl, `create database ${PG_TEMPLATE}`);
  const url = new URL(serverUrl);
  url.pathname = `/${PG_TEMPLATE}`;
  const postgres = await openDatabase({ kind: 'postgres', url: url.toString() });
  // No connection may stay on a template while it is copied.
  await postgres.changes.close();
  await postgres.db.destroy();
  // Where the first server of the run to seed the demo on SQLite leaves a seeded copy for the others (scripts/faults/seeded-demo.ts).
  const demo = path.join(dir, 'demo');
  fs.mkdirSync(demo);
  return {
    env: { [TEMPLATE_ENV.sqlite]: file, [TEMPLATE_ENV.postgres]: PG_TEMPLATE, [DEMO_TEMPLATE_ENV]: demo },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs one statement on the server's default database. */
export async function admin(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
