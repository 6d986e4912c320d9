import type { DocumentTemplate, RenderedDocument } from '../../model/document.ts';
import type { DataField, FieldValue, ProgramModel } from '../../model/model.ts';
import type { StoreReader } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import { resolveProgramFile } from '../programs/program-check.ts';
import type { ProgramFile } from '../programs/program-file.ts';
import type { ProgramChecker } from '../programs/program-parts.ts';
import { formatProjectNumber } from '../projects/submit-service.ts';
import type { DocumentSpec } from '../programs/document-file.ts';
import { withVersion } from '../programs/program-documents.ts';
import { renderDocument } from './document-renderer.ts';
import type { DocumentFonts } from './document-fonts.ts';
import { localDateOf } from '../../model/local-date.ts';

/** A real project to preview a document over: the stored program with the file's customId, and the project's number or id. */
export interface PreviewProject { store: StoreReader; project: string }

/**
 * Renders a document of a program file, after the checks an import makes: over a sample project made from the file
 * (every field filled in with a sample of its type, deadlines due in ten days) or, given `real`, over a stored
 * project of the program the file describes, as it is now. Nothing is written.
 */
export async function previewDocument(
  file: ProgramFile, documentRef: string, checkers: readonly ProgramChecker[], fonts: DocumentFonts, now: number,
  real?: PreviewProject, source = 'program file',
): Promise<RenderedDocument> {
  resolveProgramFile(file, checkers, source);
  const spec = (file.documents ?? []).find((d) => d.customId === documentRef);
  if (!spec) throw new ApiError('NOT_FOUND', `Program ${file.customId} has no document "${documentRef}"; its documents are ${(file.documents ?? []).map((d) => d.customId).join(', ') || 'none'}.`);
  if (real) return previewOver(real, file, spec, fonts, now);
  const model = sampleModel(file);
  const template = templateOf(spec, model);
  const timeZone = file.calendar?.timeZone ?? 'UTC';
  const status = model.statuses.find((s) => !s.isInitial) ?? model.statuses[0]!;
  const today = localDateOf(now, timeZone);
  return renderDocument({
    model, template, now, timeZone,
    project: { number: formatProjectNumber(model.program, 42), statusId: status.id, statusAt: now, createdAt: now },
    history: [{ id: 'H', projectId: 'P', statusId: status.id, changedAt: now, changedBy: '', reportAs: status.name, reasonId: status.reasons?.[0]?.customId ?? null, message: 'A message from the reviewer.' }],
    values: model.fields.map((f) => sampleValue(model, f, today)),
    deadlines: (file.deadlines ?? []).map((d) => ({ deadlineId: d.customId, dueDate: localDateOf(now + 10 * 86_400_000, timeZone), startedAt: now })),
    owner: { name: 'Sample Applicant', email: 'applicant@example.org' },
  }, fonts);
}

async function previewOver(real: PreviewProject, file: ProgramFile, spec: DocumentSpec, fonts: DocumentFonts, now: number): Promise<RenderedDocument> {
  const { store } = real;
  const program = await store.programs.findProgram(file.customId);
  if (!program) throw new ApiError('NOT_FOUND', `program "${file.customId}" is not in the database; import the file first`);
  const model = await store.programs.loadProgramModel(program);
  const project = (await store.projects.findProjectsByNumbers(program.id, [real.project]))[0] ?? (await store.projects.getProject(program.id, real.project));
  if (!project) throw new ApiError('NOT_FOUND', `program ${file.customId} has no project "${real.project}"`);
  const [values, history, deadlines, owner] = await Promise.all([
    store.projects.getValues(project.id, model.fields.map((f) => f.id)), store.projects.getHistory(project.id),
    store.deadlines.listProjectDeadlines(project.id), store.accounts.findUserById(project.ownerId),
  ]);
  return renderDocument({
    model, template: templateOf(spec, model), project, history, values, deadlines, now,
    owner: owner ? { name: owner.name, email: owner.email } : null, timeZone: model.program.calendar?.timeZone ?? 'UTC',
  }, fonts);
}

// The file's template over a model: its sensitive fields by that model's ids (signers do not show in the document).
function templateOf(d: DocumentSpec, model: ProgramModel): DocumentTemplate {
  const idOf = (ref: string) => (model.fields.find((f) => f.customId === ref) ?? model.fields.find((f) => f.name === ref))?.id ?? ref;
  return withVersion({
    customId: d.customId, name: d.name, title: d.title, language: d.language, body: d.body, header: d.header, footer: d.footer,
    visibleToApplicant: d.visibleToApplicant, attachmentId: 'PREVIEW', signers: [], order: d.order, disclosure: d.disclosure,
    sensitiveFields: d.sensitiveFields.map(idOf), logo: d.logo,
  });
}

/** The parts of a program file a document reads, as a model with ids made from positions. */
function sampleModel(file: ProgramFile): ProgramModel {
  const listId = (ref: string | null) => {
    const i = file.customLists.findIndex((l) => l.customId === ref || l.name === ref);
    return ref === null || i < 0 ? null : `L${i}`;
  };
  return {
    program: {
      id: file.customId, agencyId: 'SAMPLE', customId: file.customId, name: file.name, numberPrefix: file.numberPrefix,
      numberDigits: file.numberDigits, updatedAt: 0, calendar: file.calendar ?? null, deadlines: file.deadlines ?? [],
    },
    statuses: file.statuses.map((s, i) => ({ id: `S${i}`, customId: s.customId, publicId: `s${i}`, name: s.name, isInitial: s.initial, position: i, next: [], reasons: s.reasons })),
    forms: [],
    fields: file.fields.map((f, i): DataField => ({
      id: `F${i}`, customId: f.customId, name: f.name, type: f.type, multiValue: f.multiValue, sensitive: f.sensitive, listId: listId(f.list),
      group: f.group, maxLength: f.maxLength, min: f.min, max: f.max, position: i, formula: f.formula,
      table: f.table ? { ...f.table, columns: f.table.columns.map((c) => ({ ...c, listId: listId(c.list) })) } : null,
    })),
    lists: file.customLists.map((l, i) => ({ id: `L${i}`, customId: l.customId, name: l.name, choices: l.choices })),
    retired: { statuses: [], fields: [] },
  };
}

function sampleValue(model: ProgramModel, f: DataField, today: string): FieldValue {
  const one = (type: string, listId: string | null, name: string): string => {
    if (type === 'number') return '12.5';
    if (type === 'integer') return '3';
    if (type === 'boolean') return 'true';
    if (type === 'date') return today;
    if (type === 'choice') return model.lists.find((l) => l.id === listId)?.choices[0]?.value ?? '';
    return `[${name}]`;
  };
  const base = { fieldId: f.id, updatedAt: 0, updatedBy: '' };
  if (f.type === 'table') {
    const row = Object.fromEntries((f.table?.columns ?? []).map((c) => [c.customId, one(c.type, c.listId, c.name)]));
    return { ...base, value: JSON.stringify([row, row]), values: null };
  }
  const text = one(f.type, f.listId, f.name);
  return f.multiValue ? { ...base, value: null, values: [text, text] } : { ...base, value: text, values: null };
}
