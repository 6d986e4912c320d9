import type { FormsView } from '../domain/views.ts';
import { writeFormSummary } from './write-form-summary.ts';
import { XmlWriter } from './xml-writer.ts';

/** Encodes the GetForms answer: `<FormsResponse ProgramId><Form …>…</Form>…</FormsResponse>`. */
export function encodeFormsResponse(view: FormsView, ns: string): string {
  const w = new XmlWriter(ns).start('FormsResponse', { ProgramId: view.programId });
  for (const form of view.forms) writeFormSummary(w, form);
  return w.end().finish();
}
