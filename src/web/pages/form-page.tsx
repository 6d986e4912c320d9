import type { FormAttachmentView, FormFieldView, FormPageView } from '../../domain/application-service.ts';
import type { RawFormValues } from '../../domain/draft-inputs.ts';
import { ErrorSummary, type FormProblem } from '../components/error-summary.tsx';
import { controlId, FieldControl, type Shown } from '../components/field-control.tsx';
import { FileSummary, formatSize } from '../components/file-summary.tsx';
import { Layout, type PageUser } from '../layout.tsx';
import { filePath, formPagePath, projectPagePath, uploadPath } from '../web-paths.ts';

/** A problem of the page: the field or attachment definition it belongs to (generated id), and what is wrong. */
export interface PageProblem { targetId: string; attachment: boolean; message: string }

/** What a form page shows besides the form itself. */
export interface FormPageProps {
  view: FormPageView; user: PageUser; csrfToken: string; timeZone: string;
  /** What the user sent, shown instead of the saved values when the page comes back with problems. */
  typed: RawFormValues | null;
  problems: PageProblem[];
  /** The heading of the error summary. */
  problemTitle: string;
  notice: string | null;
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

function groups(fields: FormFieldView[]): { name: string | null; fields: FormFieldView[] }[] {
  const out: { name: string | null; fields: FormFieldView[] }[] = [];
  for (const f of fields) {
    const last = out[out.length - 1];
    if (last && last.name === f.group) last.fields.push(f);
    else out.push({ name: f.group, fields: [f] });
  }
  return out;
}

function typesText(types: string[]): string {
  return types.map((t) => (t === 'application/pdf' ? 'PDF' : t === 'image/jpeg' ? 'JPEG' : t === 'image/png' ? 'PNG' : t)).join(', ');
}

function Attachment(p: { a: FormAttachmentView; v: FormPageView; csrfToken: string; timeZone: string; error: string | null; editable: boolean }) {
  const { a, v } = p;
  const id = fileInputId(a.attachmentId);
  const rules = `${typesText(a.allowedTypes)}, at most ${formatSize(a.maxSizeBytes)}.`;
  const action = `${uploadPath(v.programId, v.projectId, v.form.formId, a.attachmentId)}?${new URLSearchParams({ _csrf: p.csrfToken }).toString()}`;
  return (
    <section class={`attachment${p.error ? ' has-error' : ''}`} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{a.name}{a.required ? <span class="required-marker"> (required)</span> : null}</h3>
      {a.file ? <FileSummary file={a.file} href={filePath(v.programId, v.projectId, a.attachmentId)} timeZone={p.timeZone} /> : <p>No file uploaded yet.</p>}
      {p.editable ? (
        <form method="post" action={action} enctype="multipart/form-data" class="upload">
          <div class={`field${p.error ? ' has-error' : ''}`}>
            <label for={id}>{a.file ? `Replace the file of ${a.name}` : `File for ${a.name}`}</label>
            <p class="hint" id={`${id}-hint`}>{rules}</p>
            {p.error ? <p class="error-message" id={`${id}-error`}><span class="visually-hidden">Error: </span>{p.error}</p> : null}
            <input type="file" id={id} name="file" accept={a.allowedTypes.join(',')} aria-invalid={p.error ? true : undefined}
              aria-describedby={[`${id}-hint`, p.error ? `${id}-error` : null].filter(Boolean).join(' ')} />
          </div>
          <button type="submit" class="secondary">Upload {a.name}</button>
        </form>
      ) : null}
    </section>
  );
}

/** A form of a project: its fields (grouped as the program groups them), its attachments with upload forms, and save or submit. */
export function FormPage(p: FormPageProps) {
  const v = p.view;
  const editable = v.readOnlyReason === null;
  const fieldError = (id: string) => p.problems.find((x) => !x.attachment && x.targetId === id)?.message ?? null;
  const fileError = (id: string) => p.problems.find((x) => x.attachment && x.targetId === id)?.message ?? null;
  const summary: FormProblem[] = p.problems.map((x) => ({ message: x.message, fieldId: x.attachment ? fileInputId(x.targetId) : controlId(x.targetId) }));
  const project = projectPagePath(v.programId, v.projectId);
  return (
    <Layout title={v.form.name} agencyName={v.agencyName} programName={v.programName} user={p.user} csrfToken={p.csrfToken}>
      <p class="breadcrumb"><a href={project}>{v.projectNumber ?? 'Draft application'}</a> · status <span class="status">{v.statusName}</span></p>
      <h1>{v.form.name}</h1>
      <ErrorSummary title={p.problemTitle} problems={summary} />
      {p.notice ? <div class="notice ok">{p.notice}</div> : null}
      {editable ? null : <div class="notice warn">{v.readOnlyReason}</div>}
      {editable ? (
        <>
          <p>Fields marked (required) must be filled in before you submit. You can save a draft at any time.</p>
          <form method="post" action={formPagePath(v.programId, v.projectId, v.form.formId)} id={DATA_FORM} novalidate>
            <input type="hidden" name="_csrf" value={p.csrfToken} />
            {groups(v.fields).map((g, i) => {
              const controls = g.fields.map((f) => <FieldControl key={f.fieldId} f={f} shown={shown(f, p.typed)} error={fieldError(f.fieldId)} />);
              return g.name ? <fieldset key={g.name} class="group"><legend>{g.name}</legend>{controls}</fieldset> : <div key={`g${i}`}>{controls}</div>;
            })}
            <div class="actions"><button type="submit" name="action" value="save">Save draft</button></div>
          </form>
        </>
      ) : (
        <dl class="facts">
          {v.fields.map((f) => {
            const values = f.multiValue ? (f.values ?? []) : f.value === null ? [] : [f.value];
            return <>{<dt key={`${f.fieldId}-t`}>{f.name}</dt>}<dd key={`${f.fieldId}-d`}>{values.length === 0 ? '—' : values.join(', ')}</dd></>;
          })}
        </dl>
      )}
      {v.attachments.length > 0 ? (
        <section aria-labelledby="attachments">
          <h2 id="attachments">Attachments</h2>
          {editable ? <p>Save your draft before uploading: an upload sends the file only, not the fields above.</p> : null}
          {v.attachments.map((a) => (
            <Attachment key={a.attachmentId} a={a} v={v} csrfToken={p.csrfToken} timeZone={p.timeZone} error={fileError(a.attachmentId)} editable={editable} />
          ))}
        </section>
      ) : null}
      {editable ? (
        <section aria-labelledby="submit-title">
          <h2 id="submit-title">Submit</h2>
          <p>Submitting saves the fields above and sends {v.form.name} to the agency. You cannot change it afterwards.</p>
          <div class="actions">
            <button type="submit" form={DATA_FORM} name="action" value="submit">Submit {v.form.name}</button>
            <a href={project}>Back to the project</a>
          </div>
        </section>
      ) : <p><a href={project}>Back to the project</a></p>}
    </Layout>
  );
}
