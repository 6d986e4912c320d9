import type { Project, User } from '../../model/model.ts';
import { MAX_WRITE_TRANSACTION_MS } from '../../store/store.ts';
import type { BulkActionRecord, BulkOutcome, BulkProjectResult } from '../../store/bulk-action-queries.ts';
import type { ProgramContext } from '../projects/project-context.ts';
import { reasonName } from '../workflow/status-reasons.ts';
import { isTestProgram } from '../test-program.ts';

/** What a bulk action does to each project: assign (null: unassign), move status (with reason and message), or send a named mail template to the owner. */
export type BulkAction =
  | { kind: 'assign'; email: string | null }
  | { kind: 'status'; statusRef: string; reasonId: string | null; message: string | null }
  | { kind: 'mail'; template: string };

/** What the queue's bulk form offers. */
export interface BulkFormOptions {
  programId: string;
  /** A new key for the form: a retry of its post finds the action it made. */
  key: string;
  maxProjects: number;
  /** The actions the caller's role holds the privilege of (assign, moveStatus, inquiries). */
  may: { assign: boolean; status: boolean; mail: boolean };
  /** Staff who may be assigned (those the caller's projects could reach); `onlyGroups` names the access groups a limited one reaches (projects elsewhere are refused, each on its own row). */
  assignees: { email: string; name: string; onlyGroups: string[] | null }[];
  statuses: { statusId: string; name: string; reasons: { reasonId: string; name: string }[] }[];
  /** The program's named mail templates, their subject and text with placeholders in words (readablePlaceholders). */
  templates: { templateId: string; subject: string; text: string }[];
}

/** One project of a bulk action's result: its number (when the caller may read it), what happened and why. */
export interface BulkProjectView {
  projectId: string;
  /** False for an id the caller may not read (or of no project of the program): shown as sent, without a link. */
  readable: boolean;
  number: string | null; outcome: BulkOutcome; text: string; code: string | null;
}

/** A bulk action's stored result, as its result page shows it. */
export interface BulkActionView {
  id: string; agencyName: string; programId: string; programName: string; kind: BulkAction['kind'];
  /** The program is a test copy (src/domain/programs/test-program.ts): every page of it shows the test banner. */
  testProgram: boolean;
  /** The action in words ("Assign to robin@example.org", "Move to Approved, reason Fast track"). */
  description: string;
  scope: 'selected' | 'filter'; ranBy: string; createdAt: number; finishedAt: number | null;
  /** `interrupted`: still running, but no project has been finished for longer than a change may take (the process stopped). */
  state: 'running' | 'finished' | 'interrupted';
  counts: Record<BulkOutcome, number>;
  projects: BulkProjectView[];
  /** True when this answer repeats the stored result for a retry of the same form. */
  replayed: boolean;
}

/** What bulkActionView builds a view from. */
export interface BulkViewInput {
  ctx: ProgramContext; action: BulkActionRecord; results: BulkProjectResult[]; readable: Map<string, Project>; users: User[];
  now: number; replayed: boolean; ranBy: string; agencyName: string;
}

function describe(ctx: ProgramContext, a: BulkActionRecord, users: User[]): string {
  const p = a.params;
  if (a.kind === 'assign') {
    if (typeof p.email !== 'string') return 'Unassign';
    // People are named as the result's rows name them; an address that is nobody's stays as it was typed.
    const email = p.email.toLowerCase();
    return `Assign to ${users.find((u) => u.email.toLowerCase() === email)?.name ?? p.email}`;
  }
  if (a.kind === 'status') {
    const ref = String(p.statusRef);
    const status = ctx.model.statuses.find((s) => s.id === ref || s.customId === ref);
    const reason = typeof p.reasonId === 'string' && p.reasonId !== '' ? `, reason ${status ? reasonName(status, p.reasonId) : p.reasonId}` : '';
    return `Move to ${status?.name ?? ref}${reason}`;
  }
  return `Send the mail "${String(p.template)}" to each project's owner`;
}

function doneText(ctx: ProgramContext, r: BulkProjectResult, nameOf: (id: unknown) => string): string {
  const d = r.detail ?? {};
  if (d.action === 'project.assignee.set') return d.to === null ? `Unassigned (was ${nameOf(d.from)})` : `Assigned to ${nameOf(d.to)} (was ${nameOf(d.from)})`;
  if (d.action === 'project.status.set') {
    const name = (id: unknown) => ctx.model.statuses.find((s) => s.id === id)?.name ?? String(id);
    return `Moved from ${name(d.from)} to ${name(d.to)}`;
  }
  if (d.action === 'project.mail.sent') return `Mail "${String(d.template)}" queued to the owner`;
  return 'Done';
}

/** The result page's view of a stored bulk action: each project's outcome in words, counts and state. */
export function bulkActionView(input: BulkViewInput): BulkActionView {
  const { ctx, action, results, readable, users, now } = input;
  const nameOf = (id: unknown) => (id === null || id === undefined ? 'unassigned' : users.find((u) => u.id === id)?.name ?? String(id));
  const counts: Record<BulkOutcome, number> = { pending: 0, done: 0, unchanged: 0, refused: 0 };
  for (const r of results) counts[r.outcome] += 1;
  const lastAt = Math.max(action.createdAt, ...results.map((r) => r.at ?? 0));
  const state = action.state === 'finished' ? 'finished' : now - lastAt > 2 * MAX_WRITE_TRANSACTION_MS ? 'interrupted' : 'running';
  const pending = state === 'interrupted' ? 'Not processed: the bulk action was interrupted' : 'Waiting';
  return {
    id: action.id, agencyName: input.agencyName, programId: ctx.program.id, programName: ctx.program.name, testProgram: isTestProgram(ctx.program), kind: action.kind as BulkAction['kind'], description: describe(ctx, action, users),
    scope: action.scope, ranBy: input.ranBy, createdAt: action.createdAt, finishedAt: action.finishedAt, state, counts, replayed: input.replayed,
    projects: results.map((r) => ({
      projectId: r.projectId, readable: readable.has(r.projectId), number: readable.get(r.projectId)?.number ?? null, outcome: r.outcome, code: r.code,
      text: r.outcome === 'done' ? doneText(ctx, r, nameOf)
        : r.outcome === 'unchanged' ? 'Already so; nothing changed'
          : r.outcome === 'refused' ? (r.message ?? 'Refused') : pending,
    })),
  };
}
