import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { AttachmentRecord, FieldValue, Project } from '../../src/model/model.ts';
import type { FormRead } from '../../src/store/form-read-query.ts';
import { createSecretBox, newSecretKeyLine, parseSecretKeys } from '../../src/store/secret-box.ts';
import type { Store } from '../../src/store/store.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS, programRows, project, seedProgram, T0, value } from '../support/fixtures.ts';

// GetProjectData's one statement (src/store/form-read-query.ts) against the reads it replaces: what getProject,
// getAllValues, getDraft, listActiveAttachments and listLookups return today, for a project with every kind of value.

const TABLE = 'FIELD0000009';
const PLAN = 'ATTACH000002';

// The fixture program with a table field and a second attachment definition on its form.
function richerRows(at: number) {
  const rows = programRows(at);
  const table = {
    id: TABLE, customId: 'panels', name: 'Panels', type: 'table' as const, multiValue: false, sensitive: false, listId: null, group: null,
    maxLength: null, min: null, max: null, position: 3,
    table: { columns: [{ customId: 'make', name: 'Make', type: 'text' as const, listId: null, required: true, maxLength: null, min: null, max: null }], minRows: null, maxRows: null },
  };
  const [form] = rows.forms;
  return {
    ...rows,
    fields: [...rows.fields, table],
    forms: [{
      ...form!,
      fields: [...form!.fields, { fieldId: TABLE, required: false, position: 3 }],
      attachments: [...form!.attachments, { ...form!.attachments[0]!, id: PLAN, customId: 'plan', name: 'Site plan', position: 1 }],
    }],
  };
}

function file(projectId: string, definitionId: string, version: number, fileName: string): AttachmentRecord {
  return {
    id: `F${projectId.slice(-4)}${definitionId.slice(-2)}${version}`, projectId, definitionId, version, blobKey: `blob-${projectId}-${definitionId}-${version}`,
    fileName, contentType: 'image/png', sizeBytes: 10, sha256: 'x'.repeat(64), uploadedBy: IDS.applicant, uploadedAt: T0 + version,
    approvalStatus: 'Pending', note: null, reviewedBy: null, reviewedAt: null,
  };
}

const byField = (a: FieldValue, b: FieldValue) => (a.fieldId < b.fieldId ? -1 : a.fieldId > b.fieldId ? 1 : 0);

// What today's reads return for the project, in the shape of a FormRead.
async function todaysReads(store: Store, p: Project, lookups: boolean, draft: boolean): Promise<FormRead> {
  return {
    project: (await store.projects.getProject(p.programId, p.id))!,
    values: (await store.projects.getAllValues(p.id)).map(({ formId: _, ...v }) => v).sort(byField),
    changes: draft ? (await store.projects.getDraft(p.id, IDS.form)).sort(byField) : null,
    files: (await store.attachments.listActiveAttachments(p.id)).map((a) => ({ definitionId: a.definitionId, fileName: a.fileName })),
    // In no fixed order on PostgreSQL, as the one read's.
    lookups: lookups ? (await store.connections.listLookups(p.id)).sort((a, b) => (a.fieldId < b.fieldId ? -1 : 1)) : [],
  };
}

async function oneRead(store: Store, p: Project, lookups: boolean, draft: boolean): Promise<FormRead> {
  const reads = await store.projects.readFormData({ programId: p.programId, ref: p.id, orNumber: false, lookups, draftFormId: draft ? IDS.form : null });
  assert.equal(reads.length, 1);
  const [read] = reads as [FormRead];
  return {
    ...read, values: [...read.values].sort(byField), changes: read.changes === null ? null : [...read.changes].sort(byField),
    files: [...read.files].sort((a, b) => (a.definitionId < b.definitionId ? -1 : 1)),
    lookups: [...read.lookups].sort((a, b) => (a.fieldId < b.fieldId ? -1 : 1)),
  };
}

forEachDialect('store: GetProjectData in one statement', ({ open }) => {
  it('returns what today\'s reads return: every kind of value, sealed under the old key and the new, files, lookups, a draft', async () => {
    const oldKey = parseSecretKeys(newSecretKeyLine(), 'old');
    const newKey = parseSecretKeys(newSecretKeyLine(), 'new');
    const db = await open({ secrets: createSecretBox(oldKey) });
    await seedProgram(db.store);
    await db.store.transaction((tx) => tx.programs.saveProgramDefinition(richerRows(T0 + 1)));
    const rich = project('PROJECT00001', { number: 'SOL-00001', version: 3 });
    const sealedOld = project('PROJECT00002');
    const bare = project('PROJECT00003');
    // Sealed under the old key: a value and a draft change of the sensitive name.
    await db.store.transaction(async (tx) => {
      for (const p of [rich, sealedOld, bare]) await tx.projects.insertProject(p);
      await tx.projects.upsertValues(sealedOld.id, IDS.form, [value(IDS.name, 'Old Key Name')]);
      await tx.projects.upsertDraft(sealedOld.id, IDS.form, [value(IDS.name, 'Old Key Draft')]);
    });
    // Opened with a new first key: new values are sealed with it, the old ones still open with the old one.
    const store = await db.reopen({ secrets: createSecretBox([...newKey, ...oldKey]) });
    await store.transaction(async (tx) => {
      await tx.projects.upsertValues(rich.id, IDS.form, [
        value(IDS.name, 'Jane "Q" Secretname, ü'), value(IDS.size, ['S', 'M', '']), value(IDS.kw, ''),
        { ...value(TABLE, JSON.stringify([{ make: 'Acme' }, { make: 'Sun, "Co"' }])), cells: [{ row: 0, column: 'make', value: 'Acme' }, { row: 1, column: 'make', value: 'Sun, "Co"' }] },
      ]);
      await tx.projects.upsertDraft(rich.id, IDS.form, [value(IDS.kw, '7.5', T0 + 5, IDS.admin), value(IDS.name, 'Draft Secretname'), value(IDS.size, [])]);
      for (const [definitionId, version, name] of [[IDS.photo, 1, 'one.png'], [IDS.photo, 2, 'two.png'], [PLAN, 1, 'plan-1.png'], [PLAN, 2, 'plan-2.png'], [PLAN, 3, 'plan-3.png']] as const) {
        await tx.attachments.insertAttachment(file(rich.id, definitionId, version, name));
      }
      await tx.attachments.insertAttachment(file(sealedOld.id, IDS.photo, 1, 'other-project.png'));
      await tx.connections.markLookup(rich.id, IDS.kw, 'verified', 'Found in the registry', T0 + 7);
      await tx.connections.markLookup(rich.id, IDS.name, 'failed', 'Not "found"', T0 + 8);
    });

    const richRead = await oneRead(store, rich, true, true);
    assert.deepEqual(richRead, await todaysReads(store, rich, true, true));
    // The values came back opened, in clear, with their kinds intact.
    assert.deepEqual(richRead.values.map((v) => [v.value, v.values]), [['Jane "Q" Secretname, ü', null], [null, ['S', 'M', '']], ['', null], [JSON.stringify([{ make: 'Acme' }, { make: 'Sun, "Co"' }]), null]]);
    assert.deepEqual(richRead.files, [{ definitionId: IDS.photo, fileName: 'two.png' }, { definitionId: PLAN, fileName: 'plan-3.png' }], 'the newest version of each file');
    assert.equal(richRead.lookups.length, 2);
    assert.deepEqual(richRead.changes?.map((v) => v.value), ['Draft Secretname', null, '7.5']);

    const oldRead = await oneRead(store, sealedOld, true, true);
    assert.deepEqual(oldRead, await todaysReads(store, sealedOld, true, true));
    assert.deepEqual([oldRead.values[0]?.value, oldRead.changes?.[0]?.value], ['Old Key Name', 'Old Key Draft'], 'opened with the old key');

    // Without the draft and the lookups asked for: neither is read.
    assert.deepEqual(await oneRead(store, rich, false, false), await todaysReads(store, rich, false, false));
    // A project with none of them.
    const bareRead = await oneRead(store, bare, true, true);
    assert.deepEqual(bareRead, await todaysReads(store, bare, true, true));
    assert.deepEqual([bareRead.values, bareRead.changes, bareRead.files, bareRead.lookups], [[], [], [], []]);
  });

  it('finds a project by id or by number, both when the reference names two projects, and none of another program', async () => {
    const db = await open();
    await seedProgram(db.store);
    const numbered = project('PROJECT00001', { number: 'SOL-00001' });
    // An id that looks like a number (ids never do; the store does not care): the reference names two projects.
    const lookalike = project('SOL-00002');
    const second = project('PROJECT00003', { number: 'SOL-00002' });
    await db.store.transaction(async (tx) => {
      for (const p of [numbered, lookalike, second]) await tx.projects.insertProject(p);
    });
    const read = (ref: string, orNumber: boolean, programId: string = IDS.program) =>
      db.store.projects.readFormData({ programId, ref, orNumber, lookups: false, draftFormId: null }).then((rs) => rs.map((r) => r.project.id).sort());
    assert.deepEqual(await read('SOL-00001', true), [numbered.id]);
    assert.deepEqual(await read('SOL-00001', false), [], 'by id only');
    assert.deepEqual(await read(numbered.id, true), [numbered.id]);
    assert.deepEqual(await read('SOL-00002', true), [second.id, lookalike.id].sort());
    assert.deepEqual(await read(numbered.id, false, 'PROGRAM00009'), []);
    assert.deepEqual(await read('SOL-00001', true, 'PROGRAM00009'), []);
  });
});
