import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/config.ts';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../../test/support/embedded-postgres.ts';

/** The two databases apas runs on. */
export type FaultDialect = 'sqlite' | 'postgres';

/** A throw-away database for one fault run: what a server's DATABASE_URL is set to, and how to remove it. */
export interface FaultDatabase {
  readonly dialect: FaultDialect;
  /** The value of DATABASE_URL for a server on this database. */
  readonly url: string;
  readonly config: DatabaseConfig;
  /** Deletes the database (the SQLite directory, or the PostgreSQL database); safe to call more than once. */
  drop(): Promise<void>;
}

// A run without APAS_TEST_PG_URL (an `npm run faults:*` script) starts one PostgreSQL for all its databases.
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

/** Stops the PostgreSQL this module started, if any (scripts call it at the end; tests leave it to exit). */
export async function stopOwnPostgres(): Promise<void> {
  const server = ownServer;
  ownServer = undefined;
  if (server) await (await server).stop();
}

async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Creates an empty database: a file in a new temp directory, or a new database on the test PostgreSQL (or on the
 * server at `serverUrl`, a superuser URL, for a run that starts and stops a PostgreSQL of its own).
 */
export async function createFaultDatabase(dialect: FaultDialect, serverUrl?: string): Promise<FaultDatabase> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-faults-'));
    const file = path.join(dir, 'apas.db');
    let dropped = false;
    return {
      dialect, url: file, config: { kind: 'sqlite', file },
      drop: async () => {
        if (dropped) return;
        dropped = true;
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  serverUrl ??= await postgresServerUrl();
  const name = `apas_faults_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let dropping: Promise<void> | undefined;
  return {
    dialect, url: url.toString(), config: { kind: 'postgres', url: url.toString() },
    // WITH (FORCE) ends the sessions a killed server left behind.
    drop: () => (dropping ??= adminQuery(serverUrl, `drop database if exists ${name} with (force)`)),
  };
}
