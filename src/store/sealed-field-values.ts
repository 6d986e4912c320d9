import type { Kysely } from 'kysely';
import type { FieldValue } from '../model/model.ts';
import type { FieldCondition } from '../model/records.ts';
import type { ProjectReader, projectRepository } from './project-repository.ts';
import type { StoredValue } from './project-queries.ts';
import { isSealedText, type SecretBox } from './secret-box.ts';
import type { Database } from './tables.ts';

/**
 * Values of data fields marked sensitive are kept sealed (secret-box.ts) in every table that holds them (submitted
 * values, their items, drafts), with a blind index in place of the folded search text, so a stolen database or
 * backup does not reveal them and an equality search still finds them. The queries read and write the columns as
 * they are stored; these wrappers seal on the way in (for fields sensitive now) and open on the way out (any sealed
 * value, whatever the field says now), so services only ever see values in clear.
 */

/** What a value of a field of a project is sealed against: the project and the field, so it cannot be moved. */
export function fieldValueContext(projectId: string, fieldId: string): string {
  return `field-value:${projectId}:${fieldId}`;
}

/** What a value's blind index is keyed with: the field alone, so equal values of the field match across projects. */
export function fieldIndexContext(fieldId: string): string {
  return `field-index:${fieldId}`;
}

/** Which of `fieldIds` are marked sensitive, read in the same transaction as the write (a program import may change it). */
export async function sensitiveFieldIds(db: Kysely<Database>, fieldIds: string[]): Promise<Set<string>> {
  const ids = [...new Set(fieldIds)];
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('data_fields').select('id').where('id', 'in', ids).where('sensitive', '=', 1).execute();
  return new Set(rows.map((r) => r.id));
}

/** Seals one text (the empty text stays as it is: sealing it would hide nothing, and `empty` searches read it). */
export function sealText(secrets: SecretBox, projectId: string, fieldId: string, text: string): string {
  return text === '' ? text : secrets.seal(text, fieldValueContext(projectId, fieldId));
}

/** The blind index a value of a field is stored with: the sealing key's (searches also try the other keys'). */
export function blindIndex(secrets: SecretBox, fieldId: string, plain: string): string {
  return secrets.blindIndexes(plain, fieldIndexContext(fieldId))[0] as string;
}

/** A value of a sensitive field as stored: each text sealed, and the blind indexes (sealing key) as its search text. */
export function sealValue(secrets: SecretBox, projectId: string, v: FieldValue): StoredValue {
  const blind = (text: string) => blindIndex(secrets, v.fieldId, text);
  return {
    ...v,
    value: v.value === null ? null : sealText(secrets, projectId, v.fieldId, v.value),
    values: v.values === null ? null : v.values.map((x) => sealText(secrets, projectId, v.fieldId, x)),
    index: { value: v.value === null ? null : blind(v.value), items: (v.values ?? []).map(blind) },
  };
}

/** How many opened values each secret box keeps, and the longest text it keeps (account numbers, not essays). */
const OPENED_KEPT = 2_000;
const OPENED_MAX_CHARS = 256;

const openedBySecrets = new WeakMap<SecretBox, Map<string, string>>();

/**
 * A sealed text opened, from the texts this box opened lately when it is one of them: opening costs two AES-GCM
 * decryptions (the value's data key, then the value), about a tenth of a form data read. The entry is keyed by the
 * sealed text and its context together, so it answers exactly what `open` would; a changed or moved text misses and
 * is opened (and refused) as before. Only short texts are kept, at most OPENED_KEPT, oldest dropped first.
 */
function openKept(secrets: SecretBox, text: string, context: string): string {
  let kept = openedBySecrets.get(secrets);
  if (!kept) openedBySecrets.set(secrets, (kept = new Map()));
  const key = `${context}\u0000${text}`;
  const hit = kept.get(key);
  if (hit !== undefined) return hit;
  const plain = secrets.open(text, context);
  if (plain.length <= OPENED_MAX_CHARS) {
    if (kept.size >= OPENED_KEPT) kept.delete(kept.keys().next().value as string);
    kept.set(key, plain);
  }
  return plain;
}

function hasSealedText(v: { value: string | null; values: string[] | null }): boolean {
  if (v.value !== null && isSealedText(v.value)) return true;
  if (v.values === null) return false;
  for (const text of v.values) if (isSealedText(text)) return true;
  return false;
}

/** A stored value with its texts opened (a value that is not sealed is returned as it is). */
export function openValue<V extends { fieldId: string; value: string | null; values: string[] | null }>(secrets: SecretBox, projectId: string, v: V): V {
  // Every value of every read passes here (a form's read walks all of its project's values): most are not sealed and
  // are returned as they are, without a copy, a closure or a split of the text.
  if (!hasSealedText(v)) return v;
  const context = fieldValueContext(projectId, v.fieldId);
  const open = (text: string) => openKept(secrets, text, context);
  return { ...v, value: v.value === null ? null : open(v.value), values: v.values === null ? null : v.values.map(open) };
}

async function sealValues(db: Kysely<Database>, secrets: SecretBox, projectId: string, values: FieldValue[]): Promise<FieldValue[]> {
  const sensitive = await sensitiveFieldIds(db, values.map((v) => v.fieldId));
  return sensitive.size === 0 ? values : values.map((v) => (sensitive.has(v.fieldId) ? sealValue(secrets, projectId, v) : v));
}

// A condition on a sensitive field compares blind indexes: every configured key's, so that values indexed before a
// key rotation (and not yet re-indexed by `apas secrets rotate`) are found as well.
function blindConditions(secrets: SecretBox, fields: FieldCondition[]): FieldCondition[] {
  return fields.map((c) => (c.sealed && (c.op === 'eq' || c.op === 'ne') ? { ...c, blind: secrets.blindIndexes(c.content ?? '', fieldIndexContext(c.fieldId)) } : c));
}

type StoredProjectRepository = ReturnType<typeof projectRepository>;

type Reads = Pick<ProjectReader, 'getDraft' | 'draftsOfProjects' | 'getValues' | 'getAllValues' | 'valuesOfProjects' | 'searchProjects' | 'workQueuePage' | 'countWorkQueue' | 'readFormData'>;

function sealedReads(reader: Reads, secrets: SecretBox): Reads {
  return {
    getDraft: async (projectId, formId) => (await reader.getDraft(projectId, formId)).map((v) => openValue(secrets, projectId, v)),
    draftsOfProjects: async (projectIds, formIds) => (await reader.draftsOfProjects(projectIds, formIds))
      .map((d) => ({ ...d, value: openValue(secrets, d.projectId, d.value) })),
    getValues: async (projectId, fieldIds) => (await reader.getValues(projectId, fieldIds)).map((v) => openValue(secrets, projectId, v)),
    getAllValues: async (projectId) => (await reader.getAllValues(projectId)).map((v) => openValue(secrets, projectId, v)),
    valuesOfProjects: async (projectIds, fieldIds) => (await reader.valuesOfProjects(projectIds, fieldIds)).map((v) => openValue(secrets, v.projectId, v)),
    searchProjects: (s) => reader.searchProjects({ ...s, fields: blindConditions(secrets, s.fields) }),
    workQueuePage: (q) => reader.workQueuePage({ ...q, fields: blindConditions(secrets, q.fields) }),
    countWorkQueue: (q, bound) => reader.countWorkQueue({ ...q, fields: blindConditions(secrets, q.fields) }, bound),
    // GetProjectData's one statement: its values and draft changes opened as getValues and getDraft open theirs.
    readFormData: async (request) => (await reader.readFormData(request)).map((r) => ({
      ...r,
      values: r.values.map((v) => openValue(secrets, r.project.id, v)),
      changes: r.changes === null ? null : r.changes.map((v) => openValue(secrets, r.project.id, v)),
    })),
  };
}

/** The project reads with sensitive values opened and searched by blind index. */
export function sealedProjectReader(reader: ProjectReader, secrets: SecretBox): ProjectReader {
  return { ...reader, ...sealedReads(reader, secrets) };
}

/**
 * The project reads and writes with sensitive values sealed when stored and opened when read (kysely-store.ts adds
 * `resealFields`, reseal-field-values.ts, which seals with these functions).
 */
export function sealedProjectRepository(repo: StoredProjectRepository, db: Kysely<Database>, secrets: SecretBox): StoredProjectRepository {
  return {
    ...repo,
    ...sealedReads(repo, secrets),
    upsertDraft: async (projectId, formId, values) => repo.upsertDraft(projectId, formId, await sealValues(db, secrets, projectId, values)),
    upsertValues: async (projectId, formId, values) => repo.upsertValues(projectId, formId, await sealValues(db, secrets, projectId, values)),
  };
}
