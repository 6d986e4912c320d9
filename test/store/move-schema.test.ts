import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { countedColumns, counterValue, movedTables, setCounter } from '../../src/store/move-schema.ts';
import { forEachDialect, onDatabase } from '../support/databases.ts';

// What `apas move` reads of a schema (src/store/move-schema.ts): the tables in an order rows can be inserted in, and
// the counters the database keeps itself, which must move too, pruned rows and all, or the change feed's next event
// would take a sequence a consumer has already passed.

const newEvent = (id: string) => sql`insert into events (id, type, at, agency_id, program_id, project_id, actor_id, audience, data, owner_id)
  values (${id}, 'project.created', 1, 'A', 'P', 'X', null, 'staff', '{}', null)`;

forEachDialect('store: the schema a move reads', ({ open, dialect }) => {
  it('lists every table but the migrator\'s, the counters and the file chunks, each after the tables it references', async () => {
    const db = await open();
    const tables = await onDatabase(db.config, (k) => movedTables(k, dialect));
    const names = tables.map((t) => t.name);
    assert.ok(names.includes('projects') && names.includes('events') && names.includes('idempotency_keys'));
    for (const left of ['kysely_migration', 'kysely_migration_lock', 'sqlite_sequence', 'blob_chunks']) assert.ok(!names.includes(left), left);
    for (const [i, t] of tables.entries()) {
      assert.ok(t.primaryKey.length > 0, t.name);
      for (const parent of t.parents) if (parent !== t.name) assert.ok(names.indexOf(parent) < i, `${parent} after ${t.name}`);
    }
    assert.deepEqual(tables.find((t) => t.name === 'attachments')?.parents.includes('projects'), true);
    assert.equal(tables.find((t) => t.name === 'idempotency_keys')?.binary, true);
    assert.deepEqual(await onDatabase(db.config, (k) => countedColumns(k, dialect)), [{ table: 'events', column: 'seq' }]);
  });

  it('reads the event counter past pruned events and sets a new database\'s counter so that it numbers on from there', async () => {
    const [from, to] = [await open(), await open()];
    const events = { table: 'events', column: 'seq' };
    await onDatabase(from.config, async (k) => {
      for (const id of ['E1', 'E2', 'E3']) await newEvent(id).execute(k);
      await sql`delete from events`.execute(k);
    });
    const given = await onDatabase(from.config, (k) => counterValue(k, dialect, events));
    assert.equal(given, 3, 'the counter remembers what the pruned rows took');
    assert.equal(await onDatabase(to.config, (k) => counterValue(k, dialect, events)), 0);
    const next = await onDatabase(to.config, async (k) => {
      await setCounter(k, dialect, events, given);
      await newEvent('E4').execute(k);
      return Number((await sql<{ seq: number }>`select seq from events where id = 'E4'`.execute(k)).rows[0]!.seq);
    });
    assert.equal(next, 4);
  });
});
