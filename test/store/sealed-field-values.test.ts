import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Kysely } from 'kysely';
import type { FieldCondition } from '../../src/model/records.ts';
import { openDatabase } from '../../src/store/database.ts';
import { openValue, sealValue } from '../../src/store/sealed-field-values.ts';
import { createSecretBox, newSecretKeyLine, parseSecretKeys } from '../../src/store/secret-box.ts';
import type { Store } from '../../src/store/store.ts';
import type { Database } from '../../src/store/tables.ts';
import { forEachDialect, type TestStore } from '../support/databases.ts';
import { IDS, programRows, project, seedProgram, T0, value } from '../support/fixtures.ts';

// The fixture's `name` field is sensitive; `size` (multi-value) is made sensitive where a test needs a list.
const SECRET = 'Jane Q. Secretname';

/** Every text the value tables hold, row by row, read from the database as a thief would. */
async function rawRows(db: TestStore): Promise<Record<string, unknown>[]> {
  const raw = await openDatabase(db.config);
  try {
    const k = raw.db as Kysely<Database>;
    return [
      ...(await k.selectFrom('project_values').selectAll().execute()),
      ...(await k.selectFrom('project_value_items').selectAll().execute()),
      ...(await k.selectFrom('project_drafts').selectAll().execute()),
    ] as Record<string, unknown>[];
  } finally {
    await raw.changes.close();
    await raw.db.destroy();
  }
}

async function writeRaw(db: TestStore, work: (k: Kysely<Database>) => Promise<unknown>): Promise<void> {
  const raw = await openDatabase(db.config);
  try {
    await work(raw.db as Kysely<Database>);
  } finally {
    await raw.changes.close();
    await raw.db.destroy();
  }
}

function mentions(rows: Record<string, unknown>[], text: string): boolean {
  return rows.some((r) => Object.values(r).some((v) => typeof v === 'string' && v.toLowerCase().includes(text.toLowerCase())));
}

async function search(store: Store, c: Partial<FieldCondition> & Pick<FieldCondition, 'op'>): Promise<string[]> {
  const condition: FieldCondition = { fieldId: IDS.name, kind: 'text', content: SECRET, number: null, sealed: true, ...c };
  return (await store.projects.searchProjects({ programId: IDS.program, statusDates: [], fields: [condition], limit: 10, offset: 0 })).map((p) => p.id);
}

async function withSensitiveSize(store: Store, sensitive: boolean, at: number): Promise<void> {
  const rows = programRows(at);
  await store.transaction((tx) => tx.programs.saveProgramDefinition({ ...rows, fields: rows.fields.map((f) => (f.id === IDS.size ? { ...f, sensitive } : f)) }));
}

forEachDialect('store: values of sensitive fields at rest', ({ open }) => {
  it('seals submitted values, list items and drafts of a sensitive field; reads see them in clear', async () => {
    const db = await open();
    await seedProgram(db.store);
    await withSensitiveSize(db.store, true, T0 + 1);
    const p = project('PROJECT00001');
    await db.store.transaction(async (tx) => {
      await tx.projects.insertProject(p);
      await tx.projects.upsertValues(p.id, IDS.form, [value(IDS.name, SECRET), value(IDS.size, ['Hidden-S', 'Hidden-M']), value(IDS.kw, '7.5')]);
      await tx.projects.upsertDraft(p.id, IDS.form, [value(IDS.name, 'Draft Secretname')]);
    });
    const rows = await rawRows(db);
    for (const text of [SECRET, 'Secretname', 'Hidden-S', 'Hidden-M']) assert.equal(mentions(rows, text), false, `the database holds no "${text}"`);
    const nameRow = rows.find((r) => r.field_id === IDS.name && 'num_value' in r && 'form_id' in r);
    assert.match(String(nameRow?.value), /^sealed:v1:/);
    assert.match(String(nameRow?.folded), /^bi:/);
    assert.equal(nameRow?.num_value, null);
    assert.ok(mentions(rows, '7.5'), 'values of other fields stay in clear');

    assert.deepEqual(await db.store.projects.getValues(p.id, [IDS.name, IDS.size]), [value(IDS.name, SECRET), value(IDS.size, ['Hidden-S', 'Hidden-M'])]
      .sort((a, b) => (a.fieldId < b.fieldId ? -1 : 1)));
    assert.deepEqual((await db.store.projects.getDraft(p.id, IDS.form)).map((v) => v.value), ['Draft Secretname']);
    assert.deepEqual((await db.store.projects.valuesOfProjects([p.id], [IDS.name])).map((v) => v.value), [SECRET]);
  });

  it('finds a sealed value by equality (any key configured) and by emptiness, and nothing by its clear text in SQL', async () => {
    const db = await open();
    await seedProgram(db.store);
    await withSensitiveSize(db.store, true, T0 + 1);
    const [a, b, c] = [project('PROJECT00001'), project('PROJECT00002', { createdAt: T0 + 1 }), project('PROJECT00003', { createdAt: T0 + 2 })];
    await db.store.transaction(async (tx) => {
      for (const p of [a, b, c]) await tx.projects.insertProject(p);
      await tx.projects.upsertValues(a.id, IDS.form, [value(IDS.name, SECRET), value(IDS.size, ['S', 'M'])]);
      await tx.projects.upsertValues(b.id, IDS.form, [value(IDS.name, 'someone else'), value(IDS.size, ['M'])]);
    });
    assert.deepEqual(await search(db.store, { op: 'eq' }), [a.id]);
    assert.deepEqual(await search(db.store, { op: 'eq', content: SECRET.toLowerCase() }), [], 'equality is exact, as for text fields');
    assert.deepEqual(await search(db.store, { op: 'ne' }), [b.id, c.id]);
    assert.deepEqual(await search(db.store, { op: 'empty', content: null }), [c.id]);
    assert.deepEqual(await search(db.store, { op: 'notempty', content: null }), [a.id, b.id]);
    assert.deepEqual(await search(db.store, { fieldId: IDS.size, kind: 'multi', op: 'eq', content: 'M' }), [a.id, b.id]);
    assert.deepEqual(await search(db.store, { fieldId: IDS.size, kind: 'multi', op: 'eq', content: 'S' }), [a.id]);
    assert.deepEqual(await search(db.store, { op: 'eq', sealed: false }), [], 'the clear text matches no stored value');
  });

  it('seals values stored in clear before encryption at rest, re-keys them on rotation, and opens them when the mark goes', async () => {
    const oldKey = parseSecretKeys(newSecretKeyLine(), 'old');
    const newKey = parseSecretKeys(newSecretKeyLine(), 'new');
    const db = await open({ secrets: createSecretBox(oldKey) });
    await seedProgram(db.store);
    const p = project('PROJECT00001');
    await db.store.transaction(async (tx) => {
      await tx.projects.insertProject(p);
      await tx.projects.upsertValues(p.id, IDS.form, [value(IDS.name, 'placeholder')]);
    });
    // As an older version wrote it: the value, its folded text, no blind index; a draft in clear too.
    await writeRaw(db, async (k) => {
      await k.updateTable('project_values').set({ value: SECRET, folded: SECRET.toLowerCase() }).where('field_id', '=', IDS.name).execute();
      await k.insertInto('project_drafts').values({ project_id: p.id, form_id: IDS.form, field_id: IDS.name, value: 'Draft Secretname', values_json: null, updated_at: T0, updated_by: IDS.admin }).execute();
    });
    assert.deepEqual(await db.store.resealSecrets('count'), { resealed: 0, byKey: { unsealed: 2 }, missingKeys: [] });
    assert.deepEqual(await db.store.resealSecrets('legacy'), { resealed: 2, byKey: { [oldKey[0]!.id]: 2 }, missingKeys: [] });
    assert.equal(mentions(await rawRows(db), 'Secretname'), false, 'sealed at start');
    assert.deepEqual(await search(db.store, { op: 'eq' }), [p.id]);
    assert.equal((await db.store.resealSecrets('legacy')).resealed, 0, 'a second start has nothing to seal');

    // A new first key: values indexed with the old one are still found until the rotation re-indexes them.
    const both = await db.reopen({ secrets: createSecretBox([...newKey, ...oldKey]) });
    assert.deepEqual(await search(both, { op: 'eq' }), [p.id]);
    const rotated = await both.resealSecrets('all');
    assert.deepEqual([rotated.resealed, rotated.byKey, rotated.missingKeys], [2, { [newKey[0]!.id]: 2 }, []]);
    const onlyNew = await db.reopen({ secrets: createSecretBox(newKey) });
    assert.deepEqual(await search(onlyNew, { op: 'eq' }), [p.id], 'found with the new key alone');
    assert.deepEqual((await onlyNew.projects.getValues(p.id, [IDS.name])).map((v) => v.value), [SECRET]);
    assert.ok((await rawRows(db)).filter((r) => r.field_id === IDS.name).every((r) => String(r.value).startsWith(`sealed:v1:${newKey[0]!.id}:`)));

    // The program no longer marks the field sensitive: its values are stored (and searchable) in clear again, and
    // sealed again when the mark comes back.
    const rows = programRows(T0 + 10);
    const plain = { ...rows, fields: rows.fields.map((f) => ({ ...f, sensitive: false })) };
    await onlyNew.transaction(async (tx) => {
      await tx.programs.saveProgramDefinition(plain);
      assert.equal(await tx.projects.resealFields([IDS.name]), 2);
    });
    assert.ok(mentions(await rawRows(db), SECRET));
    assert.deepEqual(await search(onlyNew, { op: 'contains', content: 'secretname', sealed: false }), [p.id]);
    await onlyNew.transaction(async (tx) => {
      await tx.programs.saveProgramDefinition(programRows(T0 + 20));
      assert.equal(await tx.projects.resealFields([IDS.name]), 2);
    });
    assert.equal(mentions(await rawRows(db), 'Secretname'), false);
    assert.deepEqual(await search(onlyNew, { op: 'eq' }), [p.id]);
  });

  it('names a key that seals stored values but is not configured, at start and when counting', async () => {
    const oldKey = parseSecretKeys(newSecretKeyLine(), 'old');
    const db = await open({ secrets: createSecretBox(oldKey) });
    await seedProgram(db.store);
    const p = project('PROJECT00001');
    await db.store.transaction(async (tx) => {
      await tx.projects.insertProject(p);
      await tx.projects.upsertValues(p.id, IDS.form, [value(IDS.name, SECRET)]);
    });
    const other = await db.reopen({ secrets: createSecretBox(parseSecretKeys(newSecretKeyLine(), 'other')) });
    assert.deepEqual((await other.resealSecrets('legacy')).missingKeys, [oldKey[0]!.id]);
    assert.deepEqual((await other.resealSecrets('count')).missingKeys, [oldKey[0]!.id]);
    assert.deepEqual((await other.resealSecrets('legacy')).missingKeys, [oldKey[0]!.id], 'a later start, which reads one value per field, too');
  });

  it('looks for values in clear once: a later start reads one sealed value per field, not every value', async () => {
    const db = await open();
    await seedProgram(db.store);
    const p = project('PROJECT00001');
    await db.store.transaction(async (tx) => {
      await tx.projects.insertProject(p);
      await tx.projects.upsertValues(p.id, IDS.form, [value(IDS.name, SECRET)]);
    });
    assert.equal((await db.store.resealSecrets('legacy')).resealed, 0);
    // Only an apas from before encryption at rest wrote values in clear, and it cannot open a database migrated since.
    await writeRaw(db, async (k) => {
      await k.updateTable('project_values').set({ value: SECRET }).where('field_id', '=', IDS.name).execute();
    });
    assert.equal((await db.store.resealSecrets('legacy')).resealed, 0, 'not read again');
    assert.equal((await db.store.resealSecrets('count')).byKey.unsealed, 1, 'counting still reads every value');
    assert.equal((await db.store.resealSecrets('all')).resealed, 1, 'and rotation seals it');
  });
});

it('opens a sealed value once and answers it again from the texts opened lately; a changed text is still refused', () => {
  const box = createSecretBox(parseSecretKeys(newSecretKeyLine(), 'test'));
  let opened = 0;
  const counting = {
    ...box,
    open: (stored: string, context: string) => {
      opened++;
      return box.open(stored, context);
    },
  };
  const stored = sealValue(counting, 'PROJECT00001', { fieldId: 'FIELD0000001', value: SECRET, values: null, updatedAt: T0, updatedBy: IDS.admin });
  const read = () => openValue(counting, 'PROJECT00001', { ...stored });
  assert.equal(read().value, SECRET);
  assert.equal(read().value, SECRET);
  assert.equal(opened, 1, 'the second read decrypted nothing');
  // The same sealed text in another row's context, or changed, misses and is opened (and refused) as before.
  assert.throws(() => openValue(counting, 'PROJECT00002', { ...stored }), /changed/);
  const tampered = `${stored.value!.slice(0, -4)}${stored.value!.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
  assert.throws(() => openValue(counting, 'PROJECT00001', { ...stored, value: tampered }));
  assert.equal(opened, 3);
});
