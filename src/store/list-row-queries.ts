import { type Kysely, sql } from 'kysely';
import type { CustomList, ListChoice } from '../model/model.ts';
import { bindDb } from './bind-db.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

/** A row of a long list to store: its key, label, cells by column name, and the search words of its key and label. */
export interface ListRowInput extends ListChoice { words: string[] }

/** What a search of a long list found: its first matching rows in list order, and whether more matched. */
export interface ListRowPage { rows: ListChoice[]; more: boolean }

// Rows and words go in groups small enough for either database's limit of bound values per statement (SQLite's
// 32,766): 5 values a row, 3 a word.
const ROWS_PER_INSERT = 1000;
const WORDS_PER_INSERT = 5000;
// A copy moves rows inside the database; pages keep each statement's work (and PostgreSQL's memory for it) bounded.
const ROWS_PER_COPY = 5000;
// Words hold only a-z and 0-9: every word starting with a prefix sorts below the prefix followed by "~".
const AFTER_WORD = '~';

function choiceOf(r: { value: string; label: string; data: string }): ListChoice {
  const data = JSON.parse(r.data) as Record<string, string>;
  return Object.keys(data).length === 0 ? { value: r.value, label: r.label } : { value: r.value, label: r.label, data };
}

/** The lists with their loaded rows as choices: what a program's model holds of a list of `rows: csv`. */
export async function withLoadedRows(db: Db, lists: CustomList[]): Promise<CustomList[]> {
  const loaded = lists.filter((l) => l.rows);
  if (loaded.length === 0) return lists;
  const rows = await db.selectFrom('custom_list_rows').select(['list_id', 'value', 'label', 'data'])
    .where('list_id', 'in', loaded.map((l) => l.id)).orderBy('list_id').orderBy('position').execute();
  const byList = new Map<string, ListChoice[]>();
  for (const r of rows) {
    const choices = byList.get(r.list_id) ?? [];
    choices.push(choiceOf(r));
    byList.set(r.list_id, choices);
  }
  return lists.map((l) => (l.rows ? { ...l, choices: byList.get(l.id) ?? [] } : l));
}

/**
 * Replaces a long list's rows with `rows`, in the caller's transaction, and moves its program's updated_at forward so
 * that every instance's cached model (which holds the rows) is read again.
 */
export async function replaceListRows(db: Db, listId: string, rows: ListRowInput[], now: number): Promise<void> {
  await clearListRows(db, listId);
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const group = rows.slice(start, start + ROWS_PER_INSERT);
    await db.insertInto('custom_list_rows').values(group.map((r, i) => ({
      list_id: listId, position: start + i, value: r.value, label: r.label, data: JSON.stringify(r.data ?? {}),
    }))).execute();
    const words = group.flatMap((r, i) => [...new Set(r.words)].map((word) => ({ list_id: listId, word, position: start + i })));
    for (let w = 0; w < words.length; w += WORDS_PER_INSERT) await db.insertInto('custom_list_row_words').values(words.slice(w, w + WORDS_PER_INSERT)).execute();
  }
  await touchProgramOf(db, listId, now);
}

// Empties a list before its rows are written again: the search words first, then the rows they point at.
async function clearListRows(db: Db, listId: string): Promise<void> {
  await db.deleteFrom('custom_list_row_words').where('list_id', '=', listId).execute();
  await db.deleteFrom('custom_list_rows').where('list_id', '=', listId).execute();
}

// Moves the program of a list forward, so that every instance's cached model (which holds the rows) is read again.
async function touchProgramOf(db: Db, listId: string, now: number): Promise<void> {
  const list = await db.selectFrom('custom_lists').select('program_id').where('id', '=', listId).executeTakeFirstOrThrow();
  await db.updateTable('programs').set({
    updated_at: sql<number>`case when updated_at + 1 > ${now} then updated_at + 1 else ${now} end`,
  }).where('id', '=', list.program_id).execute();
}

/**
 * Replaces the rows of list `toListId` with copies of those of `fromListId` (a test copy's list, from its live
 * program's), with their search words, in the caller's transaction; returns how many rows it copied. Each statement
 * copies ROWS_PER_COPY positions inside the database, so no row passes through the service and no statement grows
 * with the list. The two lists stay apart: a later load into either leaves the other as it is.
 */
export async function copyListRows(db: Db, fromListId: string, toListId: string, now: number): Promise<number> {
  await clearListRows(db, toListId);
  const last = await db.selectFrom('custom_list_rows').select((eb) => eb.fn.max('position').as('p')).where('list_id', '=', fromListId).executeTakeFirst();
  const end = last?.p === null || last?.p === undefined ? -1 : Number(last.p);
  // Cast, so that PostgreSQL knows the bound list id's type in a select list.
  const to = sql<string>`cast(${toListId} as text)`.as('list_id');
  for (let start = 0; start <= end; start += ROWS_PER_COPY) {
    await db.insertInto('custom_list_rows').columns(['list_id', 'position', 'value', 'label', 'data'])
      .expression((eb) => eb.selectFrom('custom_list_rows').select([to, 'position', 'value', 'label', 'data'])
        .where('list_id', '=', fromListId).where('position', '>=', start).where('position', '<', start + ROWS_PER_COPY))
      .execute();
    await db.insertInto('custom_list_row_words').columns(['list_id', 'word', 'position'])
      .expression((eb) => eb.selectFrom('custom_list_row_words').select([to, 'word', 'position'])
        .where('list_id', '=', fromListId).where('position', '>=', start).where('position', '<', start + ROWS_PER_COPY))
      .execute();
  }
  await touchProgramOf(db, toListId, now);
  return countListRows(db, toListId);
}

/** How many rows a long list holds. */
export async function countListRows(db: Db, listId: string): Promise<number> {
  const r = await db.selectFrom('custom_list_rows').select((eb) => eb.fn.countAll<number | string>().as('n')).where('list_id', '=', listId).executeTakeFirst();
  return Number(r?.n ?? 0);
}

/**
 * The first `limit` rows, in list order, whose key or label has a word starting with each of `words` (all rows for
 * none). The first word is looked up as a range of the words index; the others are checked per candidate row.
 */
export async function searchListRows(db: Db, listId: string, words: string[], limit: number): Promise<ListRowPage> {
  let query = db.selectFrom('custom_list_rows as r').select(['r.value', 'r.label', 'r.data']).where('r.list_id', '=', listId);
  if (words.length > 0) {
    const [first, ...rest] = [...words].sort((a, b) => b.length - a.length);
    query = query.where('r.position', 'in', (eb) => eb.selectFrom('custom_list_row_words').select('position')
      .where('list_id', '=', listId).where('word', '>=', first!).where('word', '<', `${first!}${AFTER_WORD}`));
    for (const w of rest) {
      query = query.where((eb) => eb.exists(eb.selectFrom('custom_list_row_words as w').select('w.position')
        .whereRef('w.list_id', '=', 'r.list_id').whereRef('w.position', '=', 'r.position')
        .where('w.word', '>=', w).where('w.word', '<', `${w}${AFTER_WORD}`)));
    }
  }
  const rows = await query.orderBy('r.position').limit(limit + 1).execute();
  return { rows: rows.slice(0, limit).map(choiceOf), more: rows.length > limit };
}

const READS = { countListRows, searchListRows };

/** Long lists' rows: counts and searches. */
export type ListRowReader = ReturnType<typeof listRowReader>;

/** Long lists' rows: reads, and their replacement or copy (inside a transaction). */
export type ListRowRepository = ReturnType<typeof listRowRepository>;

/** The long lists' reads over a database. */
export function listRowReader(db: Db) {
  return bindDb(db, READS);
}

/** The long lists' reads and writes over a transaction. */
export function listRowRepository(db: Db) {
  return bindDb(db, { ...READS, replaceListRows, copyListRows });
}
