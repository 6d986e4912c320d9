import { type QueryExecutorProvider, sql } from 'kysely';
import type { MovedTable } from './move-schema.ts';

/** One row as the driver returns it, keyed by column. */
export type Row = Record<string, unknown>;

/** The most rows one batch reads or writes: within both engines' limits on bound values (SQLite's 32,766), few where rows hold bytes. */
export function batchRows(table: MovedTable, wanted = 500): number {
  return Math.max(1, Math.min(wanted, table.binary ? 20 : wanted, Math.floor(30_000 / table.columns.length)));
}

/**
 * The next rows of `table` after primary key `after` (null: from the start), in primary key order. Batches go by key
 * ranges, not offsets, so each costs the same however far in it is, and a move can continue from the last key it copied.
 */
export async function readBatch(db: QueryExecutorProvider, table: MovedTable, after: unknown[] | null, limit: number): Promise<Row[]> {
  const key = sql.join(table.primaryKey.map((c) => sql.ref(c)));
  const columns = sql.join(table.columns.map((c) => sql.ref(c)));
  const where = after === null ? sql`` : sql`where (${key}) > (${sql.join(after)})`;
  return (await sql<Row>`select ${columns} from ${sql.table(table.name)} ${where} order by ${key} limit ${limit}`.execute(db)).rows;
}

/** The primary key of a row, as the next batch's `after`. */
export function keyOf(table: MovedTable, row: Row): unknown[] {
  return table.primaryKey.map((c) => row[c]);
}

/** Every row of `table`, batch by batch. */
export async function* allRows(db: QueryExecutorProvider, table: MovedTable, limit = batchRows(table)): AsyncGenerator<Row[]> {
  let after: unknown[] | null = null;
  for (;;) {
    const rows = await readBatch(db, table, after, limit);
    if (rows.length > 0) yield rows;
    if (rows.length < limit) return;
    after = keyOf(table, rows.at(-1)!);
  }
}

/** Inserts `rows` into `table` with every column given, as read from the source. */
export async function insertRows(db: QueryExecutorProvider, table: MovedTable, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((r) => sql`(${sql.join(table.columns.map((c) => r[c] ?? null))})`);
  await sql`insert into ${sql.table(table.name)} (${sql.join(table.columns.map((c) => sql.ref(c)))}) values ${sql.join(values)}`.execute(db);
}
