import type { StatusListView } from '../domain/views.ts';
import { statusRefAttributes } from './project-attributes.ts';
import { XmlWriter } from './xml-writer.ts';

/** Encodes the GetStatusList answer: every status of the program with the statuses allowed next. */
export function encodeStatusListResponse(view: StatusListView, ns: string): string {
  const w = new XmlWriter(ns).start('StatusListResponse', { ProgramId: view.programId });
  for (const s of view.statuses) {
    w.start('Status', { StatusId: s.statusId, CustomId: s.customId, PublicId: s.publicId, Name: s.name, Initial: String(s.initial) });
    w.start('NextStatuses');
    for (const next of s.next) w.empty('Status', statusRefAttributes(next));
    w.end().end();
  }
  return w.end().finish();
}
