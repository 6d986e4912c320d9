/** The kinds of event a change of a project writes to the outbox, in the order of a project's life. */
export const EVENT_TYPES = [
  'project.created', 'project.draft_saved', 'project.data_saved', 'project.submitted', 'project.status_changed',
  'project.owner_changed', 'project.assignee_changed', 'attachment.uploaded', 'attachment.reviewed',
  'inquiry.note_added', 'inquiry.thread_status_changed', 'automation.custom',
  'deadline.started', 'deadline.satisfied', 'deadline.cancelled', 'deadline.passed', 'document.generated',
  'envelope.signed', 'envelope.completed', 'envelope.declined', 'envelope.voided',
  'project.related',
  'project.unrelated',

  'connection.applied', 'connection.failed',
] as const;

/** One kind of event. */
export type EventType = (typeof EVENT_TYPES)[number];

/** True when `value` names a kind of event. */
export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * Who may see an event besides the program's staff: `all` also shows it to the project's applicant owner; `staff`
 * keeps it from applicants (an internal inquiry note).
 */
export type EventAudience = 'all' | 'staff';

/**
 * What an event says besides its envelope: identifiers and states only, never a field's value, a file name or a
 * note's text. Users are kept by id and shown by e-mail address when read.
 */
export interface EventData {
  formId?: string;
  attachmentId?: string;
  attachmentVersion?: number;
  fromStatusId?: string;
  toStatusId?: string;
  projectNumber?: string;
  /** The customId of the reason a status move gave (never its message). */
  reasonId?: string;
  fromUserId?: string | null;
  toUserId?: string | null;
  threadId?: string;
  noteId?: string;
  visibleToApplicant?: boolean;
  byStaff?: boolean;
  fromApproval?: string;
  toApproval?: string;
  fromThreadStatus?: string;
  toThreadStatus?: string;
  /** The customId of the program's automation that made the change (absent for a person's own change). */
  automation?: string;
  /** automation.custom: the name the automation's emitEvent action gives the event. */
  name?: string;
  /** The customId of the program's deadline a deadline.* event is about. */
  deadlineId?: string;
  /** When that deadline passes (epoch ms): the end of the local day it is due by. */
  dueAt?: number;
  /** document.generated and envelope.*: the customId of the program's document (document.generated: its file is attachmentId's attachmentVersion). */
  documentId?: string;
  /** envelope.*: the envelope. */
  envelopeId?: string;
  /** envelope.signed: the customId of the template's signer who signed. */
  signerId?: string;
  /** project.related, project.unrelated: the relation (GetProjectRelations shows the other project, to whoever may read it). */
  relationId?: string;
  /** project.related: child, successor or link. */
  relationKind?: string;
  /** project.related: which end of the relation this project is (`from`: the other project was made from or linked by it). */
  relationSide?: string;

  /** connection.*: the customId of the program's connection. */
  connectionId?: string;
}

/** An event as the change step writes it; the store adds the sequence at commit. */
export interface NewEvent {
  id: string;
  type: EventType;
  at: number;
  agencyId: string;
  programId: string;
  projectId: string;
  actorId: string | null;
  /**
   * The project's owner when the change was made (after it): whom the applicant's notifications about it go to, even
   * once the project has another owner. Null only for events of projects gone before 019-event-owner.
   */
  ownerId: string | null;
  audience: EventAudience;
  data: EventData;
}

/** A committed event: its place in the installation's sequence (1, 2, …; gaps where a change rolled back). */
export interface StoredEvent extends NewEvent { seq: number }
