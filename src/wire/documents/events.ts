import type { EventFeedView, EventView } from '../../domain/events/event-service.ts';
import { isoTimestamp } from '../../model/clock.ts';
import { EVENT_TYPES } from '../../model/event.ts';
import {
  boolean, complex, type DocumentValue, dateTime, enumeration, many, nonNegativeInteger, optional, positiveInteger, required, responseDocument,
  string, type WireValue,
} from '../wire-type.ts';

/** The kinds of event, as the wire names them. */
export const EventTypeName = enumeration('EventType', EVENT_TYPES, 'The kind of change an event reports.');

/** One event: its envelope, then what it says (only the attributes its type uses). */
export const Event = complex({
  name: 'Event',
  attributes: {
    Sequence: required(positiveInteger, { doc: 'The event\'s place in the installation\'s sequence; the feed\'s cursor.' }),
    EventId: required(string, { doc: 'The event\'s id: the same in the feed, in webhook deliveries (webhook-id) and after redelivery.' }),
    Type: required(EventTypeName),
    Timestamp: required(dateTime, { doc: 'When the change committed (its LastChangeTimestamp).' }),
    ProgramId: required(string),
    ProjectId: required(string),
    Actor: optional(string, { doc: 'The e-mail address of the user who made the change.' }),
    FormId: optional(string),
    AttachmentId: optional(string),
    AttachmentVersion: optional(positiveInteger),
    FromStatusId: optional(string),
    ToStatusId: optional(string),
    ProjectNumber: optional(string),
    ReasonId: optional(string, { doc: '(apas) project.status_changed: the customId of the reason the move gave, from the status\'s list; never its message.' }),
    FromUser: optional(string, { doc: 'Owner or assignee before the change (e-mail address); absent when there was none.' }),
    ToUser: optional(string, { doc: 'Owner or assignee after the change (e-mail address); absent when there is none.' }),
    ThreadId: optional(string),
    NoteId: optional(string),
    VisibleToApplicant: optional(boolean),
    ByStaff: optional(boolean, { doc: 'True when staff wrote the note, false when the applicant did.' }),
    FromApprovalStatus: optional(string),
    ToApprovalStatus: optional(string),
    FromThreadStatus: optional(string),
    ToThreadStatus: optional(string),
    Automation: optional(string, { doc: 'The customId of the program\'s automation that made the change; absent for a person\'s own change.' }),
    EventName: optional(string, { doc: 'automation.custom: the name the automation gave the event.' }),
    DeadlineId: optional(string, { doc: 'deadline.* events: the customId of the program\'s deadline.' }),
    DueAt: optional(dateTime, { doc: 'deadline.* events: when the deadline passes (the end of the local day it is due by).' }),
    EnvelopeId: optional(string, { doc: 'envelope.* events: the e-signature envelope (GetEnvelope reads it with its audit trail).' }),
    DocumentId: optional(string, { doc: 'document.generated and envelope.* events: the customId of the program\'s document (document.generated: its file is AttachmentId\'s version AttachmentVersion).' }),
    SignerId: optional(string, { doc: 'envelope.signed: the customId of the template\'s signer who signed.' }),
    RelationId: optional(string, { doc: '(apas) project.related and project.unrelated: the relation; GetProjectRelations shows the other project to whoever may read it.' }),
    RelationKind: optional(string, { doc: '(apas) project.related and project.unrelated: child, successor or link.' }),
    RelationSide: optional(string, { doc: '(apas) project.related and project.unrelated: from (the other project was made from or linked by this one) or to.' }),

    ConnectionId: optional(string, { doc: 'connection.applied and connection.failed: the customId of the program\'s connection a callConnection action called.' }),
  },
});

/** GetEvents: a page of the change feed. */
export const EventsResponse = responseDocument('EventsResponse', complex({
  attributes: {
    NextCursor: required(nonNegativeInteger, { doc: 'The `after` of the next request: the last Sequence of this page, or the `after` sent when the page is empty.' }),
    HasMore: required(boolean, { doc: 'True when the page is full, so more events may follow at once.' }),
  },
  children: { Event: many(Event) },
}), 'GetEvents: the events after the cursor that the caller may read, in sequence order. Keep NextCursor and ask again with after=NextCursor.');

/** One event as the wire shows it (also the `data` of a webhook delivery). */
export function eventValue(e: EventView): WireValue<typeof Event> {
  const d = e.data;
  return {
    Sequence: e.seq, EventId: e.id, Type: e.type, Timestamp: isoTimestamp(e.at), ProgramId: e.programId, ProjectId: e.projectId,
    Actor: e.actorEmail ?? undefined, FormId: d.formId, AttachmentId: d.attachmentId, AttachmentVersion: d.attachmentVersion,
    FromStatusId: d.fromStatusId, ToStatusId: d.toStatusId, ProjectNumber: d.projectNumber, ReasonId: d.reasonId,
    FromUser: e.fromUserEmail ?? undefined, ToUser: e.toUserEmail ?? undefined, ThreadId: d.threadId, NoteId: d.noteId,
    VisibleToApplicant: d.visibleToApplicant, ByStaff: d.byStaff, FromApprovalStatus: d.fromApproval, ToApprovalStatus: d.toApproval,
    FromThreadStatus: d.fromThreadStatus, ToThreadStatus: d.toThreadStatus, Automation: d.automation, EventName: d.name,
    DeadlineId: d.deadlineId, DueAt: d.dueAt === undefined ? undefined : isoTimestamp(d.dueAt),
    EnvelopeId: d.envelopeId, DocumentId: d.documentId, SignerId: d.signerId,
    RelationId: d.relationId, RelationKind: d.relationKind, RelationSide: d.relationSide,

    ConnectionId: d.connectionId,
  };
}

/** GetEvents' answer from the feed page. */
export function eventsValue(view: EventFeedView): DocumentValue<typeof EventsResponse> {
  return { NextCursor: view.nextCursor, HasMore: view.hasMore, Event: view.events.map(eventValue) };
}
