import type { AutomationWhen, TriggerKind } from '../../model/automation.ts';

/** Something that happened to a project, as automations wait for it: the trigger and the parts it concerns. */
export interface Trigger {
  kind: TriggerKind;
  formId?: string; statusId?: string; fieldId?: string; attachmentId?: string; approval?: string; by?: 'staff' | 'applicant';
  /** inquiry.note_added: whether the applicant sees the note. */
  visibleToApplicant?: boolean;
  /** deadline.*: the deadline's customId. */
  deadlineId?: string;
  /** schedule: the customId of the one automation whose daily run this is. */
  automation?: string;
  /** connection.failed: the connection's customId. */
  connectionId?: string;
}

/** The deadline trigger of each deadline audit action (src/domain/deadlines). */
const DEADLINE_TRIGGERS: Record<string, TriggerKind> = {
  'project.deadline.start': 'deadline.started', 'project.deadline.pass': 'deadline.passed',
  'project.deadline.satisfy': 'deadline.satisfied', 'project.deadline.cancel': 'deadline.cancelled',
};

type Detail = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function statusMove(from: unknown, to: unknown): Trigger[] {
  if (typeof from !== 'string' || typeof to !== 'string' || from === to) return [];
  return [{ kind: 'status.left', statusId: from }, { kind: 'status.entered', statusId: to }];
}

function fieldsOf(d: Detail): Trigger[] {
  return Array.isArray(d.fields) ? d.fields.filter((f): f is string => typeof f === 'string').map((fieldId) => ({ kind: 'field.changed', fieldId })) : [];
}

/**
 * The triggers of one audited project change, read from its audit action and detail as its events are
 * (src/domain/events/project-events.ts), in the order automations see them: the change itself, then the fields it
 * wrote, then the status it left and the one it entered. `byStaff` says who wrote an inquiry note.
 * Deadline triggers (deadline.started, .passed, .satisfied, .cancelled) come from the deadlines' audit actions.
 */
export function triggersOfChange(action: string, d: Detail, byStaff: boolean): Trigger[] {
  switch (action) {
    case 'project.create': return [{ kind: 'project.created' }];
    case 'project.draft.set': return [{ kind: 'form.saved', formId: str(d.formId) }];
    // Staff writing submitted data change the project's values: the fields changed, but no form was saved or submitted.
    case 'project.data.set': return fieldsOf(d);
    case 'project.submit': return [{ kind: 'form.submitted', formId: str(d.formId) }, ...fieldsOf(d), ...statusMove(d.fromStatus, d.toStatus)];
    case 'project.status.set': return statusMove(d.from, d.to);
    case 'project.field.set': return fieldsOf(d);
    case 'project.attachment.upload': return [{ kind: 'attachment.uploaded', attachmentId: str(d.attachmentId) }];
    case 'project.attachment.review':
      // A review that only changed the note did not review anything new.
      return d.from === d.to ? [] : [{ kind: 'attachment.reviewed', attachmentId: str(d.attachmentId), approval: str(d.to) }];
    case 'inquiry.thread.open':
    case 'inquiry.note.add': return [{ kind: 'inquiry.note_added', by: byStaff ? 'staff' : 'applicant', visibleToApplicant: d.visibleToApplicant === true }];
    case 'project.deadline.start':
    case 'project.deadline.pass':
    case 'project.deadline.satisfy':
    case 'project.deadline.cancel': return [{ kind: DEADLINE_TRIGGERS[action]!, deadlineId: str(d.deadlineId) }];
    // An envelope's final state (src/domain/signing); the signed PDF is stored by the same change as envelope.completed.
    case 'project.envelope.complete': return [{ kind: 'envelope.completed' }];
    case 'project.envelope.decline': return [{ kind: 'envelope.declined' }];
    case 'project.envelope.void': return [{ kind: 'envelope.voided' }];
    // A daily run selected this project for one automation (schedule-runner.ts): only that automation runs.
    case 'automation.schedule': return [{ kind: 'schedule', automation: str(d.automation) }];
    // A callConnection's call that failed after its retries (src/domain/connections).
    case 'project.connection.apply': return fieldsOf(d);
    case 'project.connection.fail': return [{ kind: 'connection.failed', connectionId: str(d.connection) }];
    default: return [];
  }
}

/**
 * True when an automation's `when` waits for this trigger: the same kind, and every filter it sets matches; a
 * schedule trigger is for the one automation (by customId) whose daily run it is.
 */
export function matchesTrigger(when: AutomationWhen, t: Trigger, customId?: string): boolean {
  if (when.trigger !== t.kind) return false;
  if (t.kind === 'schedule') return t.automation === customId;
  const same = (want: string | null, got: string | undefined) => want === null || want === got;
  return same(when.formId, t.formId) && same(when.statusId, t.statusId) && same(when.fieldId, t.fieldId)
    && same(when.attachmentId, t.attachmentId) && same(when.approval, t.approval) && same(when.by, t.by) && same(when.deadlineId ?? null, t.deadlineId) && same(when.connectionId ?? null, t.connectionId)
    && (when.visibleToApplicant === undefined || when.visibleToApplicant === null || when.visibleToApplicant === t.visibleToApplicant);
}

/** A trigger as the record of a run names it: `status.entered EngineeringReview`. */
export function describeTrigger(t: Trigger, refOf: (id: string) => string): string {
  const part = t.formId ?? t.statusId ?? t.fieldId ?? t.attachmentId;
  return [t.kind, part === undefined ? null : refOf(part), t.approval ?? null, t.by ?? null, t.deadlineId ?? null, t.automation ?? null, t.connectionId ?? null].filter((x) => x !== null).join(' ');
}
