import type { NewProjectView } from '../domain/views.ts';
import { projectAttributes, writeCurrentStatus } from './project-attributes.ts';
import { writeFormSummary } from './write-form-summary.ts';
import { XmlWriter } from './xml-writer.ts';

/** Encodes the CreateNewProject answer: the project, its current status and its program's forms. */
export function encodeNewProjectResponse(view: NewProjectView, ns: string): string {
  const w = new XmlWriter(ns).start('NewProjectResponse').start('Project', projectAttributes(view));
  writeCurrentStatus(w, view.currentStatus);
  w.start('Forms');
  for (const form of view.forms) writeFormSummary(w, form);
  return w.end().end().end().finish();
}
