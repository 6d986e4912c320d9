import { ApiError } from '../api-error.ts';
import { MASK } from './value-check.ts';
import type { DataField, Form, ProgramModel } from '../../model/model.ts';
import type { DataFieldInput } from '../views.ts';
import { tableDraftInput } from './table-inputs.ts';

/** The values of a web form as its body parser gives them: a string per control, an array for a name sent more than once. */
export type RawFormValues = Record<string, unknown>;

// Only the free text of text fields is kept exactly as typed; the other types have one spelling, so stray spaces
// around "7.6" or a date are no reason to refuse it.
function tidy(field: DataField, text: string): string | null {
  const value = field.type === 'text' ? text : text.trim();
  return value.trim() === '' ? null : value;
}

function strings(raw: unknown): string[] {
  if (raw === undefined) return [];
  return (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string');
}

/** The name of the hidden control that carries back the value a form page showed for a field (one per value). */
export function shownKey(fieldId: string): string {
  return `_shown_${fieldId}`;
}

// The values a control's texts stand for, spelled as they would be saved: to tell a changed control from one left alone.
function normalized(field: DataField, texts: string[]): string[] {
  if (!field.multiValue) return texts.map((t) => tidy(field, t) ?? '').filter((t) => t !== '');
  const lines = field.type === 'choice' ? texts : texts.flatMap((s) => s.split(/\r?\n/));
  return lines.map((l) => l.trim()).filter((l) => l !== '');
}

function sameValues(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * The SetProjectData inputs of a form page's post, keyed by generated field id: a control left out is not changed,
 * nor one that still holds the value the page showed (its shownKey control), so a page never writes over a value the
 * person did not touch, even one another form or person changed since the page was shown; a sensitive value still showing the mask is the saved value shown masked, so it is left as stored; multi-value
 * text has one value per line (blank lines dropped) and multi-value choices one checkbox each; masked values mixed with
 * new ones are VALIDATION_FAILED (code MASKED_VALUE, shown beside the field). The values are then checked by the very
 * rules of the API (resolveInputs, through FormDataService.set).
 */
export function draftInputs(model: ProgramModel, form: Form, raw: RawFormValues): DataFieldInput[] {
  const inputs: DataFieldInput[] = [];
  for (const placed of form.fields) {
    const field = model.fields.find((f) => f.id === placed.fieldId);
    if (field?.type === 'table') {
      // A table is posted cell by cell (table-inputs.ts); the shown control holds the stored text the page showed.
      const shownName = shownKey(field.id);
      const input = tableDraftInput(field, raw, shownName in raw ? strings(raw[shownName])[0] ?? '' : null);
      if (input) inputs.push(input);
      continue;
    }
    if (!field || !(field.id in raw)) continue;
    const sent = strings(raw[field.id]);
    const shownName = shownKey(field.id);
    if (shownName in raw && sameValues(normalized(field, sent), normalized(field, strings(raw[shownName])))) continue;
    if (field.multiValue) {
      const lines = field.type === 'choice' ? sent : sent.flatMap((s) => s.split(/\r?\n/));
      const values = lines.map((l) => l.trim()).filter((l) => l !== '');
      if (field.sensitive && values.length > 0 && values.every((v) => v === MASK)) continue;
      if (field.sensitive && values.includes(MASK)) {
        // Some values still masked and some new: the masked ones cannot be told apart, so all must be typed anew.
        const message = `${field.name} holds masked values: leave them all as they are, or replace them all.`;
        throw new ApiError('VALIDATION_FAILED', 'Some data fields have invalid values.', {
          fields: [{ dataFieldId: field.id, customId: field.customId, name: field.name, code: 'MASKED_VALUE', message }],
        });
      }
      inputs.push({ dataFieldId: field.id, value: null, values: values.length === 0 ? null : values });
      continue;
    }
    if (sent.length !== 1) throw new ApiError('INVALID_PARAMETER', `Send the form field ${field.name} exactly once.`);
    if (field.sensitive && sent[0] === MASK) continue;
    inputs.push({ dataFieldId: field.id, value: tidy(field, sent[0]!), values: null });
  }
  return inputs;
}
