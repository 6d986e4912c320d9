import { isoTimestamp } from '../model/clock.ts';
import type { InquiryNotesView } from '../domain/views.ts';
import { inquiryThreadAttributes } from './inquiry-thread-attributes.ts';
import { XmlWriter } from './xml-writer.ts';

/**
 * Encodes the GetNotesInInquiryThread and SetInquiryNote answer: the thread with its notes in the view's order,
 * each `<Note NoteId Author AuthorEmail Timestamp VisibleToApplicant><Text>…</Text></Note>`, the text escaped and otherwise untouched.
 */
export function encodeInquiryNotesResponse(view: InquiryNotesView, ns: string): string {
  const w = new XmlWriter(ns).start('InquiryNotesResponse', { ProjectId: view.projectId })
    .start('InquiryThread', inquiryThreadAttributes(view.thread));
  for (const note of view.notes) {
    w.start('Note', {
      NoteId: note.noteId, Author: note.author, AuthorEmail: note.authorEmail, Timestamp: isoTimestamp(note.timestamp),
      VisibleToApplicant: note.visibleToApplicant ? 'true' : 'false',
    }).element('Text', undefined, note.text).end();
  }
  return w.end().end().finish();
}
