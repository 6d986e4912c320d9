import type { ExpressionBuilder, Kysely } from 'kysely';
import { fold, numericValue } from './project-queries.ts';
import { blindIndexKeyId, type SecretBox } from './secret-box.ts';
import { blindIndex, fieldValueContext, sealText } from './sealed-field-values.ts';
import type { Database } from './tables.ts';

/**
 * Brings the stored values of data fields in line with their `sensitive` mark and the configured keys: values of a
 * sensitive field stored in clear (before encryption at rest, or before the field was marked) are sealed and get a
 * blind index; with `rotate`, sealed values are re-wrapped with the sealing key and re-indexed with it; values of
 * fields that are no longer sensitive are opened again, with their search columns restored.
 */

/** What one pass did: values (re)written, stored sealed values per key id, and key ids that seal values but are missing. */
export interface FieldValueReport { resealed: number; byKey: Record<string, number>; missingKeys: string[] }

/** Which rows a pass looks at: only those left in clear (start-up), or every sealed one too (rotation, counting). */
export interface FieldValuePass {
  /** Re-wrap and re-index values of sensitive fields sealed or indexed with another key than the sealing one. */
  rotate: boolean;
  /** Only count (nothing is written). */
  countOnly: boolean;
  /** The fields to go over; every sensitive field when left out. */
  fieldIds?: string[];
  /** Only read one sealed value per field for its key: an earlier start found every value sealed (maintenance_marks). */
  sampleOnly?: boolean;
}

const SEALED_LIKE = 'sealed:v1:%';

interface Work { report: FieldValueReport; secrets: SecretBox; pass: FieldValuePass }

// True when every sealed text of a row is sealed with a configured key; notes the missing keys otherwise.
function readable(work: Work, stored: string[]): boolean {
  let ok = true;
  for (const text of stored) {
    const keyId = work.secrets.keyIdOf(text);
    if (keyId === null || work.secrets.hasKey(keyId)) continue;
    ok = false;
    if (!work.report.missingKeys.includes(keyId)) work.report.missingKeys.push(keyId);
  }
  return ok;
}

// Counts stored texts by the key that seals them (`unsealed` for one in clear); the empty text is nothing to seal.
function count(work: Work, stored: string[]): void {
  for (const text of stored) {
    if (text === '') continue;
    const key = work.secrets.keyIdOf(text) ?? 'unsealed';
    work.report.byKey[key] = (work.report.byKey[key] ?? 0) + 1;
  }
}

// The stored form of one text of a sensitive field: sealed, re-wrapped when rotating; null when it stays as it is.
function resealed(work: Work, projectId: string, fieldId: string, text: string): string | null {
  if (text === '') return null;
  if (work.secrets.keyIdOf(text) === null) return sealText(work.secrets, projectId, fieldId, text);
  return work.pass.rotate ? work.secrets.reseal(text, fieldValueContext(projectId, fieldId)) : null;
}

// Whether a stored blind index must be made again: it is not one, or (rotating) another key made it.
function staleIndex(work: Work, folded: string | null): boolean {
  const keyId = folded === null ? null : blindIndexKeyId(folded);
  return keyId === null || (work.pass.rotate && keyId !== work.secrets.primaryKeyId);
}

function blind(work: Work, fieldId: string, plain: string): string {
  return blindIndex(work.secrets, fieldId, plain);
}

function openText(work: Work, projectId: string, fieldId: string, text: string): string {
  return work.secrets.open(text, fieldValueContext(projectId, fieldId));
}

function texts(value: string | null, valuesJson: string | null): string[] {
  return [...(value === null ? [] : [value]), ...(valuesJson === null ? [] : (JSON.parse(valuesJson) as string[]))];
}

async function sensitiveFields(db: Kysely<Database>, pass: FieldValuePass, sensitive: boolean): Promise<string[]> {
  let query = db.selectFrom('data_fields').select('id').where('sensitive', '=', sensitive ? 1 : 0);
  if (pass.fieldIds) {
    if (pass.fieldIds.length === 0) return [];
    query = query.where('id', 'in', pass.fieldIds);
  }
  return (await query.execute()).map((r) => r.id);
}

/** Runs one pass over the values of the fields `pass` names, in the caller's transaction. */
export async function resealFieldValues(db: Kysely<Database>, secrets: SecretBox, pass: FieldValuePass): Promise<FieldValueReport> {
  const work: Work = { report: { resealed: 0, byKey: {}, missingKeys: [] }, secrets, pass };
  for (const fieldId of await sensitiveFields(db, pass, true)) {
    if (legacyOnly(work)) await sampleKey(db, work, fieldId);
    if (pass.sampleOnly) continue;
    await sealSubmitted(db, work, fieldId);
    await sealItems(db, work, fieldId);
    await sealDrafts(db, work, fieldId);
  }
  // Fields no longer sensitive are opened only when named (a program import that changed the mark): finding sealed
  // values among every value of every field would read the whole table at each start.
  if (pass.fieldIds && !pass.countOnly) {
    for (const fieldId of await sensitiveFields(db, pass, false)) await openField(db, work, fieldId);
  }
  return work.report;
}

// Without `rotate` or counting, only rows holding a clear text (or a clear index) are read: at start this finds the
// rows left from before encryption at rest without reading every sealed one.
function legacyOnly(work: Work): boolean {
  return !work.pass.rotate && !work.pass.countOnly;
}

// At start only the rows in clear are read; one sealed value per field tells whether the configured keys still open them.
async function sampleKey(db: Kysely<Database>, work: Work, fieldId: string): Promise<void> {
  const row = await db.selectFrom('project_values').select('value').where('field_id', '=', fieldId).where('value', 'like', SEALED_LIKE).limit(1).executeTakeFirst();
  if (row?.value) readable(work, [row.value]);
}

// The stored texts of a row (a value, or a multi-value field's list) as this pass leaves them; null when the row is
// only counted or cannot be opened (its key is missing).
function resealRow(work: Work, projectId: string, fieldId: string, row: { value: string | null; values_json: string | null }) {
  const stored = texts(row.value, row.values_json);
  if (!readable(work, stored)) return null;
  if (work.pass.countOnly) {
    count(work, stored);
    return null;
  }
  const value = row.value === null ? null : (resealed(work, projectId, fieldId, row.value) ?? row.value);
  const valuesJson = row.values_json === null ? null
    : JSON.stringify((JSON.parse(row.values_json) as string[]).map((t) => resealed(work, projectId, fieldId, t) ?? t));
  count(work, texts(value, valuesJson));
  return { value, valuesJson };
}

// Rows in clear: a text that is neither empty nor sealed, or a list whose first text is not sealed.
function clearTexts(eb: ExpressionBuilder<Database, 'project_values' | 'project_drafts'>) {
  return [
    eb.and([eb('value', 'is not', null), eb('value', '<>', ''), eb('value', 'not like', SEALED_LIKE)]),
    eb.and([eb('values_json', 'is not', null), eb('values_json', '<>', '[]'), eb('values_json', 'not like', `["${SEALED_LIKE}`)]),
  ];
}

async function sealSubmitted(db: Kysely<Database>, work: Work, fieldId: string): Promise<void> {
  let query = db.selectFrom('project_values').select(['project_id', 'value', 'values_json', 'folded']).where('field_id', '=', fieldId);
  if (legacyOnly(work)) {
    query = query.where((eb) => eb.or([...clearTexts(eb), eb.and([eb('value', 'is not', null), eb.or([eb('folded', 'is', null), eb('folded', 'not like', 'bi:%')])])]));
  }
  for (const row of await query.execute()) {
    const next = resealRow(work, row.project_id, fieldId, row);
    if (!next) continue;
    const { value, valuesJson } = next;
    const folded = row.value !== null && staleIndex(work, row.folded) ? blind(work, fieldId, openText(work, row.project_id, fieldId, value as string)) : row.folded;
    if (value === row.value && valuesJson === row.values_json && folded === row.folded) continue;
    await db.updateTable('project_values').set({ value, values_json: valuesJson, folded, num_value: null })
      .where('project_id', '=', row.project_id).where('field_id', '=', fieldId).execute();
    work.report.resealed++;
  }
}

async function sealItems(db: Kysely<Database>, work: Work, fieldId: string): Promise<void> {
  let query = db.selectFrom('project_value_items').select(['project_id', 'position', 'value', 'folded']).where('field_id', '=', fieldId);
  if (legacyOnly(work)) query = query.where((eb) => eb.or([eb.and([eb('value', '<>', ''), eb('value', 'not like', SEALED_LIKE)]), eb('folded', 'not like', 'bi:%')]));
  for (const row of await query.execute()) {
    // Submitted values counted their items already (values_json); the items table repeats them.
    if (work.pass.countOnly || !readable(work, [row.value])) continue;
    const value = resealed(work, row.project_id, fieldId, row.value) ?? row.value;
    const folded = staleIndex(work, row.folded) ? blind(work, fieldId, openText(work, row.project_id, fieldId, value)) : row.folded;
    if (value === row.value && folded === row.folded) continue;
    await db.updateTable('project_value_items').set({ value, folded, num_value: null })
      .where('project_id', '=', row.project_id).where('field_id', '=', fieldId).where('position', '=', row.position).execute();
  }
}

async function sealDrafts(db: Kysely<Database>, work: Work, fieldId: string): Promise<void> {
  let query = db.selectFrom('project_drafts').select(['project_id', 'form_id', 'value', 'values_json']).where('field_id', '=', fieldId);
  if (legacyOnly(work)) {
    query = query.where((eb) => eb.or(clearTexts(eb)));
  }
  for (const row of await query.execute()) {
    const next = resealRow(work, row.project_id, fieldId, row);
    if (!next) continue;
    const { value, valuesJson } = next;
    if (value === row.value && valuesJson === row.values_json) continue;
    await db.updateTable('project_drafts').set({ value, values_json: valuesJson })
      .where('project_id', '=', row.project_id).where('form_id', '=', row.form_id).where('field_id', '=', fieldId).execute();
    work.report.resealed++;
  }
}

// A field that is no longer sensitive: every sealed text opened, with the number and folded text searches use.
async function openField(db: Kysely<Database>, work: Work, fieldId: string): Promise<void> {
  const open = (projectId: string, text: string) => openText(work, projectId, fieldId, text);
  const openJson = (projectId: string, json: string | null) => (json === null ? null : JSON.stringify((JSON.parse(json) as string[]).map((t) => open(projectId, t))));
  const values = await db.selectFrom('project_values').select(['project_id', 'value', 'values_json']).where('field_id', '=', fieldId)
    .where((eb) => eb.or([eb('value', 'like', SEALED_LIKE), eb('values_json', 'like', `%${SEALED_LIKE}`)])).execute();
  for (const row of values) {
    const value = row.value === null ? null : open(row.project_id, row.value);
    await db.updateTable('project_values').set({
      value, values_json: openJson(row.project_id, row.values_json), num_value: numericValue(value), folded: value === null ? null : fold(value),
    }).where('project_id', '=', row.project_id).where('field_id', '=', fieldId).execute();
    work.report.resealed++;
  }
  const items = await db.selectFrom('project_value_items').select(['project_id', 'position', 'value']).where('field_id', '=', fieldId).where('value', 'like', SEALED_LIKE).execute();
  for (const row of items) {
    const value = open(row.project_id, row.value);
    await db.updateTable('project_value_items').set({ value, folded: fold(value), num_value: numericValue(value) })
      .where('project_id', '=', row.project_id).where('field_id', '=', fieldId).where('position', '=', row.position).execute();
  }
  const drafts = await db.selectFrom('project_drafts').select(['project_id', 'form_id', 'value', 'values_json']).where('field_id', '=', fieldId)
    .where((eb) => eb.or([eb('value', 'like', SEALED_LIKE), eb('values_json', 'like', `%${SEALED_LIKE}`)])).execute();
  for (const row of drafts) {
    await db.updateTable('project_drafts').set({ value: row.value === null ? null : open(row.project_id, row.value), values_json: openJson(row.project_id, row.values_json) })
      .where('project_id', '=', row.project_id).where('form_id', '=', row.form_id).where('field_id', '=', fieldId).execute();
    work.report.resealed++;
  }
}
