import type { FormAttachmentView, FormFieldView, FormPageView } from '../../domain/projects/application-service.ts';
import { Alert } from '../components/alert.tsx';
import { type RawFormValues, shownKey } from '../../domain/projects/draft-inputs.ts';
import { ErrorSummary, type FormProblem } from '../components/error-summary.tsx';
import { controlId, FieldControl, type Shown } from '../components/field-control.tsx';
import { cellControlId, TableControl, TableView } from '../components/table-control.tsx';
import { postedRows } from '../../domain/projects/table-inputs.ts';
import { FileSummary, formatSize } from '../components/file-summary.tsx';
import { Layout, type PageUser } from '../layout.tsx';
import { acceptedTypesText } from '../file-type-names.ts';
import { filePath, formPagePath, projectPagePath } from '../web-paths.ts';

/** A problem of the page: the field or attachment definition it belongs to (generated id), and what is wrong. */
export interface PageProblem {
  targetId: string; attachment: boolean; message: string;
  /** For a problem of one cell of a table field: its row (from 1) and column customId. */
  row?: number; column?: string;
}

/** What a form page shows besides the form itself. */
export interface FormPageProps {
  view: FormPageView; user: PageUser; csrfToken: string; timeZone: string;
  /** What the user sent, shown instead of the saved values when the page comes back with problems. */
  typed: RawFormValues | null;
  problems: PageProblem[];
  /** The heading of the error summary. */
  problemTitle: string;
  notice: string | null;
  /** The program's forms as the steps of the application, this one current; shown when there are two or more. */
  steps?: FormStep[];
}

/** One form of the application as a step: done (submitted), the one shown, or still to come. */
export interface FormStep { formId: string; name: string; state: 'complete' | 'current' | 'incomplete' }

const STEP_STATE: Record<FormStep['state'], string> = { complete: ' completed', current: '', incomplete: ' not completed' };

/**
 * The design system's step indicator over the application's forms: where this form stands among them. A phone shows
 * only the counter ("2 of 3"), a wider screen each form's name.
 */
function StepIndicator(p: { steps: FormStep[] }) {
  const current = p.steps.findIndex((s) => s.state === 'current');
  if (p.steps.length < 2 || current < 0) return null;
  return (
    <section class="usa-step-indicator" aria-label="Forms of the application">
      <ol class="usa-step-indicator__segments">
        {p.steps.map((s) => (
          <li key={s.formId} class={`usa-step-indicator__segment${s.state === 'incomplete' ? '' : ` usa-step-indicator__segment--${s.state}`}`}
            aria-current={s.state === 'current' ? 'step' : undefined}>
            <span class="usa-step-indicator__segment-label">{s.name}{STEP_STATE[s.state] ? <span class="usa-sr-only">{STEP_STATE[s.state]}</span> : null}</span>
          </li>
        ))}
      </ol>
      <div class="usa-step-indicator__header">
        <p class="usa-step-indicator__heading">
          <span class="usa-step-indicator__heading-counter">
            <span class="usa-sr-only">Form</span> <span class="usa-step-indicator__current-step">{current + 1}</span>{' '}
            <span class="usa-step-indicator__total-steps">of {p.steps.length}</span>
          </span>
        </p>
      </div>
    </section>
  );
}

/** The id of an attachment definition's file input: what the error summary links to. */
export function fileInputId(attachmentId: string): string {
  return `attachment-${attachmentId}`;
}

const DATA_FORM = 'form-data';

function shown(f: FormFieldView, typed: RawFormValues | null): Shown {
  if (typed !== null && f.fieldId in typed) {
    const raw = typed[f.fieldId];
    if (typeof raw === 'string') return raw;
    if (Array.isArray(raw)) return raw.filter((x): x is string => typeof x === 'string');
    return null;
  }
  return f.multiValue ? f.values : f.value;
}

/** The values the page shows for a field, sent back in hidden controls so that a save changes only what was touched. */
function shownValues(f: FormFieldView, typed: RawFormValues | null): string[] {
  const key = shownKey(f.fieldId);
  // A page shown again with problems carries what the first page showed, not what was typed.
  if (typed !== null && key in typed) return [typed[key]].flat().filter((x): x is string => typeof x === 'string');
  return f.multiValue ? (f.values ?? []) : f.value === null ? [] : [f.value];
}

function ShownValues(p: { f: FormFieldView; typed: RawFormValues | null }) {
  const values = shownValues(p.f, p.typed);
  const name = shownKey(p.f.fieldId);
  return <>{(values.length === 0 ? [''] : values).map((v, i) => <input key={`${name}-${i}`} type="hidden" name={name} value={v} />)}</>;
}

/**
 * The fields by group, each group once, where its first field stands: a form that places a field of another group
 * between two of one group (the Completion Certificate's Inverter model) shows each heading once.
 */
function groups(fields: FormFieldView[]): { name: string | null; fields: FormFieldView[] }[] {
  const out: { name: string | null; fields: FormFieldView[] }[] = [];
  for (const f of fields) {
    const same = f.group === null ? out[out.length - 1] : out.find((g) => g.name === f.group);
    if (same && same.name === f.group) same.fields.push(f);
    else out.push({ name: f.group, fields: [f] });
  }
  return out;
}

/** What the name of a file input in the form page's post starts with; the attachment definition's id follows. */
export const FILE_FIELD_PREFIX = 'file_';

/** The name of an attachment definition's file input in the form page's post. */
export function fileFieldName(attachmentId: string): string {
  return `${FILE_FIELD_PREFIX}${attachmentId}`;
}

// Each attachment is part of the page's one form: choosing a file and pressing its Upload button (or Save draft, or
// Submit) sends the fields and the files together, so nothing typed is lost to an upload.
function Attachment(p: { a: FormAttachmentView; v: FormPageView; timeZone: string; error: string | null; editable: boolean }) {
  const { a, v } = p;
  const id = fileInputId(a.attachmentId);
  const rules = `${acceptedTypesText(a.allowedTypes)}, at most ${formatSize(a.maxSizeBytes)}.`;
  return (
    <section class={`attachment${p.error ? ' has-error' : ''}`} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{a.name}{a.required ? <span class="usa-hint usa-hint--required"> (required)</span> : null}</h3>
      {a.file ? <FileSummary file={a.file} href={filePath(v.programId, v.projectId, a.attachmentId)} timeZone={p.timeZone} /> : <p>{a.document === null ? 'No file uploaded yet.' : 'Not generated yet.'}</p>}
      {a.document !== null ? <p class="usa-hint">The agency's system makes this document; it cannot be uploaded.</p> : null}
      {p.editable && a.document === null ? (
        <div class="upload">
          <div class={`usa-form-group${p.error ? ' usa-form-group--error' : ''}`}>
            <label class="usa-label" for={id}>{a.file ? `Replace the file of ${a.name}` : `File for ${a.name}`}</label>
            <p class="usa-hint" id={`${id}-hint`}>{rules}</p>
            {p.error ? <p class="usa-error-message" id={`${id}-error`}><span class="usa-sr-only">Error: </span>{p.error}</p> : null}
            <input class="usa-file-input" type="file" id={id} name={fileFieldName(a.attachmentId)} accept={a.allowedTypes.join(',')} aria-invalid={p.error ? true : undefined}
              aria-describedby={[`${id}-hint`, p.error ? `${id}-error` : null].filter(Boolean).join(' ')} />
          </div>
          <button type="submit" class="usa-button usa-button--outline" name="action" value={`upload:${a.attachmentId}`}>Upload {a.name}</button>
        </div>
      ) : null}
    </section>
  );
}

/** A form of a project: its fields (grouped as the program groups them) and its attachments in one form, to save, upload or submit. */
export function FormPage(p: FormPageProps) {
  const v = p.view;
  const editable = v.readOnlyReason === null;
  const fieldError = (id: string) => p.problems.find((x) => !x.attachment && x.targetId === id)?.message ?? null;
  const fileError = (id: string) => p.problems.find((x) => x.attachment && x.targetId === id)?.message ?? null;
  const summary: FormProblem[] = p.problems.map((x) => ({
    message: x.message,
    fieldId: x.attachment ? fileInputId(x.targetId) : x.row !== undefined && x.column !== undefined ? cellControlId(x.targetId, x.row - 1, x.column) : controlId(x.targetId),
  }));
  const control = (f: FormFieldView) => {
    if (!f.table) return <FieldControl key={f.fieldId} f={f} shown={shown(f, p.typed)} error={fieldError(f.fieldId)} />;
    // A page shown again after a refused save shows the rows as posted (with the row its button added or removed).
    const rows = (p.typed !== null ? postedRows(f.fieldId, f.table.columns, p.typed) : null) ?? f.rows ?? [];
    const problems = p.problems.filter((x) => !x.attachment && x.targetId === f.fieldId);
    return <TableControl key={f.fieldId} f={f} rows={rows} problems={problems} />;
  };
  const hasTable = v.fields.some((f) => f.table);
  const project = projectPagePath(v.programId, v.projectId);
  return (
    <Layout title={v.form.name} agencyName={v.agencyName} programName={v.programName} testProgram={v.testProgram} user={p.user} csrfToken={p.csrfToken}>
      <p class="breadcrumb"><a href={project}>{v.projectNumber ?? 'Draft application'}</a> · status <span class="usa-tag">{v.statusName}</span></p>
      <StepIndicator steps={p.steps ?? []} />
      <h1>{v.form.name}</h1>
      <ErrorSummary title={p.problemTitle} problems={summary} />
      {p.notice ? <Alert kind="success" slim>{p.notice}</Alert> : null}
      {editable ? null : <Alert kind="warning" slim>{v.readOnlyReason}</Alert>}
      {editable ? (
        // One form for the fields and the files: any of its buttons saves what was typed and stores the chosen files.
        // The CSRF token is its first control, so it comes first in the multipart body, before any file.
        <form method="post" action={formPagePath(v.programId, v.projectId, v.form.formId)} enctype="multipart/form-data" id={DATA_FORM} novalidate>
          <input type="hidden" name="_csrf" value={p.csrfToken} />
          {/* Enter in a field presses the form's first submit button: with tables on the page that must be "Save draft",
              not a row's "Remove". Hidden from sight and from the tab order; the visible "Save draft" below is the same. */}
          {hasTable ? <button type="submit" name="action" value="save" class="usa-sr-only" tabIndex={-1} aria-hidden="true">Save draft</button> : null}
          <p>Fields marked (required) must be filled in before you submit. You can save a draft at any time. Some fields
            appear or change as you answer others: save the draft to see them.</p>
          {v.fields.filter((f) => !f.readOnly).map((f) => <ShownValues key={`shown-${f.fieldId}`} f={f} typed={p.typed} />)}
          {groups(v.fields).map((g, i) => {
            const controls = g.fields.map(control);
            return g.name ? <fieldset key={g.name} class="usa-fieldset group"><legend class="usa-legend">{g.name}</legend>{controls}</fieldset> : <div key={`g${i}`}>{controls}</div>;
          })}
          <div class="actions"><button class="usa-button" type="submit" name="action" value="save">Save draft</button></div>
          {v.attachments.length > 0 ? (
            <section aria-labelledby="attachments">
              <h2 id="attachments">Attachments</h2>
              <p>Choose a file and press its Upload button: the fields above are saved at the same time, so nothing you typed is lost.</p>
              {v.attachments.map((a) => (
                <Attachment key={a.attachmentId} a={a} v={v} timeZone={p.timeZone} error={fileError(a.attachmentId)} editable />
              ))}
            </section>
          ) : null}
          <section aria-labelledby="submit-title">
            <h2 id="submit-title">Submit</h2>
            <p>Submitting saves the fields and files above and sends {v.form.name} to the agency. You cannot change it afterwards.</p>
            <div class="actions">
              <button class="usa-button" type="submit" name="action" value="submit">Submit {v.form.name}</button>
              <a href={project}>Back to the project</a>
            </div>
          </section>
        </form>
      ) : (
        <>
          <dl class="facts">
            {v.fields.map((f) => {
              if (f.table) return <>{<dt key={`${f.fieldId}-t`}>{f.name}</dt>}<dd key={`${f.fieldId}-d`}><TableView f={f} rows={f.rows ?? []} /></dd></>;
              const values = f.multiValue ? (f.values ?? []) : f.value === null ? [] : [f.value];
              return <>{<dt key={`${f.fieldId}-t`}>{f.name}</dt>}<dd key={`${f.fieldId}-d`}>{values.length === 0 ? '—' : values.join(', ')}</dd></>;
            })}
          </dl>
          {v.attachments.length > 0 ? (
            <section aria-labelledby="attachments">
              <h2 id="attachments">Attachments</h2>
              {v.attachments.map((a) => (
                <Attachment key={a.attachmentId} a={a} v={v} timeZone={p.timeZone} error={fileError(a.attachmentId)} editable={false} />
              ))}
            </section>
          ) : null}
          <p><a href={project}>Back to the project</a></p>
        </>
      )}
    </Layout>
  );
}
