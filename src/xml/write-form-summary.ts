import type { FormSummaryView } from '../domain/views.ts';
import { statusRefAttributes } from './project-attributes.ts';
import type { XmlWriter } from './xml-writer.ts';

/** Writes `<Form FormId [CustomId] ProgramId Name><AvailableInStatuses>…</…>[<LeadsToStatus/>]</Form>` (GetForms, CreateNewProject). */
export function writeFormSummary(writer: XmlWriter, form: FormSummaryView): void {
  writer.start('Form', { FormId: form.formId, CustomId: form.customId, ProgramId: form.programId, Name: form.name });
  writer.start('AvailableInStatuses');
  for (const status of form.availableInStatuses) writer.empty('Status', statusRefAttributes(status));
  writer.end();
  if (form.leadsToStatus) writer.empty('LeadsToStatus', statusRefAttributes(form.leadsToStatus));
  writer.end();
}
