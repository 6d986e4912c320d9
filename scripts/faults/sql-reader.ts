import { SqliteBinding } from '../../src/store/sqlite-binding.ts';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/config.ts';

/** Read-only SQL over either database; statements use `?` placeholders and portable SQL. */
export interface SqlReader {
  all<T extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * Opens a reader that bypasses the service: SQLite read-only (safe next to a running or dead server, and it
 * never recovers or checkpoints the file itself), or one PostgreSQL connection in a read-only session.
 */
export async function openSqlReader(config: DatabaseConfig): Promise<SqlReader> {
  if (config.kind === 'sqlite') {
    const db = new SqliteBinding(config.file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    return {
      all: async <T>(sql: string, params: unknown[] = []) => db.prepare(sql).all(...params) as T[],
      close: async () => {
        db.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: config.url });
  client.on('error', () => {});
  await client.connect();
  await client.query('set session characteristics as transaction read only');
  return {
    all: async <T>(sql: string, params: unknown[] = []) => {
      let n = 0;
      const text = sql.replace(/\?/g, () => `$${++n}`);
      return (await client.query(text, params)).rows as T[];
    },
    close: () => client.end(),
  };
}

/** SQLite's own checks of a database file: integrity_check and foreign_key_check; empty when both pass. */
export function sqliteIntegrityProblems(file: string): string[] {
  const db = new SqliteBinding(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
    const problems = integrity.length === 1 && integrity[0] === 'ok' ? [] : integrity.map((line) => `integrity_check: ${line}`);
    for (const row of db.pragma('foreign_key_check') as Record<string, unknown>[]) problems.push(`foreign_key_check: ${JSON.stringify(row)}`);
    return problems;
  } finally {
    db.close();
  }
}
