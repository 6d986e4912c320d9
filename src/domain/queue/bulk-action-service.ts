import { createHash, randomUUID } from 'node:crypto';
import type { BulkActionRecord } from '../../store/bulk-action-queries.ts';
import { canRead, groupLimit, hasPrivilege } from '../roles/access.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { loadProgram, type ProgramContext } from '../projects/project-context.ts';
import { accessGroupNames, assignableStaff, sharesGroups } from '../projects/assignable-staff.ts';
import type { WorkflowService } from '../projects/workflow-service.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { TemplateMailService } from '../workflow/template-mail-service.ts';
import { readablePlaceholders } from '../mail-template.ts';
import { type BulkAction, type BulkActionView, bulkActionView, type BulkFormOptions } from './bulk-action-view.ts';
import type { WorkQueueFilter, WorkQueueService } from './work-queue-service.ts';

export type { BulkAction, BulkActionView, BulkFormOptions } from './bulk-action-view.ts';

/** The most projects one bulk action takes, selected or matched by the filter (the page says so). */
export const MAX_BULK_PROJECTS = 1000;

/** Which projects a bulk action takes: the ones ticked, or every project the queue's filter matches (at most MAX_BULK_PROJECTS). */
export type BulkTarget = { scope: 'selected'; projectIds: string[] } | { scope: 'filter'; filter: WorkQueueFilter };

/** A bulk action as the form sends it: the program, the form's key (for retries), what to do and to which projects. */
export interface BulkRequest { programRef: string; key: string; action: BulkAction; target: BulkTarget }

/** The single-project services a bulk action goes through, so that each project meets exactly their rules. */
export interface BulkActionServices {
  workflow: Pick<WorkflowService, 'setAssignee' | 'setStatus'>;
  templateMail: Pick<TemplateMailService, 'send'>;
  workQueue: Pick<WorkQueueService, 'matchingProjectIds'>;
}

/** How many projects' unchanged or refused outcomes are written in one transaction. */
const OUTCOME_BATCH = 50;

/** A project's outcome other than done, to be noted while it is still pending. */
interface Outcome { projectId: string; outcome: 'unchanged' | 'refused'; code?: string; message?: string; at: number }

// A form's key: what randomUUID gives, or any client's own token of the same alphabet.
const KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Bulk actions of the work queue: assign, move status (with a reason) or send a named mail template to each of up to
 * MAX_BULK_PROJECTS projects. Each project goes through the same service and change step as the single action (its
 * privileges, guards and audit row, which names the bulk action), one transaction per project, so a refusal of one
 * leaves the others done. The action and each project's outcome are stored (migration 031); a retry with the form's
 * key shows the stored result and changes nothing more.
 */
export class BulkActionService {
  readonly #deps: ServiceDeps<'programs' | 'projects' | 'accounts' | 'bulkActions'>;
  readonly #services: BulkActionServices;
  constructor(deps: ServiceDeps<'programs' | 'projects' | 'accounts' | 'bulkActions'>, services: BulkActionServices) {
    this.#deps = deps;
    this.#services = services;
  }

  /** What the queue's bulk form offers the caller: the actions their role holds, statuses with reasons, templates, staff, a fresh key. */
  async formOptions(caller: Caller, programRef: string): Promise<BulkFormOptions> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    // Staff limited to access groups none of the caller's projects are in could be assigned none of them.
    const callerGroups = groupLimit(ctx.role);
    const staff = (await assignableStaff(this.#deps.store.accounts, ctx.program, MAX_BULK_PROJECTS)).filter((s) => !s.user.disabled && sharesGroups(s, callerGroups));
    return {
      programId: ctx.program.id, key: randomUUID(), maxProjects: MAX_BULK_PROJECTS,
      may: { assign: hasPrivilege(ctx.role, 'assign'), status: hasPrivilege(ctx.role, 'moveStatus'), mail: hasPrivilege(ctx.role, 'inquiries') },
      assignees: staff.map(({ user: u, accessGroups }) => ({ email: u.email, name: u.name, onlyGroups: accessGroups ? accessGroupNames(ctx.program, accessGroups) : null }))
        .sort((a, b) => a.name.localeCompare(b.name) || a.email.localeCompare(b.email)),
      statuses: ctx.model.statuses.map((s) => ({ statusId: s.id, name: s.name, reasons: (s.reasons ?? []).map((r) => ({ reasonId: r.customId, name: r.name })) })),
      templates: (ctx.program.mailTemplates ?? []).map((t) => ({ templateId: t.customId, subject: readablePlaceholders(t.subject), text: readablePlaceholders(t.text) })),
    };
  }

  /**
   * Runs a bulk action, or (same user, same key) shows the one it repeats without changing anything more; the same key
   * with another action or other projects is refused (IDEMPOTENCY_KEY_REUSED). Returns the stored result.
   */
  async run(caller: Caller, request: BulkRequest): Promise<BulkActionView> {
    if (!KEY_PATTERN.test(request.key)) throw new ApiError('INVALID_REQUEST', 'The form has no valid key (BulkKey); reload the work queue and try again.');
    const ctx = await loadProgram(this.#deps, caller, request.programRef);
    const action = checkAction(request.action);
    const fingerprint = fingerprintOf(ctx.program.id, action, request.target);
    const held = await this.#deps.store.bulkActions.findBulkActionByKey(caller.user.id, request.key);
    if (held) return this.#replay(caller, ctx, held, fingerprint);
    const projectIds = await this.#targets(caller, ctx, request.target);
    const { clock, ids } = this.#deps;
    const id = ids.next();
    const createdAt = clock.now();
    const record = {
      id, programId: ctx.program.id, actorId: caller.user.id, key: request.key, fingerprint, kind: action.kind, params: { ...action },
      scope: request.target.scope, projectCount: projectIds.length, createdAt,
    };
    const inserted = await this.#deps.store.transaction(async (tx) => {
      if (!(await tx.bulkActions.insertBulkAction(record, projectIds))) return false;
      // The record of the bulk action itself; each project's own audit row names it too (change-project.ts).
      await tx.audit.write({
        action: 'bulk_action.run', actorId: caller.user.id, agencyId: ctx.program.agencyId, programId: ctx.program.id, projectId: null,
        requestId: caller.requestId, detail: { bulkActionId: id, kind: action.kind, scope: request.target.scope, projects: projectIds.length },
      }, createdAt, ids.next());
      return true;
    });
    if (!inserted) {
      // Another request with this key got in first (a double submit): show that one.
      const raced = await this.#deps.store.bulkActions.findBulkActionByKey(caller.user.id, request.key);
      if (!raced) throw new Error(`bulk action key ${request.key} neither inserted nor found`);
      return this.#replay(caller, ctx, raced, fingerprint);
    }
    const member: Caller = { ...caller, bulkActionId: id };
    // Outcomes other than `done` change no project, so they are written a batch at a time rather than in a write
    // transaction of their own per project (on SQLite each waits for the one write lock).
    const noted: Outcome[] = [];
    const flush = () => this.#deps.store.transaction(async (tx) => {
      for (const o of noted.splice(0)) await tx.bulkActions.setBulkOutcome(id, o.projectId, o);
    });
    try {
      for (const projectId of projectIds) {
        noted.push(await this.#runOne(member, ctx, action, projectId));
        if (noted.length >= OUTCOME_BATCH) await flush();
      }
    } finally {
      if (noted.length > 0) await flush();
    }
    await this.#deps.store.transaction((tx) => tx.bulkActions.finishBulkAction(id, clock.now()));
    return this.result(caller, ctx.program.id, id);
  }

  /** The stored result of one of the caller's bulk actions (NOT_FOUND for anyone else's). */
  async result(caller: Caller, programRef: string, bulkActionId: string, replayed = false): Promise<BulkActionView> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const action = ID_PATTERN.test(bulkActionId) ? await this.#deps.store.bulkActions.findBulkAction(bulkActionId) : null;
    if (!action || action.actorId !== caller.user.id || action.programId !== ctx.program.id) {
      throw new ApiError('NOT_FOUND', `Bulk action ${bulkActionId} was not found among your bulk actions in program ${ctx.program.id}.`);
    }
    const store = this.#deps.store;
    const [results, projects] = await Promise.all([store.bulkActions.listBulkResults(action.id), store.bulkActions.projectsOfBulkAction(action.id, ctx.program.id)]);
    // Numbers only of projects the caller may read: an id typed into the form must not reveal another's project.
    const readable = new Map(projects.filter((p) => canRead(caller, ctx.role, p)).map((p) => [p.id, p]));
    const userIds = new Set<string>();
    for (const r of results) for (const key of ['from', 'to'] as const) if (typeof r.detail?.[key] === 'string') userIds.add(r.detail[key]);
    const assignee = action.kind === 'assign' && typeof action.params.email === 'string' ? await store.accounts.findUserByEmail(action.params.email) : null;
    const [found, agency] = await Promise.all([store.accounts.usersByIds([...userIds]), store.accounts.findAgency(caller.user.agencyId)]);
    // The assignee the heading names: a user of the caller's agency (another agency's name is not the caller's to see).
    const users = assignee !== null && assignee.agencyId === caller.user.agencyId ? [...found, assignee] : found;
    return bulkActionView({ ctx, action, results, readable, users, now: this.#deps.clock.now(), replayed, ranBy: caller.user.name, agencyName: agency?.name ?? '' });
  }

  async #replay(caller: Caller, ctx: ProgramContext, held: BulkActionRecord, fingerprint: string): Promise<BulkActionView> {
    if (held.fingerprint !== fingerprint) {
      throw new ApiError('IDEMPOTENCY_KEY_REUSED', 'This form was already used for another bulk action; nothing was changed. Reload the work queue and choose again.');
    }
    return this.result(caller, ctx.program.id, held.id, true);
  }

  async #targets(caller: Caller, ctx: ProgramContext, target: BulkTarget): Promise<string[]> {
    const tooMany = () => new ApiError('INVALID_REQUEST', `A bulk action takes at most ${MAX_BULK_PROJECTS.toLocaleString('en-US')} projects; narrow the filter or select fewer.`);
    if (target.scope === 'filter') {
      // One more than the bound tells that there are too many, without counting the program.
      const ids = await this.#services.workQueue.matchingProjectIds(caller, ctx.program.id, target.filter, MAX_BULK_PROJECTS + 1);
      if (ids.length > MAX_BULK_PROJECTS) throw tooMany();
      if (ids.length === 0) throw new ApiError('INVALID_REQUEST', 'No projects match the filter; nothing was changed.');
      return ids;
    }
    const ids = [...new Set(target.projectIds)];
    if (ids.length === 0) throw new ApiError('INVALID_REQUEST', 'Select at least one project (or choose all projects matching the filter).');
    if (ids.length > MAX_BULK_PROJECTS) throw tooMany();
    for (const id of ids) if (!ID_PATTERN.test(id)) throw new ApiError('INVALID_PARAMETER', 'A selected project id is not a project id.');
    return ids;
  }

  // One project: the single action's service, whose change step records `done` in the change's transaction; what it
  // refused, or found already so, is returned to be noted (only on a project still pending: a done one keeps that).
  async #runOne(member: Caller, ctx: ProgramContext, action: BulkAction, projectId: string): Promise<Outcome> {
    const { workflow, templateMail } = this.#services;
    const programId = ctx.program.id;
    try {
      if (action.kind === 'assign') await workflow.setAssignee(member, programId, projectId, action.email);
      else if (action.kind === 'status') await workflow.setStatus(member, programId, projectId, action.statusRef, { reasonId: action.reasonId, message: action.message });
      else await templateMail.send(member, programId, projectId, action.template);
      return { projectId, outcome: 'unchanged', at: this.#deps.clock.now() };
    } catch (error) {
      // A fault that is no refusal (the database gone) stops the action; the projects not reached stay pending.
      if (!(error instanceof ApiError)) throw error;
      return { projectId, outcome: 'refused', code: error.code, message: error.message, at: this.#deps.clock.now() };
    }
  }
}

// Checks what does not depend on any project (a key or a text the form could not have sent); everything else is the
// single action's to refuse, per project.
function checkAction(action: BulkAction): BulkAction {
  if (action.kind === 'assign') return { kind: 'assign', email: action.email === null || action.email.trim() === '' ? null : action.email.trim() };
  if (action.kind === 'status') {
    if (action.statusRef.trim() === '') throw new ApiError('INVALID_REQUEST', 'Choose the status to move the projects to.');
    return { kind: 'status', statusRef: action.statusRef.trim(), reasonId: action.reasonId, message: action.message };
  }
  if (action.template.trim() === '') throw new ApiError('INVALID_REQUEST', 'Choose the mail template to send.');
  return { kind: 'mail', template: action.template.trim() };
}

// What a retry must repeat exactly: the program, the action and which projects (the filter, not what it matched then).
function fingerprintOf(programId: string, action: BulkAction, target: BulkTarget): string {
  const which = target.scope === 'selected' ? { selected: [...new Set(target.projectIds)] } : { filter: { ...target.filter, cursor: null, pageSize: 0 } };
  return createHash('sha256').update(JSON.stringify({ programId, action, which })).digest('base64url');
}
