import type { InquiryNoteInput, InquiryNotesView, InquiryThreadSetView, InquiryThreadsView, InquiryThreadView } from '../../domain/views.ts';
import { isoTimestamp } from '../../model/clock.ts';
import { INQUIRY_STATUSES, type InquiryStatus } from '../../model/inquiry.ts';
import {
  boolean, complex, type DocumentValue, dateTime, many, nonNegativeInteger, one, optional, requestDocument, required, responseDocument, restrict,
  string, token,
} from '../wire-type.ts';

const THREAD_ATTRIBUTES = {
  ThreadId: required(string),
  Subject: required(string),
  Status: required(restrict(string, { name: 'InquiryStatus', enumeration: INQUIRY_STATUSES })),
  ExternalId: optional(string),
  CreatedTimestamp: required(dateTime),
  UpdatedTimestamp: required(dateTime),
  NoteCount: required(nonNegativeInteger),
} as const;

const InquiryThread = complex({ name: 'InquiryThread', attributes: THREAD_ATTRIBUTES });

const Note = complex({
  name: 'Note',
  attributes: {
    NoteId: required(string), Author: required(string), AuthorEmail: required(string), Timestamp: required(dateTime), VisibleToApplicant: required(boolean),
  },
  children: { Text: one(string) },
});

/** GetInquiryThreads: the inquiry threads of a project in creation order, each with its note count. */
export const InquiryThreadsResponse = responseDocument('InquiryThreadsResponse', complex({
  attributes: { ProjectId: required(string) },
  children: { InquiryThread: many(InquiryThread) },
}), 'GetInquiryThreads: the inquiry threads of a project in creation order, each with its note count.');

/** SetInquiryThreadStatus and SetInquiryThreadExternalId: the thread as it is after the change. */
export const InquiryThreadResponse = responseDocument('InquiryThreadResponse', complex({
  attributes: { ProjectId: required(string) },
  children: { InquiryThread: one(InquiryThread) },
}), 'SetInquiryThreadStatus and SetInquiryThreadExternalId: the thread as it is after the change.');

/** GetNotesInInquiryThread and SetInquiryNote: a thread with its notes. */
export const InquiryNotesResponse = responseDocument('InquiryNotesResponse', complex({
  attributes: { ProjectId: required(string) },
  children: { InquiryThread: one(complex({ attributes: THREAD_ATTRIBUTES, children: { Note: many(Note) } })) },
}), 'GetNotesInInquiryThread (the thread with every note, oldest first) and SetInquiryNote (the thread with the new note). '
  + 'Text is exactly the text that was sent.');

/** SetInquiryNote's request body. */
export const SetInquiryNoteRequest = requestDocument('SetInquiryNoteRequest', complex({
  attributes: {
    ThreadId: optional(restrict(token, { name: 'Identifier', pattern: '[A-Za-z0-9_.~\\-]{1,64}' })),
    Subject: optional(restrict(token, { minLength: 1, maxLength: 200 })),
    VisibleToApplicant: optional(boolean),
  },
  children: { Text: one(restrict(string, { minLength: 1, maxLength: 20000 })) },
}), 'SetInquiryNote request: a note for the thread ThreadId, or, without ThreadId, for a new thread called Subject. Text is '
  + 'stored exactly as sent (whitespace and line breaks included); VisibleToApplicant defaults to false.');

/** SetInquiryThreadStatus's request body. */
export const SetInquiryThreadStatusRequest = requestDocument('SetInquiryThreadStatusRequest', complex({
  attributes: { Status: required(restrict(token, { name: 'InquiryStatus', enumeration: INQUIRY_STATUSES })) },
}), 'SetInquiryThreadStatus request: the status the thread moves to.');

/** SetInquiryThreadExternalId's request body. */
export const SetInquiryThreadExternalIdRequest = requestDocument('SetInquiryThreadExternalIdRequest', complex({
  attributes: { ExternalId: optional(restrict(token, { maxLength: 100 })) },
}), 'SetInquiryThreadExternalId request: the id of the thread in an outside system (unique within the program); absent or '
  + 'empty to unlink.');

function threadValue(thread: InquiryThreadView) {
  return {
    ThreadId: thread.threadId, Subject: thread.subject, Status: thread.status, ExternalId: thread.externalId,
    CreatedTimestamp: isoTimestamp(thread.createdAt), UpdatedTimestamp: isoTimestamp(thread.updatedAt), NoteCount: thread.noteCount,
  };
}

/** The value of GetInquiryThreads' answer, threads in the view's (creation) order. */
export function inquiryThreadsValue(view: InquiryThreadsView): DocumentValue<typeof InquiryThreadsResponse> {
  return { ProjectId: view.projectId, InquiryThread: view.threads.map(threadValue) };
}

/** The value of SetInquiryThreadStatus' and SetInquiryThreadExternalId's answer. */
export function inquiryThreadValue(view: InquiryThreadSetView): DocumentValue<typeof InquiryThreadResponse> {
  return { ProjectId: view.projectId, InquiryThread: threadValue(view.thread) };
}

/** The value of GetNotesInInquiryThread's and SetInquiryNote's answer: the notes in the view's order, texts untouched. */
export function inquiryNotesValue(view: InquiryNotesView): DocumentValue<typeof InquiryNotesResponse> {
  return {
    ProjectId: view.projectId,
    InquiryThread: {
      ...threadValue(view.thread),
      Note: view.notes.map((n) => ({
        NoteId: n.noteId, Author: n.author, AuthorEmail: n.authorEmail, Timestamp: isoTimestamp(n.timestamp), VisibleToApplicant: n.visibleToApplicant, Text: n.text,
      })),
    },
  };
}

/**
 * What a SetInquiryNoteRequest asks for: ThreadId and Subject (collapsed by the readers; absent gives null),
 * VisibleToApplicant false unless true, and Text exactly as sent.
 */
export function inquiryNoteInput(value: DocumentValue<typeof SetInquiryNoteRequest>): InquiryNoteInput {
  return { threadId: value.ThreadId ?? null, subject: value.Subject ?? null, visibleToApplicant: value.VisibleToApplicant === true, text: value.Text };
}

/** The status a SetInquiryThreadStatusRequest moves the thread to (the schemas admit only the four statuses). */
export function inquiryThreadStatusInput(value: DocumentValue<typeof SetInquiryThreadStatusRequest>): InquiryStatus {
  return value.Status as InquiryStatus;
}

/** The external id a SetInquiryThreadExternalIdRequest links, or null (absent or empty) to unlink. */
export function inquiryExternalIdInput(value: DocumentValue<typeof SetInquiryThreadExternalIdRequest>): string | null {
  const id = value.ExternalId ?? '';
  return id === '' ? null : id;
}
