import type { SubmitView } from '../domain/views.ts';
import { projectAttributes, writeCurrentStatus } from './project-attributes.ts';
import { XmlWriter } from './xml-writer.ts';

/** Encodes the SubmitProject answer: the project (ProjectNumber and Url always present) with its current status. */
export function encodeProjectSubmitResponse(view: SubmitView, ns: string): string {
  const w = new XmlWriter(ns).start('ProjectSubmitResponse').start('Project', projectAttributes(view));
  writeCurrentStatus(w, view.currentStatus);
  return w.end().end().finish();
}
