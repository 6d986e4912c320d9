import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Long custom lists loaded from CSV files (issue 34, §2): `custom_lists.row_source` holds the columns a program file
 * declares for a list whose rows come from a CSV file (null for a list of the file's own choices);
 * `custom_list_rows` holds the rows, each with its key (the value a field stores), label and typed column values;
 * `custom_list_row_words` indexes every word of a row's key and label, so that a search for the first words typed is
 * a range scan of an index on both databases, never a scan of the list.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  // Words are ASCII letters and digits; byte order ("C") keeps each prefix one range of the index on PostgreSQL.
  const word = db.getExecutor().adapter instanceof PostgresAdapter ? sql`text collate "C"` : sql`text`;
  await s.alterTable('custom_lists').addColumn('row_source', 'text').execute();
  await s.createTable('custom_list_rows')
    .addColumn('list_id', 'text', (c) => c.notNull().references('custom_lists.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('custom_list_rows_pk', ['list_id', 'position'])
    .execute();
  await s.createIndex('custom_list_rows_value').on('custom_list_rows').columns(['list_id', 'value']).unique().execute();
  await s.createTable('custom_list_row_words')
    .addColumn('list_id', 'text', (c) => c.notNull())
    .addColumn('word', word, (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('custom_list_row_words_pk', ['list_id', 'word', 'position'])
    .execute();
  // A search's other words are probed per candidate row: (row, word) finds them without reading the word's whole range.
  await s.createIndex('custom_list_row_words_row').on('custom_list_row_words').columns(['list_id', 'position', 'word']).execute();
}
