import type { NewProjectView } from '../domain/views.ts';
import { projectAttributes, statusRefAttributes, writeCurrentStatus } from './project-attributes.ts';
import { XmlWriter } from './xml-writer.ts';

/** Encodes the CreateNewProject answer: the project, its current status and its program's forms. */
export function encodeNewProjectResponse(view: NewProjectView, ns: string): string {
  const w = new XmlWriter(ns).start('NewProjectResponse').start('Project', projectAttributes(view));
  writeCurrentStatus(w, view.currentStatus);
  w.start('Forms');
  for (const form of view.forms) {
    w.start('Form', { FormId: form.formId, CustomId: form.customId, ProgramId: form.programId, Name: form.name });
    w.start('AvailableInStatuses');
    for (const status of form.availableInStatuses) w.empty('Status', statusRefAttributes(status));
    w.end();
    if (form.leadsToStatus) w.empty('LeadsToStatus', statusRefAttributes(form.leadsToStatus));
    w.end();
  }
  return w.end().end().end().finish();
}
