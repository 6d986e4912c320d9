import type { RenderedDocument } from '../../model/document.ts';
import type { Form, Program, ProgramCalendar, ProgramModel } from '../../model/model.ts';
import type { Clock } from '../../model/clock.ts';
import { localDateOf } from '../../model/local-date.ts';
import type { StoreReader } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { closedDays, type ClosedDay, yearAfter } from '../calendar/closed-days.ts';
import { DEFAULT_CALENDAR } from '../calendar/working-days.ts';
import { loadDocumentFonts } from '../documents/document-fonts.ts';
import { previewDocument } from '../documents/document-preview.ts';
import { previewTime } from '../documents/preview-time.ts';
import type { RenderedMail } from '../mail-template.ts';
import { programFileOf } from '../programs/program-export.ts';
import type { ProgramFile } from '../programs/program-file.ts';
import type { ProgramChecker } from '../programs/program-parts.ts';
import { type FormAttachmentView, type FormFieldView, formTable } from '../projects/application-service.ts';
import { previewMail } from '../workflow/mail-preview.ts';
import { type ConsoleScope, requireAdministeredProgram } from './console-scope.ts';

/** What a program's previews list: its forms, mails and documents by name, and whether it has a calendar of its own. */
export interface PreviewIndex {
  program: Program;
  forms: { formId: string; name: string }[];
  mails: { key: string; label: string }[];
  documents: { customId: string; name: string }[];
}

/** A form as an applicant sees it, without a project: its fields (nothing filled in) and its attachments. */
export interface FormPreview { program: Program; form: { formId: string; name: string }; fields: FormFieldView[]; attachments: FormAttachmentView[] }

/** One mail of a program with sample values: which one, which template it came from, and the mail. */
export interface MailPreviewItem { key: string; label: string; source: string; mail: RenderedMail }

/** The program's calendar and its days off in the coming twelve months. */
export interface CalendarPreview { program: Program; calendar: ProgramCalendar; own: boolean; from: string; to: string; days: ClosedDay[] }

/** What the previews need: program reads, the time, the import's checkers and the caller's console scope. */
export interface ProgramPreviewDeps {
  store: Pick<StoreReader, 'programs'>; clock: Clock; checkers: readonly ProgramChecker[];
  scope(caller: Caller): Promise<ConsoleScope>;
}

/**
 * The console's previews of a program's live version, as its applicants will see it: each form (no project, nothing
 * filled in), each mail with sample values (as `program preview-mail`), each document over the sample project (as
 * `program preview-document`), and the calendar's holidays and closures. Only for the programs the caller administers.
 */
export class ProgramPreviewService {
  readonly #deps: ProgramPreviewDeps;
  constructor(deps: ProgramPreviewDeps) {
    this.#deps = deps;
  }

  /** The forms, mails and documents of a program the caller administers. */
  async index(caller: Caller, programRef: string): Promise<PreviewIndex> {
    const { program, model, file } = await this.#load(caller, programRef);
    return {
      program,
      forms: [...model.forms].sort((a, b) => a.position - b.position).map((f) => ({ formId: f.id, name: f.name })),
      mails: mailKeys(file),
      documents: (file.documents ?? []).map((d) => ({ customId: d.customId, name: d.name })),
    };
  }

  /** A form of the program as its applicants see it, every field shown (rules decide over answers a preview has none of). */
  async form(caller: Caller, programRef: string, formRef: string): Promise<FormPreview> {
    const { program, model } = await this.#load(caller, programRef);
    const form = model.forms.find((f) => f.id === formRef || f.customId === formRef);
    if (!form) throw new ApiError('NOT_FOUND', `Program ${program.customId} has no form ${formRef}.`);
    return { program, form: { formId: form.id, name: form.name }, fields: fieldsOf(model, form), attachments: attachmentsOf(form) };
  }

  /** Every mail of the program (each status's status-changed mail, each named template) with sample values. */
  async mails(caller: Caller, programRef: string): Promise<{ program: Program; mails: MailPreviewItem[] }> {
    const { program, file } = await this.#load(caller, programRef);
    const mails = mailKeys(file).map((m) => {
      const preview = previewMail(file, m.choice, this.#deps.checkers, program.customId);
      return { key: m.key, label: m.label, source: preview.source, mail: preview.mail };
    });
    return { program, mails };
  }

  /** A document of the program over the sample project, as a PDF, at the quarter hour's time (the same bytes on every request: previewTime). */
  async document(caller: Caller, programRef: string, documentRef: string): Promise<RenderedDocument & { fileName: string }> {
    const { program, file } = await this.#load(caller, programRef);
    const at = previewTime(this.#deps.clock.now());
    const rendered = await previewDocument(file, documentRef, this.#deps.checkers, loadDocumentFonts(), at, undefined, program.customId);
    return { ...rendered, fileName: `${program.customId}-${documentRef}-sample.pdf` };
  }

  /** The program's calendar (the default one when it has none) and its holidays and closures from today for a year. */
  async calendar(caller: Caller, programRef: string): Promise<CalendarPreview> {
    const { program, model } = await this.#load(caller, programRef);
    const calendar = model.program.calendar ?? DEFAULT_CALENDAR;
    const from = localDateOf(this.#deps.clock.now(), calendar.timeZone);
    const to = yearAfter(from);
    return { program, calendar, own: Boolean(model.program.calendar), from, to, days: closedDays(calendar, from, to) };
  }

  async #load(caller: Caller, programRef: string): Promise<{ program: Program; model: ProgramModel; file: ProgramFile }> {
    const program = requireAdministeredProgram(await this.#deps.scope(caller), programRef);
    const model = await this.#deps.store.programs.loadProgramModel(program);
    return { program, model, file: programFileOf(model) };
  }
}

type MailChoice = { status: string } | { template: string };

/** The mails of a program file: one per status (its status-changed mail), then each named template. */
function mailKeys(file: ProgramFile): { key: string; label: string; choice: MailChoice }[] {
  return [
    ...file.statuses.map((s) => {
      const ref = s.customId ?? s.name;
      return { key: `status-${ref}`, label: `Moved to "${s.name}"`, choice: { status: ref } };
    }),
    ...(file.mailTemplates ?? []).map((t) => ({ key: `template-${t.customId}`, label: `Template "${t.customId}"`, choice: { template: t.customId } })),
  ];
}

function fieldsOf(model: ProgramModel, form: Form): FormFieldView[] {
  return [...form.fields].sort((a, b) => a.position - b.position).flatMap((placed): FormFieldView[] => {
    const f = model.fields.find((x) => x.id === placed.fieldId);
    if (!f) return [];
    const list = model.lists.find((l) => l.id === f.listId);
    return [{
      fieldId: f.id, customId: f.customId, name: f.name, type: f.type, multiValue: f.multiValue, sensitive: f.sensitive,
      required: !f.formula && placed.required, readOnly: Boolean(f.formula), calculated: Boolean(f.formula),
      maxLength: f.maxLength, min: f.min, max: f.max, group: f.group, choices: list ? (list.rows ? [] : list.choices) : null, value: null, values: null,
      ...(f.type === 'table' ? { table: formTable(model, f), rows: [] } : {}),
      // A long list is previewed as its search box, without its rows.
      ...(list?.rows ? { longList: { listId: list.id, name: list.name, rows: list.choices.length, query: null, more: false } } : {}),
    }];
  });
}

function attachmentsOf(form: Form): FormAttachmentView[] {
  return [...form.attachments].sort((a, b) => a.position - b.position).map((a) => ({
    attachmentId: a.id, customId: a.customId, name: a.name, required: a.required, allowedTypes: a.allowedTypes,
    maxSizeBytes: a.maxSizeBytes, file: null, document: a.document ?? null,
  }));
}
