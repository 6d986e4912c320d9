import { type QueryExecutorProvider, sql } from 'kysely';
import type { Dialect } from './dialect.ts';

/** One table a move copies: its columns, its primary key (the order batches go in) and the tables it references. */
export interface MovedTable {
  name: string; columns: string[]; primaryKey: string[]; parents: string[];
  /** It has a column of bytes (stored answers), whose rows may be large: fewer go in one batch. */
  binary?: boolean;
}

/** A column the database numbers by itself (events.seq): its counter must move with the rows. */
export interface CountedColumn { table: string; column: string }

/**
 * Tables a move never copies as rows: the migrator's own (the target is migrated by this version), SQLite's counters
 * (carried by `CountedColumn`), the chunks of the database blob store (files go through the blob stores, see
 * move-blobs.ts) and the move's own bookkeeping.
 */
export function isCopiedTable(name: string): boolean {
  return !/^(kysely_migration|kysely_migration_lock|sqlite_sequence|blob_chunks)$/.test(name) && !name.startsWith('apas_move') && !name.startsWith('sqlite_');
}

// The schema as the database itself describes it, so a table a later migration adds moves without a list to keep.
async function sqliteTables(db: QueryExecutorProvider): Promise<MovedTable[]> {
  const names = (await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(db)).rows.map((r) => r.name);
  const out: MovedTable[] = [];
  for (const name of names.filter(isCopiedTable)) {
    const info = (await sql<{ name: string; pk: number; cid: number; type: string }>`select name, pk, cid, type from pragma_table_info(${name}) order by cid`.execute(db)).rows;
    const fks = (await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${name})`.execute(db)).rows;
    out.push({
      name, columns: info.map((c) => c.name),
      primaryKey: info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name),
      parents: [...new Set(fks.map((f) => f.table))], binary: info.some((c) => /blob/i.test(c.type)),
    });
  }
  return out;
}

async function postgresTables(db: QueryExecutorProvider): Promise<MovedTable[]> {
  const columns = (await sql<{ table_name: string; column_name: string; data_type: string }>`
    select c.table_name, c.column_name, c.data_type from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE' order by c.table_name, c.ordinal_position`.execute(db)).rows;
  const keys = (await sql<{ table_name: string; column_name: string }>`
    select cl.relname as table_name, a.attname as column_name from pg_index i
    join pg_class cl on cl.oid = i.indrelid join pg_namespace n on n.oid = cl.relnamespace
    cross join lateral unnest(i.indkey) with ordinality as k(attnum, ord)
    join pg_attribute a on a.attrelid = cl.oid and a.attnum = k.attnum
    where i.indisprimary and n.nspname = current_schema() order by cl.relname, k.ord`.execute(db)).rows;
  const fks = (await sql<{ table_name: string; parent: string }>`
    select distinct c.conrelid::regclass::text as table_name, c.confrelid::regclass::text as parent from pg_constraint c
    join pg_namespace n on n.oid = c.connamespace where c.contype = 'f' and n.nspname = current_schema()`.execute(db)).rows;
  const tables = new Map<string, MovedTable>();
  for (const c of columns) {
    if (!isCopiedTable(c.table_name)) continue;
    const t = tables.get(c.table_name) ?? { name: c.table_name, columns: [], primaryKey: [], parents: [] };
    t.columns.push(c.column_name);
    if (c.data_type === 'bytea') t.binary = true;
    tables.set(c.table_name, t);
  }
  for (const k of keys) tables.get(k.table_name)?.primaryKey.push(k.column_name);
  for (const f of fks) tables.get(f.table_name)?.parents.push(f.parent);
  return [...tables.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Orders tables so that every table comes after the tables it references (the order rows can be inserted in). */
export function parentsFirst(tables: MovedTable[]): MovedTable[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const out: MovedTable[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const visit = (t: MovedTable) => {
    if (placed.has(t.name)) return;
    if (visiting.has(t.name)) throw new Error(`the tables' foreign keys form a circle through ${t.name}`);
    visiting.add(t.name);
    for (const p of t.parents) if (p !== t.name && byName.has(p)) visit(byName.get(p)!);
    visiting.delete(t.name);
    placed.add(t.name);
    out.push(t);
  };
  for (const t of tables) visit(t);
  return out;
}

/** The tables of a migrated apas database in the order a move copies them; each must have a primary key. */
export async function movedTables(db: QueryExecutorProvider, dialect: Dialect): Promise<MovedTable[]> {
  const tables = parentsFirst(dialect === 'sqlite' ? await sqliteTables(db) : await postgresTables(db));
  const keyless = tables.filter((t) => t.primaryKey.length === 0).map((t) => t.name);
  if (keyless.length > 0) throw new Error(`tables without a primary key cannot be moved in batches: ${keyless.join(', ')}`);
  return tables;
}

/** The columns the database numbers itself: AUTOINCREMENT keys on SQLite, serial or identity columns on PostgreSQL. */
export async function countedColumns(db: QueryExecutorProvider, dialect: Dialect): Promise<CountedColumn[]> {
  if (dialect === 'sqlite') {
    const rows = (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and sql like '%autoincrement%'`.execute(db)).rows;
    const out: CountedColumn[] = [];
    for (const r of rows) {
      const key = (await sql<{ name: string }>`select name from pragma_table_info(${r.name}) where pk = 1`.execute(db)).rows[0];
      if (key) out.push({ table: r.name, column: key.name });
    }
    return out;
  }
  return (await sql<CountedColumn>`select table_name as "table", column_name as "column" from information_schema.columns
    where table_schema = current_schema() and (column_default like 'nextval(%' or is_identity = 'YES') order by table_name`.execute(db)).rows;
}

/** The highest number a counted column holds in its rows (0 for none). */
export async function highestNumber(db: QueryExecutorProvider, c: CountedColumn): Promise<number> {
  return Number((await sql<{ n: number | string | null }>`select max(${sql.ref(c.column)}) as n from ${sql.table(c.table)}`.execute(db)).rows[0]?.n ?? 0);
}

/**
 * The last number a counted column's counter gave out, whatever rows were deleted since; the next row gets a higher one.
 * SQLite numbers past both its counter and the highest row; PostgreSQL's sequence knows nothing of the rows.
 */
export async function counterValue(db: QueryExecutorProvider, dialect: Dialect, c: CountedColumn): Promise<number> {
  if (dialect === 'sqlite') {
    const row = (await sql<{ seq: number }>`select seq from sqlite_sequence where name = ${c.table}`.execute(db)).rows[0];
    return Math.max(await highestNumber(db, c), Number(row?.seq ?? 0));
  }
  const seq = (await sql<{ s: string | null }>`select pg_get_serial_sequence(${c.table}, ${c.column}) as s`.execute(db)).rows[0]?.s;
  if (!seq) return highestNumber(db, c);
  const row = (await sql<{ last_value: string; is_called: boolean }>`select last_value, is_called from ${sql.raw(seq)}`.execute(db)).rows[0];
  return row ? Number(row.last_value) - (row.is_called ? 0 : 1) : 0;
}

/** Sets a counted column's counter so that the next number it gives out is above `value` (and above every row's). */
export async function setCounter(db: QueryExecutorProvider, dialect: Dialect, c: CountedColumn, value: number): Promise<void> {
  if (value <= 0) return;
  if (dialect === 'sqlite') {
    const updated = await sql`update sqlite_sequence set seq = max(seq, ${value}) where name = ${c.table}`.execute(db);
    if (Number(updated.numAffectedRows ?? 0) === 0) await sql`insert into sqlite_sequence (name, seq) values (${c.table}, ${value})`.execute(db);
    return;
  }
  const seq = (await sql<{ s: string | null }>`select pg_get_serial_sequence(${c.table}, ${c.column}) as s`.execute(db)).rows[0]?.s;
  if (seq) await sql`select setval(${seq}::regclass, ${value}, true)`.execute(db);
}
