import type { StatusHistoryView } from '../domain/views.ts';
import { historyEntryAttributes } from './history-entry-attributes.ts';
import { XmlWriter } from './xml-writer.ts';

/** Encodes the GetProjectStatusHistory answer: the project and its history entries in the view's order (newest first). */
export function encodeProjectStatusHistoryResponse(view: StatusHistoryView, ns: string): string {
  const w = new XmlWriter(ns).start('ProjectStatusHistoryResponse')
    .start('Project', { ProjectId: view.projectId, ProgramId: view.programId, ProjectNumber: view.projectNumber })
    .start('StatusHistory');
  for (const entry of view.entries) w.empty('Status', historyEntryAttributes(entry));
  return w.end().end().end().finish();
}
