import { isoTimestamp } from '../model/clock.ts';
import type { InquiryThreadView } from '../domain/views.ts';
import type { XmlAttributes } from './xml-writer.ts';

/** The attributes of an InquiryThread element: `ThreadId Subject Status [ExternalId] CreatedTimestamp UpdatedTimestamp NoteCount`. */
export function inquiryThreadAttributes(thread: InquiryThreadView): XmlAttributes {
  return {
    ThreadId: thread.threadId, Subject: thread.subject, Status: thread.status, ExternalId: thread.externalId,
    CreatedTimestamp: isoTimestamp(thread.createdAt), UpdatedTimestamp: isoTimestamp(thread.updatedAt), NoteCount: String(thread.noteCount),
  };
}
