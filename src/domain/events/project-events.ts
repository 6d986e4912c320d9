import type { EventAudience, EventData, EventType } from '../../model/event.ts';
import { isStaff, type Role } from '../roles/access.ts';

/** What a project change tells the outbox: the kind of event, what it says and who besides staff may see it. */
export interface EventOfChange { type: EventType; data: EventData; audience: EventAudience }

type Detail = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const user = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

function statusMove(fromStatusId: unknown, toStatusId: unknown, number: unknown): EventData {
  return clean({ fromStatusId: str(fromStatusId), toStatusId: str(toStatusId), projectNumber: str(number) });
}

function clean(data: EventData): EventData {
  return Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined)) as EventData;
}

const DEADLINE_EVENTS: Record<string, EventType> = {
  'project.deadline.start': 'deadline.started', 'project.deadline.satisfy': 'deadline.satisfied',
  'project.deadline.cancel': 'deadline.cancelled', 'project.deadline.pass': 'deadline.passed',
};

const ENVELOPE_EVENTS: Record<string, EventType> = {
  'project.envelope.sign': 'envelope.signed', 'project.envelope.complete': 'envelope.completed',
  'project.envelope.decline': 'envelope.declined', 'project.envelope.void': 'envelope.voided',
};

const all = (type: EventType, data: EventData): EventOfChange => ({ type, data: clean(data), audience: 'all' });

/**
 * The events of one audited project change, read from its audit action and detail (which already hold no
 * sensitive value, file name or note text). A submission that moves the project also reports the status change,
 * so `project.status_changed` follows every change of status. Actions without events (history display settings,
 * a thread's external id) give none.
 */
export function eventsOfChange(action: string, d: Detail, role: Role): EventOfChange[] {
  const events = ofAction(action, d, role);
  // A change an automation made says which one (src/domain/automations), so a webhook can tell it from a person's.
  const automation = str(d.automation);
  return automation === undefined ? events : events.map((e) => ({ ...e, data: { ...e.data, automation } }));
}

function ofAction(action: string, d: Detail, role: Role): EventOfChange[] {
  switch (action) {
    case 'project.create': return [all('project.created', { toStatusId: str(d.status) })];
    case 'project.draft.set': return [all('project.draft_saved', { formId: str(d.formId) })];
    case 'project.data.set': return [all('project.data_saved', { formId: str(d.formId) })];
    case 'project.submit': {
      const submitted = all('project.submitted', { formId: str(d.formId), ...statusMove(d.fromStatus, d.toStatus, d.number) });
      return d.fromStatus === d.toStatus ? [submitted] : [submitted, all('project.status_changed', statusMove(d.fromStatus, d.toStatus, d.number))];
    }
    // The reason by key; its message never (people's words, which may name people), as a note's text never.
    case 'project.status.set': return [all('project.status_changed', { ...statusMove(d.from, d.to, d.number), ...clean({ reasonId: str(d.reasonId) }) })];
    // Handing a project to its owner again is recorded, but tells nobody anything.
    case 'project.owner.set': return d.from === d.to ? [] : [all('project.owner_changed', { fromUserId: user(d.from), toUserId: user(d.to) })];
    case 'project.assignee.set': return [all('project.assignee_changed', { fromUserId: user(d.from), toUserId: user(d.to) })];
    case 'project.attachment.upload':
      return [all('attachment.uploaded', { formId: str(d.formId), attachmentId: str(d.attachmentId), attachmentVersion: num(d.version) })];
    case 'project.attachment.review':
      return [all('attachment.reviewed', { attachmentId: str(d.attachmentId), attachmentVersion: num(d.version), fromApproval: str(d.from), toApproval: str(d.to) })];
    case 'inquiry.thread.open':
    case 'inquiry.note.add': {
      const visible = d.visibleToApplicant === true;
      // `status` is in the detail when the note moved the thread (a staff question awaits the applicant's response).
      const data = clean({ threadId: str(d.threadId), noteId: str(d.noteId), visibleToApplicant: visible, byStaff: isStaff(role), toThreadStatus: str(d.status) });
      return [{ type: 'inquiry.note_added', data, audience: visible ? 'all' : 'staff' }];
    }
    // Staff-only: a thread's status says nothing an applicant cannot see on the page, but the thread may hold only internal notes.
    case 'inquiry.thread.status.set':
      return [{ type: 'inquiry.thread_status_changed', data: clean({ threadId: str(d.threadId), fromThreadStatus: str(d.from), toThreadStatus: str(d.to) }), audience: 'staff' }];
    case 'automation.event': return [all('automation.custom', { name: str(d.name) })];
    // A deadline the applicant is not shown is staff business, as its events are.
    case 'project.deadline.start':
    case 'project.deadline.satisfy':
    case 'project.deadline.cancel':
    case 'project.deadline.pass': {
      const type = DEADLINE_EVENTS[action]!;
      return [{ type, data: clean({ deadlineId: str(d.deadlineId), dueAt: num(d.dueAt) }), audience: d.shownToApplicant === false ? 'staff' : 'all' }];
    }
    // The request's id says which GenerateDocument (or automation) it answers; staff alone hear of a document kept from applicants.
    case 'project.document.generate':
      return [{
        type: 'document.generated', audience: d.visibleToApplicant === true ? 'all' : 'staff',
        data: clean({ documentId: str(d.documentId), attachmentId: str(d.attachmentId), attachmentVersion: num(d.version) }),
      }];

    // An envelope's signatures and final states (src/domain/signing); the applicant sees them on the project page too.
    case 'project.envelope.sign':
    case 'project.envelope.complete':
    case 'project.envelope.decline':
    case 'project.envelope.void': {
      const data = { envelopeId: str(d.envelopeId), documentId: str(d.documentId), attachmentId: str(d.attachmentId), attachmentVersion: num(d.version) };
      return [all(ENVELOPE_EVENTS[action]!, action === 'project.envelope.sign' ? { ...data, signerId: str(d.signerId) } : data)];
    }
    // Never the other project's id: an event's reader may not be allowed to read it (GetProjectRelations filters).
    case 'project.relation.add': return [all('project.related', { relationId: str(d.relationId), relationKind: str(d.kind), relationSide: str(d.side) })];
    case 'project.relation.remove': return [all('project.unrelated', { relationId: str(d.relationId), relationKind: str(d.kind), relationSide: str(d.side) })];

    // A callConnection's answer applied, or its call failed after the retries (src/domain/connections): staff's business.
    case 'project.connection.apply': return [{ type: 'connection.applied', data: clean({ connectionId: str(d.connection) }), audience: 'staff' }];
    case 'project.connection.fail': return [{ type: 'connection.failed', data: clean({ connectionId: str(d.connection) }), audience: 'staff' }];
    default: return [];
  }
}
