import { ApiError } from '../api-error.ts';
import type { AttachmentRecord, FieldValue, Form, ProgramModel, Project } from '../../model/model.ts';
import type { StoreReader } from '../../store/store.ts';
import { decideForm, type FormDecision, ruleContextOf } from './form-rules.ts';
import { programRules } from './program-rules.ts';
import { relatedFacts } from './related-state.ts';

/**
 * A form's values before and after a request, and what the rules decide over the values after it; also what was read
 * on the way, for the caller to reuse: the form's draft changes, and the project's active files (read when the form's
 * rules need them or `files` asks for them; empty otherwise).
 */
export interface RuledState {
  before: Map<string, FieldValue>; after: Map<string, FieldValue>; decision: FormDecision;
  /** The submitted values read (of the fields the rules read and of the form's fields), and the form's draft changes. */
  submitted: FieldValue[]; changes: FieldValue[]; files: AttachmentRecord[];
}

/**
 * Reads what a form's rules see and runs them over the state a request leaves: the project's submitted value of every
 * field a rule reads and of every field of the form, overlaid (for the `draft` view) with the form's unsubmitted
 * changes, then with the request's own values. `reading` as for decideForm.
 */
export async function ruledState(
  reader: Pick<StoreReader, 'projects' | 'attachments' | 'envelopes' | 'relations' | 'programs'>, model: ProgramModel, role: string, project: Project, form: Form,
  view: 'draft' | 'submitted', incoming: FieldValue[] = [], opts: { files?: boolean; reading?: boolean } = {},
): Promise<RuledState> {
  const rules = programRules(model);
  const details = rules.formNeedsDetails.get(form.id) ?? false;
  const ids = new Set([...rules.varOf.keys(), ...form.fields.map((f) => f.fieldId)]);
  const [submitted, changes, submissions, files, envelopes, related] = await Promise.all([
    reader.projects.getValues(project.id, [...ids]),
    view === 'draft' ? reader.projects.getDraft(project.id, form.id) : Promise.resolve([]),
    details ? reader.projects.getSubmissions(project.id) : Promise.resolve([]),
    details || opts.files === true ? reader.attachments.listActiveAttachments(project.id) : Promise.resolve([]),
    details ? reader.envelopes.listProjectEnvelopes(project.id) : Promise.resolve([]),
    rules.readsRelated ? relatedFacts(reader, model, project, { values: true }) : Promise.resolve(undefined),
  ]);
  const ctx = { ...ruleContextOf(model, project, role, submissions.map((s) => s.formId), files, envelopes), ...(related ? { related } : {}) };
  const before = new Map(submitted.map((v) => [v.fieldId, v]));
  const onForm = new Set(form.fields.map((f) => f.fieldId));
  for (const v of changes) if (onForm.has(v.fieldId)) before.set(v.fieldId, v);
  const after = new Map(before);
  for (const v of incoming) after.set(v.fieldId, v);
  return { before, after, decision: decideForm(model, form, after, ctx, { reading: opts.reading }), submitted, changes, files };
}

/** What a change's rules decided before it took its lock: at which version of the project, the state or the refusal. */
export interface EarlyRuledState { version: number; outcome: { state: RuledState } | { refusal: ApiError } }

type RuledArgs = Parameters<typeof ruledState>;

/**
 * Reads and runs a form's rules before a change takes its lock, on the project as read then, so that the write lock
 * is not held while they run; the change reuses what they decided (rulesInLock). A refusal is kept to be given
 * inside the lock, after the checks that come first there (idempotency key, If-Match, access); null when the
 * reads fail (the change reads again inside).
 */
export async function rulesBeforeLock(...args: RuledArgs): Promise<EarlyRuledState | null> {
  const version = args[3].version;
  try {
    return { version, outcome: { state: await ruledState(...args) } };
  } catch (error) {
    return error instanceof ApiError ? { version, outcome: { refusal: error } } : null;
  }
}

/**
 * The rules' state inside a change, on the locked project: what rulesBeforeLock decided when the project is still
 * at the version it was read at (every change of a project moves its version, so nothing the rules read has changed),
 * else read and run again here.
 */
export async function rulesInLock(early: EarlyRuledState | null, ...args: RuledArgs): Promise<RuledState> {
  if (early === null || early.version !== args[3].version) return ruledState(...args);
  if ('refusal' in early.outcome) throw early.outcome.refusal;
  return early.outcome.state;
}

/** True when two stored values hold the same (a request that sends a read-only field unchanged changes nothing). */
export function sameValue(a: FieldValue | undefined, b: FieldValue | undefined): boolean {
  const norm = (v: FieldValue | undefined) => JSON.stringify(v ? [v.value === '' ? null : v.value, v.values ?? null] : [null, null]);
  return norm(a) === norm(b);
}

/** The calculated values a write must store: those of the form's calculated fields that differ from what is stored. */
export function calculatedWrites(state: RuledState, now: number, by: string): FieldValue[] {
  const out: FieldValue[] = [];
  for (const [fieldId, value] of state.decision.calculated) {
    const next: FieldValue = { fieldId, value, values: null, updatedAt: now, updatedBy: by };
    if (!sameValue(state.after.get(fieldId), next)) out.push(next);
  }
  return out;
}
