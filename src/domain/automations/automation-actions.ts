import { createHash } from 'node:crypto';
import { isCelList } from '@bufbuild/cel';
import type { AutomationAction } from '../../model/automation.ts';
import type { FieldValue, Project, User } from '../../model/model.ts';
import { statusAfterNote } from '../inquiries/inquiry-thread.ts';
import { ApiError } from '../api-error.ts';
import { renderMail } from '../mail-template.ts';
import type { MailTemplate } from '../../model/notification.ts';
import { namedTemplate } from '../workflow/named-mail.ts';
import { checkMoveReason, type MoveReason } from '../workflow/status-reasons.ts';
import { applicantDeadlinesText } from '../deadlines/applicant-deadlines-text.ts';
import { endDeadlineIn, startDeadlineIn } from '../deadlines/deadline-service.ts';
import { checkValue } from '../projects/value-check.ts';
import { landingUrl, statusById } from '../projects/project-context.ts';
import { formatProjectNumber } from '../projects/submit-service.ts';
import { userReaches } from '../roles/user-reaches.ts';
import { grantReaches, isStaff, roleIn } from '../roles/access.ts';
import { decideForm, textOf } from '../rules/form-rules.ts';
import { sameValue } from '../rules/rule-state.ts';
import { type AutomationEnv, snapshot } from './automation-state.ts';
import { documentTemplates } from '../document-templates.ts';
import { REQUEST_ACTION, requestDocument } from '../document-request.ts';
import type { MailAttachmentRef } from '../../store/mail-queries.ts';
import type { Trigger } from './triggers-of-change.ts';
import { createRelatedIn } from '../projects/related-project.ts';

/** What one action did: ran (what it did, for the record, and the triggers it caused), or was skipped and why. */
export type ActionOutcome =
  | { ran: true; summary: Record<string, unknown>; triggers: Trigger[] }
  | { ran: false; reason: string };

const skip = (reason: string): ActionOutcome => ({ ran: false, reason });

/** Runs one action of an automation in the change's transaction; checks first, so a skipped action wrote nothing. */
export async function runAction(env: AutomationEnv, action: AutomationAction, index: number): Promise<ActionOutcome> {
  switch (action.do) {
    case 'moveStatus': return moveStatus(env, action);
    case 'setField': return setField(env, action.fieldId, index);
    case 'assign': return assign(env, action);
    case 'openInquiry': return openInquiry(env, action);
    case 'sendMail': return sendMail(env, action);
    case 'emitEvent':
      env.records.push({ action: 'automation.event', detail: { automation: env.automation.customId, name: action.name }, role: env.role });
      return { ran: true, summary: { name: action.name }, triggers: [] };
    case 'startDeadline': return startDeadline(env, action.deadlineId);
    case 'satisfyDeadline': return endDeadline(env, action.deadlineId, 'satisfied');
    case 'cancelDeadline': return endDeadline(env, action.deadlineId, 'cancelled');
    case 'generateDocument': return generateDocument(env, action.documentId);
    case 'createRelatedProject': return createRelatedProject(env, action.relation);

    case 'callConnection': return callConnection(env, action.connectionId, index);
  }
}

/**
 * Creates the related project one of the program's relations describes, in this change (so it commits with the change
 * that triggered it, or not at all, and a retried request makes it once): once per project, so a later run finds the
 * one made before and leaves it.
 */
async function createRelatedProject(env: AutomationEnv, relationId: string): Promise<ActionOutcome> {
  const relation = (env.ctx.program.relations ?? []).find((r) => r.customId === relationId);
  if (!relation) return skip(`the program no longer has the relation ${relationId}`);
  const made = await env.tx.relations.findRelationsBy(env.state.project.id, relationId);
  if (made.length > 0) return { ran: true, summary: { relation: relationId, unchanged: true, projectId: made[0]!.toProjectId }, triggers: [] };
  const reactions = env.deps.reactions;
  if (!reactions) return skip('related projects are created only in a project\'s change');
  let created: Awaited<ReturnType<typeof createRelatedIn>>;
  try {
    created = await createRelatedIn(env.tx, { ...env.deps, reactions }, env.caller, { ctx: env.ctx, project: env.state.project }, relation, env.now, 'automation');
  } catch (error) {
    if (error instanceof ApiError) return skip(error.message);
    throw error;
  }
  record(env, 'project.relation.add', created.detail);
  return { ran: true, summary: { relation: relationId, projectId: created.project.id }, triggers: [] };
}

/**
 * Asks for a call of one of the program's connections: recorded in this change (connection_calls), made after it
 * commits by the connections task (src/domain/connections), never under this change's lock. Its idempotency key is
 * derived from the triggering change (the project at its version before this change, the automation, the action), so
 * the agency's system sees one key per triggering change however often the call is attempted.
 */
async function callConnection(env: AutomationEnv, connectionId: string, index: number): Promise<ActionOutcome> {
  if (!(env.ctx.program.connections ?? []).some((c) => c.customId === connectionId)) return skip(`the program no longer has the connection ${connectionId}`);
  const p = env.state.project;
  const idempotencyKey = createHash('sha256').update(`${p.id}\n${p.version}\n${env.automation.customId}\n${index}`).digest('hex').slice(0, 40);
  const id = env.deps.ids.next();
  await env.tx.connections.insertCall({
    id, programId: env.ctx.program.id, projectId: p.id, connectionId, automation: env.automation.customId, idempotencyKey, state: 'queued',
    attempts: 0, nextAttemptAt: env.now, leaseUntil: null, response: null, lastError: null, createdAt: env.now, updatedAt: env.now,
  });
  record(env, 'project.connection.request', { connection: connectionId, callId: id });
  return { ran: true, summary: { connection: connectionId, callId: id }, triggers: [] };
}

/** Asks for one of the program's documents, as GenerateDocument does: recorded in this change, rendered after it commits. */
async function generateDocument(env: AutomationEnv, documentId: string): Promise<ActionOutcome> {
  const template = documentTemplates(env.ctx.model).find((t) => t.customId === documentId);
  if (!template) return skip(`the program no longer has the document ${documentId}`);
  const { request, detail } = await requestDocument(env.tx, env.deps.ids, {
    programId: env.ctx.program.id, projectId: env.state.project.id, template, requestedBy: env.caller.user.id, now: env.now, automation: env.automation.customId,
  });
  record(env, REQUEST_ACTION, detail);
  return { ran: true, summary: { document: documentId, requestId: request.id }, triggers: [] };
}

/**
 * The generated documents a mail carries: for each, the request still being worked on in this project (the mail waits
 * for its file; a request this very change made included), else the newest version already generated.
 */
async function mailAttachments(env: AutomationEnv, refs: readonly string[]): Promise<MailAttachmentRef[] | string> {
  const out: MailAttachmentRef[] = [];
  const requests = refs.length > 0 ? await env.tx.documents.listProjectDocumentRequests(env.state.project.id) : [];
  for (const ref of refs) {
    const template = documentTemplates(env.ctx.model).find((t) => t.customId === ref);
    if (!template) return `the program no longer has the document ${ref}`;
    const base = { projectId: env.state.project.id, documentId: ref, attachmentId: template.attachmentId };
    const pending = requests.find((r) => r.documentId === ref && r.state === 'queued');
    if (pending) {
      out.push({ ...base, requestId: pending.id, version: null });
      continue;
    }
    const file = await env.tx.attachments.getAttachment(env.state.project.id, template.attachmentId);
    if (!file) return `the document ${ref} has not been generated for this project`;
    out.push({ ...base, requestId: null, version: file.version });
  }
  return out;
}

/** Starts (or restarts) one of the program's deadlines on the project, as StartProjectDeadline does. */
async function startDeadline(env: AutomationEnv, deadlineId: string): Promise<ActionOutcome> {
  const def = (env.ctx.program.deadlines ?? []).find((d) => d.customId === deadlineId);
  if (!def) return skip(`the program no longer has the deadline ${deadlineId}`);
  let started: Awaited<ReturnType<typeof startDeadlineIn>>;
  try {
    started = await startDeadlineIn(env.tx, env.deps.ids, env.ctx, env.state.project, def, env.now, env.caller.user.id);
  } catch (error) {
    if (error instanceof ApiError) return skip(error.message);
    throw error;
  }
  record(env, 'project.deadline.start', started.detail);
  return { ran: true, summary: { deadline: deadlineId, dueDate: started.row.dueDate }, triggers: [{ kind: 'deadline.started', deadlineId }] };
}

/**
 * Ends a running deadline as satisfied or cancelled. One that is not running (never started, already passed or ended)
 * is left as it is and the action counts as done: "the answer came" satisfies whatever of the question's deadlines still runs.
 */
async function endDeadline(env: AutomationEnv, deadlineId: string, state: 'satisfied' | 'cancelled'): Promise<ActionOutcome> {
  const def = (env.ctx.program.deadlines ?? []).find((d) => d.customId === deadlineId);
  if (!def) return skip(`the program no longer has the deadline ${deadlineId}`);
  const row = (await env.tx.deadlines.listProjectDeadlines(env.state.project.id)).find((d) => d.deadlineId === deadlineId);
  if (!row || row.state !== 'running') return { ran: true, summary: { deadline: deadlineId, unchanged: true, state: row ? row.state : 'never started' }, triggers: [] };
  const detail = await endDeadlineIn(env.tx, row, def, state, env.now, env.caller.user.id);
  record(env, state === 'satisfied' ? 'project.deadline.satisfy' : 'project.deadline.cancel', detail);
  return { ran: true, summary: { deadline: deadlineId }, triggers: [{ kind: state === 'satisfied' ? 'deadline.satisfied' : 'deadline.cancelled', deadlineId }] };
}

function record(env: AutomationEnv, action: string, detail: Record<string, unknown>): void {
  env.records.push({ action, detail: { ...detail, automation: env.automation.customId }, role: env.role });
}

async function moveStatus(env: AutomationEnv, action: Extract<AutomationAction, { do: 'moveStatus' }>): Promise<ActionOutcome> {
  const { ctx, state, tx, now } = env;
  const target = ctx.model.statuses.find((s) => s.id === action.statusId);
  if (!target) return skip('the status was retired from the program');
  const from = statusById(ctx.model, state.project.statusId);
  if (from.id === target.id) return skip(`the project is already in status "${target.name}"`);
  // Only along the workflow: an automation moves as the program allows, whoever triggered it.
  if (!from.next.includes(target.id)) return skip(`the workflow has no transition from "${from.name}" to "${target.name}"`);
  // The status's reasons bind an automation as they bind staff (a reason needed only from some statuses is known now).
  let reason: MoveReason;
  try {
    reason = checkMoveReason(target, from.id, { reasonId: action.reasonId ?? null, message: action.message ?? null });
  } catch (error) {
    if (error instanceof ApiError) return skip(error.message);
    throw error;
  }
  const number = state.project.number ?? (target.isInitial ? null : formatProjectNumber(ctx.program, await tx.projects.takeProjectNumber(ctx.program.id)));
  await tx.projects.insertHistory({ id: env.deps.ids.next(), projectId: state.project.id, statusId: target.id, changedAt: now, changedBy: env.caller.user.id, reportAs: 'normal', ...reason, automation: env.automation.customId });
  const changes = { number, statusId: target.id, statusAt: now };
  const numbered = number !== state.project.number;
  Object.assign(env.changes, changes);
  state.project = { ...state.project, ...changes };
  record(env, 'project.status.set', { from: from.id, to: target.id, ...(numbered ? { number } : {}), ...(reason.reasonId ? { reasonId: reason.reasonId } : {}) });
  return {
    ran: true, summary: { from: from.customId ?? from.name, to: target.customId ?? target.name },
    triggers: [{ kind: 'status.left', statusId: from.id }, { kind: 'status.entered', statusId: target.id }],
  };
}

async function setField(env: AutomationEnv, fieldId: string, index: number): Promise<ActionOutcome> {
  const { ctx, state, tx, now } = env;
  const field = ctx.model.fields.find((f) => f.id === fieldId);
  const rule = env.compiled.get(index);
  if (!field || !rule) return skip('the field was retired from the program');
  const snap = await snapshot(env);
  const value = rule.evaluate(snap.bindings);
  if (value === undefined) return skip(`the value of ${field.customId ?? field.name} cannot be decided (its expression reads an empty field or fails)`);
  let next: FieldValue;
  if (field.multiValue) {
    const items = isCelList(value) ? [...(value as unknown as Iterable<unknown>)].map((v) => textOf({ ...field, multiValue: false }, v as never)) : [];
    if (items.some((v) => v === null)) return skip(`the value is not a list of ${field.type} values`);
    next = { fieldId, value: null, values: items as string[], updatedAt: now, updatedBy: env.caller.user.id };
  } else {
    const text = textOf(field, value);
    if (text === null) return skip(`the value is not a ${field.type}`);
    next = { fieldId, value: text, values: null, updatedAt: now, updatedBy: env.caller.user.id };
  }
  const list = ctx.model.lists.find((l) => l.id === field.listId);
  for (const text of next.values ?? (next.value === null ? [] : [next.value])) {
    const problem = checkValue(field, list, text);
    if (problem) return skip(`the field refuses the value: ${problem.message}`);
  }
  // The field's validations on the forms it is on hold for an automation's value as for a person's.
  const after = new Map(snap.values);
  after.set(fieldId, next);
  for (const form of ctx.model.forms.filter((f) => f.fields.some((p) => p.fieldId === fieldId))) {
    const failed = decideForm(ctx.model, form, after, snap.ruleContext).failed.find((v) => v.fieldId === fieldId);
    if (failed) return skip(`a rule of form ${form.customId ?? form.name} refuses the value: ${failed.message}`);
  }
  const ref = field.customId ?? field.name;
  if (sameValue(snap.values.get(fieldId), next)) return { ran: true, summary: { field: ref, unchanged: true }, triggers: [] };
  const formId = ctx.model.forms.find((f) => f.fields.some((p) => p.fieldId === fieldId))?.id ?? ctx.model.forms[0]?.id ?? '';
  await tx.projects.upsertValues(state.project.id, formId, [next]);
  record(env, 'project.field.set', { fields: [fieldId] });
  return { ran: true, summary: { field: ref }, triggers: [{ kind: 'field.changed', fieldId }] };
}

/**
 * The active users who hold a role in the program by a grant that reaches the project (a grant limited to access
 * groups reaches only the projects of its groups: `reached`'s, the groups as the run has left them), by e-mail address.
 */
async function holders(env: AutomationEnv, role: string, reached: Pick<Project, 'accessGroups'>): Promise<User[]> {
  const grants = (await env.tx.accounts.listGrantDetails({ programId: env.ctx.program.id })).filter((g) => g.role === role && grantReaches(g, reached));
  const users = await env.tx.accounts.usersByIds(grants.map((g) => g.userId));
  return users.filter((u) => !u.disabled).sort((a, b) => a.email.localeCompare(b.email));
}

/**
 * The project's access groups as the run has left it so far. The access groups' follow-up gave them for the change's
 * own writes and writes them again only after the automations; so after an earlier action of the run changed the
 * project (a `moveStatus`, a `setField`) they are evaluated again, with the same rules, on the project as it stands in
 * the transaction: what an assignment, or a mail's recipient, must reach is the project the change will commit, not the
 * one before the move.
 */
async function groupsNow(env: AutomationEnv): Promise<Pick<Project, 'accessGroups'>> {
  if ((env.ctx.program.accessGroups ?? []).length === 0 || !env.records.some((r) => r.action !== 'automation.run')) return env.state.project;
  return { accessGroups: await env.groupsOf(env.tx, env.ctx, env.state.project, env.now) };
}

async function assign(env: AutomationEnv, action: Extract<AutomationAction, { do: 'assign' }>): Promise<ActionOutcome> {
  const { ctx, state, tx } = env;
  let chosen: User | null = null;
  let how: Record<string, unknown>;
  const reached = await groupsNow(env);
  if (action.user !== null) {
    const user = await tx.accounts.findUserByEmail(action.user);
    const grants = user ? await tx.accounts.listGrants(user.id) : [];
    if (!user || user.disabled || !isStaff(roleIn({ user, apiKeyId: '', grants }, ctx.program))) {
      return skip(`no active staff member of the program has the e-mail address "${action.user}"`);
    }
    // As SetAssignee refuses: a staff member whose grant is limited to access groups is assigned only their projects.
    if (!(await userReaches(tx.accounts, user, ctx.program, reached))) {
      return skip(`the staff member "${action.user}" cannot read the project (their grant is limited to access groups it is not in)`);
    }
    chosen = user;
    how = {};
  } else {
    const candidates = (await holders(env, action.role!, reached)).filter((u) => isStaff(roleIn({ user: u, apiKeyId: '', grants: [{ userId: u.id, programId: ctx.program.id, role: action.role!, sensitive: false }] }, ctx.program)));
    if (candidates.length === 0) return skip(`nobody active holds the role ${action.role} (with a role that reads every project)`);
    if (action.pick === 'roundRobin') {
      const turn = await tx.projects.takeAutomationTurn(ctx.program.id, env.automation.customId);
      chosen = candidates[turn % candidates.length]!;
      how = { role: action.role, pick: 'roundRobin' };
    } else {
      // Open: in a status the workflow can still move on from; a final status closes a project.
      const closed = ctx.model.statuses.filter((s) => s.next.length === 0).map((s) => s.id);
      const load = await tx.projects.countOpenAssigned(ctx.program.id, candidates.map((u) => u.id), closed);
      const count = (u: User) => (load.get(u.id) ?? 0) - (state.project.assigneeId === u.id && !closed.includes(state.project.statusId) ? 1 : 0);
      chosen = candidates.reduce((best, u) => (count(u) < count(best) ? u : best));
      how = { role: action.role, pick: 'leastLoaded', openProjects: count(chosen) };
    }
  }
  if (state.project.assigneeId === chosen.id) return { ran: true, summary: { to: chosen.email, unchanged: true, ...how }, triggers: [] };
  record(env, 'project.assignee.set', { from: state.project.assigneeId, to: chosen.id });
  env.changes.assigneeId = chosen.id;
  state.project = { ...state.project, assigneeId: chosen.id };
  return { ran: true, summary: { to: chosen.email, ...how }, triggers: [] };
}

/** The placeholders of an automation's texts, as notification mails fill them in. */
async function placeholders(env: AutomationEnv): Promise<Record<string, string>> {
  const p = env.state.project;
  return {
    deadlines: await applicantDeadlinesText(env.tx, env.ctx.program, p.id),
    projectNumber: p.number ?? '(not yet submitted)', status: statusById(env.ctx.model, p.statusId).name,
    link: env.deps.publicUrl === undefined ? '' : landingUrl(env.deps.publicUrl, p), programName: env.ctx.program.name,
  };
}

async function openInquiry(env: AutomationEnv, action: Extract<AutomationAction, { do: 'openInquiry' }>): Promise<ActionOutcome> {
  const { ctx, state, tx, now, caller, deps } = env;
  const text = renderMail({ subject: action.subject, text: action.text }, await placeholders(env));
  const status = statusAfterNote('Open', { byStaff: true, visibleToApplicant: action.visibleToApplicant });
  const thread = {
    id: deps.ids.next(), programId: ctx.program.id, projectId: state.project.id, subject: text.subject, status, externalId: null,
    createdAt: now, createdBy: caller.user.id, updatedAt: now, updatedBy: caller.user.id,
  };
  await tx.inquiries.insertThread(thread);
  const note = await tx.inquiries.insertNote({ id: deps.ids.next(), threadId: thread.id, authorId: caller.user.id, createdAt: now, text: text.text, visibleToApplicant: action.visibleToApplicant });
  record(env, 'inquiry.thread.open', { threadId: thread.id, noteId: note.id, visibleToApplicant: action.visibleToApplicant, status });
  return { ran: true, summary: { threadId: thread.id }, triggers: [{ kind: 'inquiry.note_added', by: 'staff', visibleToApplicant: action.visibleToApplicant }] };
}

async function sendMail(env: AutomationEnv, action: Extract<AutomationAction, { do: 'sendMail' }>): Promise<ActionOutcome> {
  const { tx, state, now, deps } = env;
  let to: User[];
  // Staff are mailed only about a project they reach as the run has left it (after a move, the groups it moved into).
  if (action.to === 'role') to = await holders(env, action.role!, await groupsNow(env));
  else {
    const id = action.to === 'owner' ? state.project.ownerId : state.project.assigneeId;
    if (id === null) return skip('the project has no assignee');
    const user = await tx.accounts.findUserById(id);
    to = user && !user.disabled ? [user] : [];
    // An assignee limited to access groups the project has left since (or leaves by this run's move) cannot read it, so is not mailed about it.
    if (to.length === 1 && action.to === 'assignee' && !(await userReaches(tx.accounts, to[0]!, env.ctx.program, await groupsNow(env)))) {
      return skip('the project\'s assignee cannot read it now (their grant is limited to access groups it is not in)');
    }
  }
  if (to.length === 0) return skip(action.to === 'role' ? `nobody active holds the role ${action.role}` : `the project's ${action.to} is no longer an active user`);
  let template: MailTemplate = { subject: action.subject, text: action.text };
  if (action.template) {
    try {
      template = namedTemplate(env.ctx.program, action.template);
    } catch (error) {
      if (error instanceof ApiError) return skip(error.message);
      throw error;
    }
  }
  const attachments = await mailAttachments(env, action.attach ?? []);
  if (typeof attachments === 'string') return skip(attachments);
  const mail = renderMail(template, await placeholders(env));
  for (const user of to) await tx.mail.enqueueMail({ id: deps.ids.next(), kind: 'automation', eventId: null, to: user.email, ...mail, createdAt: now, projectId: state.project.id, toUserId: user.id, attachments });
  return { ran: true, summary: { to: to.map((u) => u.email), ...(attachments.length > 0 ? { attach: attachments.map((a) => a.documentId) } : {}) }, triggers: [] };
}
