import { QUEUE_PAGE_SIZES, type QueueFieldFilter, type WorkQueueFilter } from '../domain/queue/work-queue-service.ts';
import { nextDay, startOfDay } from './zoned-date.ts';
import { ATTENTION_KINDS, type AttentionKind } from '../domain/queue/queue-columns.ts';
import type { FormProblem } from './components/error-summary.tsx';

/** The work queue's filter form as typed: the values the form shows again, and the query string that repeats it. */
export interface QueueForm {
  programId: string; statuses: string[]; assignee: string; submittedFrom: string; submittedTo: string; number: string;
  field: string; op: string; value: string; order: string; size: string; cursor: string;
  /** `1` when only overdue projects are wanted (the checkbox's value), else empty. */
  overdue: string;
  /** Needs attention: `any`, one of ATTENTION_KINDS, or empty for every project. */
  attention: string;
  /** The chosen columns (`col`, repeated), in order; empty for the default ones. */
  columns: string[];
  /** The saved view the page was opened from (its id), or empty. */
  view: string;
}

/** A problem with one control of the filter form: the form's own problem type (`fieldId` is the input it links to). */
export type QueueProblem = FormProblem;

/** The orders the queue offers: sort key and direction in one choice. */
export const QUEUE_ORDERS = {
  'updated-desc': 'Last change, newest first', 'updated-asc': 'Last change, oldest first',
  'created-desc': 'Created, newest first', 'created-asc': 'Created, oldest first',
  'due-asc': 'Due date, soonest first', 'due-desc': 'Due date, latest first',
} as const;

/** GetProjectsByData's operators, as the form names them. */
export const QUEUE_OPERATORS = {
  eq: 'equals', ne: 'does not equal', contains: 'contains', lt: 'is less than', le: 'is at most', gt: 'is more than', ge: 'is at least',
  empty: 'is empty', notempty: 'is not empty',
} as const;

type Raw = Record<string, unknown>;

function one(q: Raw, name: string): string {
  const v = q[name];
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === 'string' ? first.trim() : '';
}

function many(q: Raw, name: string): string[] {
  const v = q[name];
  return (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim());
}

/** Reads the filter form from a query string. */
export function readQueueForm(q: Raw): QueueForm {
  return {
    programId: one(q, 'ProgramId'), statuses: many(q, 'status'), assignee: one(q, 'assignee'), submittedFrom: one(q, 'submittedFrom'),
    submittedTo: one(q, 'submittedTo'), number: one(q, 'number'), field: one(q, 'field'), op: one(q, 'op') || 'eq', value: typeof q.value === 'string' ? q.value : one(q, 'value'),
    order: one(q, 'order') || 'updated-desc', size: one(q, 'size') || '50', cursor: one(q, 'cursor'), overdue: one(q, 'overdue'),
    attention: one(q, 'attention'), columns: many(q, 'col'), view: one(q, 'view'),
  };
}

/** The query string of the form (without the cursor unless given), for links that keep the filters. */
export function queueQuery(f: QueueForm, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams({ ProgramId: f.programId });
  for (const s of f.statuses) q.append('status', s);
  const pairs: [string, string][] = [['assignee', f.assignee], ['submittedFrom', f.submittedFrom], ['submittedTo', f.submittedTo], ['number', f.number],
    ['field', f.field], ['op', f.field ? f.op : ''], ['value', f.field ? f.value : ''], ['overdue', f.overdue], ['order', f.order], ['size', f.size]];
  for (const [k, v] of pairs) if (v !== '') q.set(k, v);
  if (f.attention !== '') q.set('attention', f.attention);
  for (const c of f.columns) q.append('col', c);
  if (f.view !== '') q.set('view', f.view);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return q.toString();
}

/** What a saved view keeps: the query string without the program, the view, the cursor and the page position. */
export function viewQuery(f: QueueForm): string {
  const q = new URLSearchParams(queueQuery({ ...f, view: '', cursor: '' }));
  q.delete('ProgramId');
  return q.toString();
}

/** The form as the domain's filter, or the problems of the controls that hold something the queue cannot use. */
export function queueFilter(f: QueueForm, timeZone: string): { filter: WorkQueueFilter; problems: QueueProblem[] } {
  const problems: QueueProblem[] = [];
  const day = (text: string, control: string, label: string) => {
    if (text === '') return null;
    const at = startOfDay(text, timeZone);
    if (at === null) problems.push({ fieldId: control, message: `${label} must be a date like 2026-05-31.` });
    return at;
  };
  const from = day(f.submittedFrom, 'filter-submitted-from', 'Submitted from');
  const toDay = day(f.submittedTo, 'filter-submitted-to', 'Submitted to');
  // "to" names the last day wanted, so the range ends where the next day begins.
  const to = toDay === null ? null : startOfDay(nextDay(f.submittedTo), timeZone);
  if (from !== null && to !== null && from >= to) problems.push({ fieldId: 'filter-submitted-to', message: 'Submitted to must not be before Submitted from.' });
  const [sort, direction] = (f.order in QUEUE_ORDERS ? f.order : 'updated-desc').split('-') as [WorkQueueFilter['sort'], 'asc' | 'desc'];
  if (f.overdue !== '' && f.overdue !== '1') problems.push({ fieldId: 'filter-overdue', message: 'Overdue only is either ticked or not.' });
  if (f.attention !== '' && f.attention !== 'any' && !(f.attention in ATTENTION_KINDS)) {
    problems.push({ fieldId: 'filter-attention', message: 'Choose one of the needs-attention choices offered.' });
  }
  if (!(f.order in QUEUE_ORDERS)) problems.push({ fieldId: 'filter-order', message: 'Choose one of the orders offered.' });
  const pageSize = Number(f.size);
  if (!(QUEUE_PAGE_SIZES as readonly number[]).includes(pageSize)) problems.push({ fieldId: 'filter-size', message: `Rows per page must be ${QUEUE_PAGE_SIZES.join(', ')}.` });
  const fields: QueueFieldFilter[] = [];
  if (f.field !== '') {
    if (!(f.op in QUEUE_OPERATORS)) problems.push({ fieldId: 'filter-op', message: 'Choose one of the comparisons offered.' });
    else {
      const op = f.op as QueueFieldFilter['operator'];
      const needsValue = op !== 'empty' && op !== 'notempty';
      if (needsValue && f.value === '') problems.push({ fieldId: 'filter-value', message: 'Enter the value to compare the data field with.' });
      fields.push({ fieldRef: f.field, operator: op, content: needsValue ? f.value : null });
    }
  }
  return {
    filter: {
      statuses: f.statuses, assignee: f.assignee === '' ? null : f.assignee, submittedFrom: from, submittedTo: to, number: f.number === '' ? null : f.number,
      fields, overdue: f.overdue === '1', sort, direction, columns: f.columns,
      attention: f.attention === 'any' ? ['reply', 'files', 'deadline', 'connection'] : f.attention in ATTENTION_KINDS ? [f.attention as AttentionKind] : [], pageSize: Number.isNaN(pageSize) ? 50 : pageSize, cursor: f.cursor === '' ? null : f.cursor,
    },
    problems,
  };
}
