import type { AssigneeView } from '../domain/views.ts';
import { XmlWriter } from './xml-writer.ts';

/** Encodes the SetAssignee answer: `<SetAssigneeResponse><Assignee Name Email/></…>`, without Assignee when cleared. */
export function encodeSetAssigneeResponse(view: AssigneeView, ns: string): string {
  const w = new XmlWriter(ns).start('SetAssigneeResponse');
  if (view.assignee) w.empty('Assignee', { Name: view.assignee.name, Email: view.assignee.email });
  return w.end().finish();
}
