import assert from 'node:assert/strict';
import { it } from 'node:test';
import pg from 'pg';
import type { Program } from '../../src/model/model.ts';
import type { ProgramDefinitionRows } from '../../src/model/records.ts';
import type { Store } from '../../src/store/store.ts';
import { forEachDialect } from '../support/databases.ts';
import { agency, IDS, programRows, seedProgram, T0 } from '../support/fixtures.ts';

/** The fixture definition with the first field renamed, stamped with `updatedAt`. */
function renamed(name: string, updatedAt = T0): ProgramDefinitionRows {
  const rows = programRows(updatedAt);
  rows.fields[0]!.name = name;
  return rows;
}

async function save(store: Store, rows: ProgramDefinitionRows): Promise<Program> {
  await store.transaction((tx) => tx.programs.saveProgramDefinition(rows));
  const program = await store.programs.findProgram(rows.program.id);
  assert.ok(program, 'the program is stored');
  return program;
}

async function model(store: Store) {
  const program = await store.programs.findProgram(IDS.program);
  assert.ok(program);
  return store.programs.loadProgramModel(program);
}

forEachDialect('store: program definitions', ({ dialect, open }) => {
  it('saves a definition and loads it back as the program model', async () => {
    const { store } = await open();
    const program = await seedProgram(store);
    const rows = programRows();
    assert.deepEqual(program, {
      id: IDS.program, agencyId: IDS.agency, customId: 'solar', name: 'Solar Interconnection', numberPrefix: 'SOL-', numberDigits: 5, updatedAt: T0,
      notifications: null, selfSignUp: false,
    });
    const loaded = await store.programs.loadProgramModel(program);
    assert.equal(loaded.program.id, IDS.program);
    assert.equal(loaded.program.updatedAt, T0);
    assert.deepEqual(loaded.statuses, rows.statuses);
    assert.deepEqual(loaded.lists, rows.lists);
    assert.deepEqual(loaded.fields, rows.fields);
    assert.deepEqual(loaded.forms, rows.forms);
    const definition = await store.programs.loadProgramDefinition(IDS.program);
    assert.deepEqual(definition?.fields, rows.fields);
    assert.equal(await store.programs.loadProgramDefinition('nope'), null);
  });

  it('finds programs by id or by custom id, within an agency or unambiguously across agencies', async () => {
    const { store } = await open();
    await seedProgram(store);
    const other = { id: 'AGENCY000002', customId: 'other', name: 'Other Agency' };
    const bare = (id: string, agencyId: string, customId: string): ProgramDefinitionRows => ({
      program: { id, agencyId, customId, name: id, numberPrefix: '', numberDigits: 4, updatedAt: T0, createdAt: T0 + 1 },
      lists: [], statuses: [], fields: [], forms: [],
    });
    await store.transaction(async (tx) => {
      await tx.accounts.insertAgency(other, T0);
      await tx.programs.saveProgramDefinition(bare('PROGRAM00002', IDS.agency, 'wind'));
      await tx.programs.saveProgramDefinition(bare('PROGRAM00003', other.id, 'solar'));
    });
    assert.equal((await store.programs.findProgram(IDS.program))?.customId, 'solar');
    assert.equal((await store.programs.findProgram(IDS.program, IDS.agency))?.id, IDS.program);
    assert.equal(await store.programs.findProgram(IDS.program, other.id), null, 'a program of another agency is not found by id');
    assert.equal((await store.programs.findProgram('solar', IDS.agency))?.id, IDS.program);
    assert.equal((await store.programs.findProgram('solar', other.id))?.id, 'PROGRAM00003');
    assert.equal(await store.programs.findProgram('solar'), null, 'a custom id two agencies use is ambiguous without an agency');
    assert.equal((await store.programs.findProgram('wind'))?.id, 'PROGRAM00002');
    assert.deepEqual((await store.programs.listPrograms(IDS.agency)).map((p) => p.id), [IDS.program, 'PROGRAM00002']);
    assert.deepEqual(await store.programs.listPrograms('nope'), []);
    assert.deepEqual(await store.accounts.listAgencies(), [agency(), other]);
  });

  it('retires rows a new definition leaves out, keeping their ids, and revives them when they return', async () => {
    const { store } = await open();
    await seedProgram(store);
    const reduced = programRows(T0 + 1000);
    reduced.lists = [];
    reduced.fields = reduced.fields.filter((f) => f.id !== IDS.size);
    reduced.forms[0]!.fields = reduced.forms[0]!.fields.filter((f) => f.fieldId !== IDS.size);
    reduced.forms[0]!.attachments = [];
    await save(store, reduced);

    const retired = await model(store);
    assert.deepEqual(retired.lists, []);
    assert.deepEqual(retired.fields.map((f) => f.id), [IDS.name, IDS.kw]);
    assert.deepEqual(retired.forms[0]?.fields.map((f) => f.fieldId), [IDS.name, IDS.kw]);
    assert.deepEqual(retired.forms[0]?.attachments, []);
    const definition = await store.programs.loadProgramDefinition(IDS.program);
    assert.deepEqual(definition?.lists.map((l) => l.id), [IDS.sizes], 'retired rows are kept, never deleted');
    assert.deepEqual(definition?.fields.map((f) => f.id), [IDS.name, IDS.size, IDS.kw]);
    assert.deepEqual(definition?.forms[0]?.attachments.map((a) => a.id), [IDS.photo]);

    await save(store, programRows(T0 + 2000));
    const revived = await model(store);
    const full = programRows();
    assert.deepEqual(revived.lists, full.lists);
    assert.deepEqual(revived.fields, full.fields);
    assert.deepEqual(revived.forms, full.forms);
  });

  it('replaces transitions, list choices, form statuses and form fields instead of adding to them', async () => {
    const { store } = await open();
    await seedProgram(store);
    const changed = programRows(T0 + 1000);
    changed.statuses[0]!.next = [];
    changed.lists[0]!.choices = [{ value: 'XL', label: 'Extra large' }, { value: 'S', label: 'Tiny' }];
    changed.forms[0]!.availableIn = [IDS.submitted];
    changed.forms[0]!.fields = [{ fieldId: IDS.kw, required: false, position: 0 }, { fieldId: IDS.name, required: false, position: 1 }];
    await save(store, changed);

    const loaded = await model(store);
    assert.deepEqual(loaded.statuses.map((s) => [s.id, s.next]), [[IDS.draft, []], [IDS.submitted, [IDS.draft]]]);
    assert.deepEqual(loaded.lists[0]?.choices, changed.lists[0]!.choices);
    assert.deepEqual(loaded.forms[0]?.availableIn, [IDS.submitted]);
    assert.deepEqual(loaded.forms[0]?.fields, changed.forms[0]!.fields);
    assert.deepEqual(loaded.fields.map((f) => f.id), [IDS.name, IDS.size, IDS.kw], 'a field taken off the form stays in the program');
  });

  it('moves updated_at forward on every save, even when the clock has not', async () => {
    const { store } = await open();
    const first = await seedProgram(store);
    const second = await save(store, programRows(T0));
    assert.ok(second.updatedAt > first.updatedAt, `${second.updatedAt} > ${first.updatedAt}`);
    const third = await save(store, programRows(T0 - 60_000));
    assert.ok(third.updatedAt > second.updatedAt, 'a clock that went backwards still moves it forward');
    const fourth = await save(store, programRows(T0 + 60_000));
    assert.equal(fourth.updatedAt, T0 + 60_000, 'a later clock is taken as it is');
  });

  it('serves the cached model while updated_at stays, and reloads once it moves', async () => {
    const { store } = await open();
    const program = await seedProgram(store);
    const cached = await store.programs.loadProgramModel(program);
    assert.equal(await store.programs.loadProgramModel(program), cached, 'the same program version is served from the cache');
    const moved = await save(store, renamed('Renamed', T0));
    const reloaded = await store.programs.loadProgramModel(moved);
    assert.notEqual(reloaded, cached);
    assert.equal(reloaded.fields[0]?.name, 'Renamed');
  });

  it('lets a second Store instance on the same database see a save made through the first', async () => {
    const { store: first, reopen } = await open();
    await seedProgram(first);
    const second = await reopen();
    assert.equal((await model(second)).fields[0]?.name, 'Applicant name', 'the second instance has cached the model');
    await save(first, renamed('Changed elsewhere', T0));
    assert.equal(await nameSeenBy(second, 'Changed elsewhere'), 'Changed elsewhere');
    await save(second, renamed('Changed back', T0));
    assert.equal(await nameSeenBy(first, 'Changed back'), 'Changed back');
  });

  // Another instance's save reaches a store's read cache with its change signal (docs/architecture.md, "Read
  // caches"): on SQLite from the next turn of the event loop (the next request), on PostgreSQL when the
  // notification arrives (milliseconds). Returns the first field's name once it is `expected`, or the last seen.
  async function nameSeenBy(store: Store, expected: string): Promise<string | undefined> {
    await new Promise((resolve) => setImmediate(resolve));
    const until = Date.now() + (dialect === 'sqlite' ? 0 : 2000);
    for (;;) {
      const name = (await model(store)).fields[0]?.name;
      if (name === expected || Date.now() > until) return name;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('does not keep the model of a rolled-back save in the cache', async () => {
    const { store } = await open();
    await seedProgram(store);
    await model(store);
    await assert.rejects(store.transaction(async (tx) => {
      await tx.programs.saveProgramDefinition(renamed('Rolled back', T0 + 10));
      const inside = await tx.programs.findProgram(IDS.program);
      assert.equal((await tx.programs.loadProgramModel(inside!)).fields[0]?.name, 'Rolled back');
      throw new Error('abort');
    }), /abort/);
    // The same clock reading again, as a retry within the same millisecond or a fixed test clock gives.
    await save(store, renamed('Committed', T0 + 10));
    assert.equal((await model(store)).fields[0]?.name, 'Committed');
  });

  // SQLite takes the write lock at BEGIN, so two saves never overlap there; PostgreSQL locks the row later.
  if (dialect === 'postgres') {
    it('gives two overlapping saves distinct updated_at values', async () => {
      const { store: first, reopen, config } = await open();
      await seedProgram(first);
      const second = await reopen();
      let reached!: () => void;
      let release!: () => void;
      const atGate = new Promise<void>((resolve) => (reached = resolve));
      const gate = new Promise<void>((resolve) => (release = resolve));
      const one = first.transaction(async (tx) => {
        await tx.programs.saveProgramDefinition(renamed('First', T0));
        reached();
        await gate;
      });
      await atGate;
      const two = second.transaction((tx) => tx.programs.saveProgramDefinition(renamed('Second', T0)));
      await waitForLockWait(config.kind === 'postgres' ? config.url : '');
      release();
      await Promise.all([one, two]);
      const stored = await first.programs.findProgram(IDS.program);
      assert.equal(stored?.updatedAt, T0 + 2, 'each committed save moves updated_at, so caches see both');
    });
  }
});

/** Waits until some session of the database waits for a lock, i.e. the second save is blocked. */
async function waitForLockWait(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let i = 0; i < 100; i++) {
      const { rows } = await client.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
      if (rows[0].n > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the second save never waited for the first');
  } finally {
    await client.end();
  }
}
