import { planRelations, relatedFieldsOf } from './program-relations.ts';
import { createHash } from 'node:crypto';
import type { Store, StoreWriter } from '../../store/store.ts';
import type { ProgramVersion } from '../../model/program-version.ts';
import { formatProgramFile, programFileOf } from './program-export.ts';
import type { ProgramDefinitionRows } from '../../model/records.ts';
import { ApiError } from '../api-error.ts';
import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { AttachmentDefinition, Form, Program, Status } from '../../model/model.ts';
import type { Automation } from '../../model/automation.ts';
import type { DocumentTemplate } from '../../model/document.ts';
import { describeChange, diffDefinition, type StoredDefinition } from './program-changes.ts';
import type { DefinitionChange, ProgramChecker, ResolvedProgram, SavedProgram } from './program-parts.ts';
import { labelOf, resolveProgramFile } from './program-check.ts';
import { invalidFile, type ProgramFile } from './program-file.ts';
import { planRoles, refuseRemovingGrantedRoles } from './program-roles.ts';
import { tableSpecOf } from './program-table.ts';
import { planAutomations } from '../automations/check-automations.ts';
import { reasonsRequiredOf, statusMessagesOfFile } from '../workflow/status-reasons.ts';
import { planDeadlines } from './program-deadlines.ts';
import { atLine } from './program-lines.ts';
import { type DocumentAttachmentSpec, documentAttachmentsOf, planDocuments } from './program-documents.ts';
import { planConnections, type ResolvedConnection } from './program-connections.ts';

/** What an import needs: the store, the time, a source of new ids, and the checks the capabilities add (src/domain/wiring). */
export interface ProgramImportDeps { store: Store; clock: Clock; ids: IdGenerator; checkers: readonly ProgramChecker[] }

/** The file an import publishes, kept with the version it records: its text, its name, and who publishes it, in words. */
export interface Publication { text: string; fileName: string; publisher: string }

/** Who publishes by default: the operator at the command line (`program import`, the demo seed). */
export const OPERATOR_PUBLISHER = 'operator (command line)';

/**
 * Who imports and how; `dryRun` reports the changes without writing them. `publication` is the file kept with the
 * version an import records (without it, the file `program export` would write); `expectedVersion`, when given, refuses
 * (CONFLICT) an import of a program whose live version is another one: someone published since the file was reviewed.
 */
export interface ImportOptions {
  actorId?: string | null; requestId?: string | null; dryRun?: boolean; source?: string;
  publication?: Publication; expectedVersion?: number;
  /** Imports into a test copy of this live program: creates it marked so, and refuses a program of the file's customId that is not one. */
  testOf?: string;
  /** More writes in the import's transaction once the definition is saved (a new test copy's grants). */
  alsoIn?: (tx: StoreWriter, report: ImportReport) => Promise<void>;
  /**
   * The bound of this import's one transaction in ms, instead of the 30 s every change has: the operator's
   * `program import --long-transaction`, for a program too big to recount its access groups in 30 s.
   */
  maxTransactionMs?: number;
}

/** The outcome of an import: what changed (nothing when `changed` is false), the live version before it and the one it recorded. */
export interface ImportReport {
  agencyId: string; programId: string; customId: string;
  programCreated: boolean; changed: boolean; dryRun: boolean; changes: DefinitionChange[];
  /** The program's newest recorded version before the import (0 for none). */
  liveVersion: number;
  /** The version the import recorded; null when it wrote nothing. */
  version: number | null;
}

interface Named { id: string; customId: string | null; name: string }

type Spec = { customId: string | null; name: string };

type Matcher = (specs: Spec[], stored: Named[]) => string[];

interface PlanContext { agencyId: string; programId: string; now: number; ids: IdGenerator }

/**
 * Creates or updates the program a file describes, keeping the generated ids of parts matched by customId
 * (else by name), retired ones included. Writes nothing, and reports no changes, when the file matches.
 */
export async function importProgram(deps: ProgramImportDeps, agencyRef: string, file: ProgramFile, options: ImportOptions = {}): Promise<ImportReport> {
  const resolved = resolveProgramFile(file, deps.checkers, options.source, await relatedFieldsOf(deps.store, agencyRef, file));
  // What the checkers were handed once the definition was saved: a rollback after it is theirs to explain.
  let saved: SavedProgram | null = null;
  return deps.store.transaction(async (tx) => {
    const agency = await tx.accounts.findAgency(agencyRef);
    if (!agency) throw new ApiError('NOT_FOUND', `agency "${agencyRef}" not found`);
    const program = (await tx.programs.listPrograms(agency.id)).find((p) => p.customId === file.customId) ?? null;
    // Publications of one program take turns, so the version read next is the newest and the definition the current one.
    if (program && !options.dryRun) await tx.programs.lockProgram(program.id);
    const live = program ? await tx.programs.latestProgramVersion(program.id) : null;
    refuseStaleReview(file.customId, live, options.expectedVersion);
    if (options.testOf !== undefined && program && program.testOf !== options.testOf) {
      throw new ApiError('CONFLICT', `program ${file.customId} exists and is not a test copy of program ${options.testOf}`);
    }
    const stored = program ? await loadStored(tx, program) : null;
    const now = deps.clock.now();
    const ctx: PlanContext = { agencyId: agency.id, programId: program?.id ?? deps.ids.next(), now, ids: deps.ids };
    const rows = planRows(resolved, stored, ctx, options.source);
    if (options.testOf !== undefined) rows.program.testOf = options.testOf;
    const changes = diffDefinition(stored, rows);
    const report: ImportReport = {
      agencyId: agency.id, programId: ctx.programId, customId: file.customId, programCreated: stored === null,
      changed: changes.length > 0, dryRun: options.dryRun ?? false, changes, liveVersion: live?.version ?? 0, version: null,
    };
    if (!report.changed) return report;
    await refuseRetiringBusyStatuses(tx, stored, rows);
    await refuseRemovingGrantedRoles(tx, ctx.programId, stored?.rows.program.roles ?? [], rows.program.roles ?? []);
    if (report.dryRun) return report;
    await tx.programs.saveProgramDefinition(rows);
    // Values follow their field's mark in the same transaction: sealed once it is sensitive, in clear once it is not.
    const marked = new Map(stored?.rows.fields.map((f) => [f.id, f.sensitive]) ?? []);
    const flipped = rows.fields.filter((f) => marked.has(f.id) && marked.get(f.id) !== f.sensitive).map((f) => f.id);
    if (flipped.length > 0) await tx.projects.resealFields(flipped);
    saved = { before: stored?.rows.program ?? null, after: rows.program, now, ids: deps.ids, actorId: options.actorId ?? null, requestId: options.requestId ?? null };
    for (const c of deps.checkers) await c.saved?.(tx, saved);
    await options.alsoIn?.(tx, report);
    await tx.audit.write({
      action: 'program.import', actorId: options.actorId ?? null, agencyId: agency.id, programId: ctx.programId,
      requestId: options.requestId ?? null, detail: { customId: file.customId, changes: changes.map(describeChange) },
    }, now, deps.ids.next());
    report.version = await recordVersion(tx, deps.ids, rows.program.id, report, options, now);
    return report;
  }, { maxMs: options.maxTransactionMs }).catch(async (error: unknown) => {
    let answer = error;
    if (saved !== null) for (const c of deps.checkers) answer = c.rolledBack ? await c.rolledBack(deps.store, answer, saved, options.maxTransactionMs) : answer;
    throw answer;
  });
}

/** Throws CONFLICT when the program's live version is not the one the file was reviewed against. */
function refuseStaleReview(customId: string, live: ProgramVersion | null, expected: number | undefined): void {
  if (expected === undefined || (live?.version ?? 0) === expected) return;
  const by = live ? `: version ${live.version} was published by ${live.publisher} at ${new Date(live.publishedAt).toISOString()}` : '';
  throw new ApiError('CONFLICT', `Program ${customId} changed since this file was reviewed against version ${expected}${by}. Upload the file again to review it against the live version.`);
}

/** Records the import as the program's next version, with the file it was published from. */
async function recordVersion(tx: StoreWriter, ids: IdGenerator, programId: string, report: ImportReport, options: ImportOptions, now: number): Promise<number> {
  let text = options.publication?.text;
  if (text === undefined) {
    const saved = await tx.programs.findProgram(programId);
    text = formatProgramFile(programFileOf(await tx.programs.loadProgramModel(saved!)), 'yaml');
  }
  const version = report.liveVersion + 1;
  await tx.programs.insertProgramVersion(ids.next(), {
    programId, version, publishedAt: now, publishedBy: options.actorId ?? null, publisher: options.publication?.publisher ?? OPERATOR_PUBLISHER,
    fileName: options.publication?.fileName ?? `${report.customId}.yaml`, sha256: sha256Of(text), content: text,
    changes: report.changes.map(describeChange),
  });
  return version;
}

/** The SHA-256 of a text (UTF-8), in hex: how a program file is named in its version and in the console's publish step. */
export function sha256Of(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The change report as text: a headline, then one indented line per change. */
export function formatImportReport(report: ImportReport): string {
  const head = `Program ${report.customId} (id ${report.programId})`;
  if (!report.changed) return `${head}: no changes.`;
  const verb = report.dryRun ? 'would be' : 'was';
  const what = report.programCreated ? 'created' : 'updated';
  return [`${head} ${verb} ${what}:`, ...report.changes.map((c) => `  ${describeChange(c)}`)].join('\n');
}

// The definition holds retired rows too (so that a part coming back keeps its id); `retired` names them.
async function loadStored(tx: StoreWriter, program: Program): Promise<StoredDefinition> {
  const rows = await tx.programs.loadProgramDefinition(program.id);
  if (!rows) throw new Error(`program ${program.id} vanished during import`);
  const retired = new Set(rows.retired);
  const ids = [
    ...rows.lists.map((r) => r.id), ...rows.statuses.map((r) => r.id), ...rows.fields.map((r) => r.id),
    ...rows.forms.flatMap((f) => [f.id, ...f.attachments.map((a) => a.id)]),
  ];
  return { rows, active: new Set(ids.filter((id) => !retired.has(id))) };
}

async function refuseRetiringBusyStatuses(tx: StoreWriter, stored: StoredDefinition | null, rows: ProgramDefinitionRows): Promise<void> {
  if (!stored) return;
  const kept = new Set(rows.statuses.map((s) => s.id));
  const busy: string[] = [];
  for (const s of stored.rows.statuses) {
    if (!stored.active.has(s.id) || kept.has(s.id)) continue;
    const count = await tx.projects.countProjectsInStatuses([s.id]);
    if (count > 0) busy.push(`"${labelOf(s)}" (${count} project${count === 1 ? '' : 's'})`);
  }
  if (busy.length === 0) return;
  const [noun, pronoun] = busy.length === 1 ? ['status', 'it'] : ['statuses', 'them'];
  throw new ApiError('INVALID_REQUEST',
    `cannot retire ${noun} ${busy.join(', ')}: projects are in ${pronoun}; keep ${pronoun} in the file or move those projects first`);
}

/** The rows to write: matched parts keep their ids, new parts get fresh ones. */
function planRows(resolved: ResolvedProgram, before: StoredDefinition | null, ctx: PlanContext, source?: string): ProgramDefinitionRows {
  const { file } = resolved;
  const stored = before?.rows ?? null;
  const match: Matcher = (specs, rows) => assignIds(specs, rows, before?.active ?? new Set(), ctx.ids);
  const listIds = match(file.customLists, stored?.lists ?? []);
  const statusIds = match(file.statuses, stored?.statuses ?? []);
  const fieldIds = match(file.fields, stored?.fields ?? []);
  const formIds = match(file.forms, stored?.forms ?? []);
  const program = {
    id: ctx.programId, agencyId: ctx.agencyId, customId: file.customId, name: file.name, numberPrefix: file.numberPrefix,
    numberDigits: file.numberDigits, updatedAt: ctx.now, createdAt: stored?.program.createdAt ?? ctx.now,
    notifications: file.notifications, selfSignUp: file.selfService.signUp,
    roles: planRoles(file, resolved.roles, statusIds),
    automations: [] as Automation[],
    mailTemplates: file.mailTemplates,
    calendar: file.calendar ?? null,
    deadlines: planDeadlines(file, resolved.deadlines, fieldIds),
    documents: [] as DocumentTemplate[],
    relations: planRelations(resolved, fieldIds),

    connections: planConnections(file.connections ?? [], (resolved.parts.connections as ResolvedConnection[] | undefined) ?? [], fieldIds),

    accessGroups: file.accessGroups ?? [],
  };
  const lists = file.customLists.map((l, i) => ({ id: listIds[i]!, customId: l.customId, name: l.name, choices: l.choices, ...(l.rows ? { rows: l.rows } : {}) }));
  const statuses = planStatuses(resolved, stored?.statuses ?? [], statusIds, source);
  // Only table fields carry the key, as the store loads them (so that comparing before and after sees no change).
  const tableOf = (i: number) => {
    const table = tableSpecOf(file.fields[i]!.table, (c) => {
      const index = resolved.tableLists[i]?.[c];
      return index === null || index === undefined ? null : listIds[index]!;
    });
    return table === null ? {} : { table };
  };
  const fields = file.fields.map((f, i) => {
    const list = resolved.fieldLists[i];
    return {
      id: fieldIds[i]!, customId: f.customId, name: f.name, type: f.type, multiValue: f.multiValue, sensitive: f.sensitive,
      listId: list === null || list === undefined ? null : listIds[list]!, group: f.group, maxLength: f.maxLength,
      min: f.min, max: f.max, position: i, formula: f.formula,
      ...tableOf(i),
      ...(f.summary ? { summary: true } : {}),
    };
  });
  const generated = documentAttachmentsOf(resolved);
  const forms = file.forms.map((f, i): Form => {
    const r = resolved.forms[i]!;
    const prior = stored?.forms.find((x) => x.id === formIds[i]);
    return {
      id: formIds[i]!, customId: f.customId, name: f.name, position: i,
      leadsToStatusId: r.leadsTo === null ? null : statusIds[r.leadsTo]!,
      availableIn: r.availableIn.map((s) => statusIds[s]!),
      roles: f.roles,
      fields: r.fields.map((ff, position) => ({ fieldId: fieldIds[ff.field]!, required: ff.required, position, rules: ff.rules })),
      attachments: planAttachments([...f.attachments, ...generated[i]!], prior?.attachments ?? [], formIds[i]!, match),
    };
  });
  program.documents = planDocuments(resolved, fieldIds, (form, customId) => forms[form]!.attachments.find((a) => a.customId === customId)!.id);
  program.automations = planAutomations(resolved, { statusIds, fieldIds, formIds, attachmentIds: forms.map((f) => f.attachments.map((a) => a.id)) });
  return { program, lists, statuses, fields, forms };
}

function planStatuses(resolved: ResolvedProgram, stored: Status[], ids: string[], source?: string): Status[] {
  const taken = new Set(stored.map((s) => s.publicId));
  for (const s of resolved.file.statuses) if (s.publicId !== null) taken.add(s.publicId);
  const statuses = resolved.file.statuses.map((s, i): Status => {
    const prior = stored.find((x) => x.id === ids[i]);
    const publicId = s.publicId ?? prior?.publicId ?? newPublicId(labelOf(s), taken);
    return {
      id: ids[i]!, customId: s.customId, publicId, name: s.name, isInitial: s.initial, position: i,
      next: resolved.statusNext[i]!.map((n) => ids[n]!),
      ...statusMessagesOfFile(s, reasonsRequiredOf(resolved)[i]!, ids),
      ...(s.withdrawal ? { withdrawal: true } : {}),
    };
  });
  const clash = statuses.findIndex((s, i) => statuses.findIndex((x) => x.publicId === s.publicId) !== i);
  if (clash >= 0) {
    const s = statuses[clash]!;
    throw invalidFile(source ?? 'program file', [`status "${labelOf(s)}"${atLine(resolved.file, ['statuses', clash, 'publicId'])}: publicId "${s.publicId}" is already used by another status`]);
  }
  return statuses;
}

/** A readable public id from a status's customId or name, made unique among the program's statuses. */
function newPublicId(label: string, taken: Set<string>): string {
  const base = label.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 56) || 'status';
  let candidate = base;
  for (let n = 2; taken.has(candidate); n++) candidate = `${base}-${n}`;
  taken.add(candidate);
  return candidate;
}

// A document's attachment carries the document's customId (people cannot upload to it); others carry no such key.
function planAttachments(
  specs: (ProgramFile['forms'][number]['attachments'][number] | DocumentAttachmentSpec)[], stored: AttachmentDefinition[], formId: string, match: Matcher,
): AttachmentDefinition[] {
  const attachmentIds = match(specs, stored);
  return specs.map((a, position) => ({
    id: attachmentIds[position]!, formId, customId: a.customId, name: a.name, allowedTypes: a.allowedTypes,
    maxSizeBytes: a.maxSizeBytes, required: a.required, position,
    ...('document' in a ? { document: a.document } : {}),
  }));
}

/**
 * Pairs each part of the file with a stored row: first every customId match, then name matches among the rest,
 * preferring active rows; unmatched parts get a new id. Retired rows can match, which restores them.
 */
function assignIds(specs: Spec[], stored: Named[], active: Set<string>, ids: IdGenerator): string[] {
  const claimed = new Set<string>();
  const result: (string | null)[] = specs.map(() => null);
  const candidates = [...stored].sort((a, b) => Number(!active.has(a.id)) - Number(!active.has(b.id)));
  const pick = (match: (row: Named) => boolean) => {
    const row = candidates.find((r) => !claimed.has(r.id) && match(r));
    if (row) claimed.add(row.id);
    return row?.id ?? null;
  };
  specs.forEach((s, i) => {
    if (s.customId !== null) result[i] = pick((r) => r.customId === s.customId);
  });
  specs.forEach((s, i) => {
    if (result[i] === null) result[i] = pick((r) => r.name === s.name);
  });
  return result.map((id) => id ?? ids.next());
}
