import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * The transactional outbox. `events` has one row per event of a project change, written in the change's own
 * transaction; `seq` is the installation's sequence, and commits in its order (see event-queries.ts), so a reader
 * that keeps the last sequence it saw misses nothing. `event_cursors` keeps how far each consumer inside the service
 * (webhook fan-out, mail) has read, and the feed's retention mark.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.createTable('events')
    .addColumn('seq', postgres ? 'bigserial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('agency_id', 'text', (c) => c.notNull())
    .addColumn('program_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('audience', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_program_seq').on('events').columns(['program_id', 'seq']).execute();
  await db.schema.createIndex('events_project_seq').on('events').columns(['project_id', 'seq']).execute();
  await db.schema.createIndex('events_at').on('events').column('at').execute();
  await db.schema.createTable('event_cursors')
    .addColumn('consumer', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .execute();
}
