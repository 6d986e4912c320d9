import { dueOf } from '../calendar/due-date.ts';
import { DEFAULT_CALENDAR } from '../calendar/working-days.ts';
import type { Program } from '../../model/model.ts';

/** Why a project needs attention: the applicant answered, a file awaits review, a deadline is near or passed. */
export type { AttentionKind } from '../../store/work-queue-queries.ts';

/** The work queue's own columns (besides the project number, always first), by id, with their headings. */
export const QUEUE_COLUMNS = {
  applicant: 'Applicant', status: 'Status', assignee: 'Assignee', submitted: 'Submitted', created: 'Created', lastChange: 'Last change',
  nextDeadline: 'Next deadline', daysInStatus: 'Days in status', lastApplicantActivity: 'Last applicant activity', attention: 'Needs attention',
} as const;

/** One of the queue's own columns. */
export type QueueColumnId = keyof typeof QUEUE_COLUMNS;

/** The columns shown when none are chosen: the queue as it was before columns could be chosen. */
export const DEFAULT_QUEUE_COLUMNS: readonly QueueColumnId[] = ['applicant', 'status', 'assignee', 'submitted', 'nextDeadline', 'lastChange'];

/** A data field's column is `field:` and the field's customId (or id); a table column is not offered. */
export const FIELD_COLUMN_PREFIX = 'field:';

/** The most columns one queue shows (a page reads each data column's values in one query for the page). */
export const MAX_QUEUE_COLUMNS = 20;

/** The exact count stops here: beyond it the queue says "more than 1,000", so counting never reads more than this. */
export const QUEUE_COUNT_BOUND = 1000;

/** A running deadline due within this many working days (the program's calendar) makes a project need attention. */
export const ATTENTION_DUE_BUSINESS_DAYS = 2;

/** The needs-attention reasons, as the filter and the counts name them. */
export const ATTENTION_KINDS = { reply: 'Applicant answered', files: 'File awaits review', deadline: 'Deadline near or passed', connection: 'Connection failed' } as const;

/** The instant up to which a running deadline's due time counts as near: the end of the Nth working day after today. */
export function attentionDueBy(program: Pick<Program, 'calendar'>, now: number): number {
  return dueOf(program.calendar ?? DEFAULT_CALENDAR, now, { businessDays: ATTENTION_DUE_BUSINESS_DAYS })?.dueAt ?? now;
}

/** Whole days since `since` (days in the current status), never negative. */
export function daysSince(since: number, now: number): number {
  return Math.max(0, Math.floor((now - since) / 86_400_000));
}
