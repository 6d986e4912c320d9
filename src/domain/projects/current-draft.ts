import type { FieldValue, Form } from '../../model/model.ts';
import type { StoreReader } from '../../store/store.ts';

// A data field has one value per project, whichever forms show it (as the reference's data fields do). A form's
// draft holds only its changes not yet submitted: writing a field's submitted value removes that field's changes from
// every draft (upsertValues). So the draft a person sees, edits and submits is, field by field, the form's own change
// if it has one, else the project's current value; a form never shows a shared field empty because another form set it.

/** The draft of a form as it stands: per field of the form, the draft's change of it if any, else the project's submitted value. */
export function overlayDraft(form: Form, changes: FieldValue[], submitted: FieldValue[]): FieldValue[] {
  const changed = new Map(changes.map((v) => [v.fieldId, v]));
  const current = new Map(submitted.map((v) => [v.fieldId, v]));
  const out: FieldValue[] = [];
  for (const placed of form.fields) {
    const value = changed.get(placed.fieldId) ?? current.get(placed.fieldId);
    if (value) out.push(value);
  }
  return out;
}

/** Reads the draft of a form as it stands (see overlayDraft). */
export async function currentDraft(reader: Pick<StoreReader, 'projects'>, projectId: string, form: Form): Promise<FieldValue[]> {
  const [changes, submitted] = await Promise.all([
    reader.projects.getDraft(projectId, form.id), reader.projects.getValues(projectId, form.fields.map((f) => f.fieldId)),
  ]);
  return overlayDraft(form, changes, submitted);
}
