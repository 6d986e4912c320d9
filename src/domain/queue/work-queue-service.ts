import { deadlineView } from '../deadlines/deadline-service.ts';
import { groupLimit, hasSensitivePrivilege, isStaff, mayReadForm, staffRoles } from '../roles/access.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import type { DataField, FieldType, ProgramRole } from '../../model/model.ts';
import { loadProgram, type ProgramContext, statusById } from '../projects/project-context.ts';
import { resolveFieldCondition } from '../projects/search-service.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { shownValue } from '../projects/shown-value.ts';
import type { ProjectByDataQuery } from '../views.ts';
import type { AttentionKind, QueueKey, WorkQueueQuery, WorkQueueRow } from '../../store/work-queue-queries.ts';
import { ATTENTION } from '../../store/queue-view-queries.ts';
import { isTestProgram } from '../test-program.ts';
import {
  ATTENTION_KINDS, daysSince, DEFAULT_QUEUE_COLUMNS, FIELD_COLUMN_PREFIX, MAX_QUEUE_COLUMNS, QUEUE_COLUMNS, QUEUE_COUNT_BOUND, type QueueColumnId,
} from './queue-columns.ts';

/** The page sizes the work queue offers. */
export const QUEUE_PAGE_SIZES = [25, 50, 100] as const;

/** The most staff members the assignee filter names (by name); anyone else is still found by e-mail address. */
export const QUEUE_ASSIGNEE_CHOICES = 500;

/** How many projects one read of the CSV export takes; the export never holds more than this many rows. */
export const CSV_CHUNK = 500;

/** A data-field condition of the queue, with GetProjectsByData's operators. */
export type QueueFieldFilter = ProjectByDataQuery['fields'][number];

/** What the work queue is asked for: filters (combined with AND), order, page size and the cursor of the page. */
export interface WorkQueueFilter {
  /** Status ids or custom ids; empty for every status. */
  statuses: string[];
  /** `me`, `unassigned`, a staff member's e-mail address, or null for anyone. */
  assignee: string | null;
  /** First submitted at or after `from` and before `to` (epoch ms), each optional. */
  submittedFrom: number | null;
  submittedTo: number | null;
  number: string | null;
  fields: QueueFieldFilter[];
  /**
   * Only overdue projects: a running deadline past its due time, or a passed deadline while the project's status
   * still allows a move onward (a passed deadline cannot be satisfied; restarting it or closing the project ends it).
   */
  overdue: boolean;
  /** `due`: the running deadline due first, soonest first in `asc`; projects without a running deadline come last. */
  sort: 'updated' | 'created' | 'due';
  direction: 'asc' | 'desc';
  /** Only projects needing attention for one of these reasons (any of them); empty for every project. */
  attention: AttentionKind[];
  /** The chosen columns (QUEUE_COLUMNS ids and `field:<ref>`), in order; empty for DEFAULT_QUEUE_COLUMNS. */
  columns: string[];
  pageSize: number;
  /** Where the page starts, as a `nextCursor` or `previousCursor` gave it; null for the first page. */
  cursor: string | null;
  /** Only these projects (a bulk action's selection, src/domain/queue/bulk-action-service.ts); left out for any. */
  projectIds?: string[];
}

/** One project in the queue, as staff see it. */
export interface WorkQueueRowView {
  projectId: string; number: string | null; applicant: string; status: string; assignee: string | null;
  submittedAt: number | null; createdAt: number; lastChange: number;
  /** The running deadline due first (src/domain/deadlines): its name, the local day it is due by, and whether it is overdue; null for none. */
  nextDeadline: { name: string; dueDate: string; overdue: boolean } | null;
  /** Whole days since the project entered its current status. */
  daysInStatus: number;
  /** The last change an applicant made (null: none recorded). */
  lastApplicantActivity: number | null;
  /** Why the project needs attention (none: it does not). */
  attention: AttentionKind[];
  /** The shown values of the chosen data-field columns, by column id (sensitive values masked unless revealed). */
  values: Record<string, string>;
}

/** A column of the queue: its id (`field:<ref>` for a data field) and heading. */
export interface QueueColumnView { id: string; label: string }

/** A count that stops at QUEUE_COUNT_BOUND: exact when `more` is false, else "more than `count`". */
export interface BoundedCount { count: number; more: boolean }

/** A field staff may filter the queue on. */
export interface QueueFieldView { fieldId: string; customId: string | null; name: string; type: FieldType; sensitive: boolean }

/** A page of a program's work queue, with what the filter form offers. */
export interface WorkQueueView {
  agencyName: string; programId: string; programName: string; role: ProgramRole;
  /** The program is a test copy (src/domain/programs/test-program.ts): every page of it shows the test banner. */
  testProgram: boolean;
  statuses: { statusId: string; name: string }[];
  fields: QueueFieldView[];
  /** The staff members the assignee filter offers besides "me" and "unassigned": whoever may be assigned, by name. */
  assignees: { email: string; name: string }[];
  rows: WorkQueueRowView[];
  /** The cursor of the next page; null on the last one. */
  nextCursor: string | null;
  /** The cursor of the page before this one (read backwards from this page's first row); null on the first page. */
  previousCursor: string | null;
  /** True on the first page of the filtered queue. */
  atStart: boolean;
  /** The columns shown, in order, and every column the caller may choose. */
  columns: QueueColumnView[];
  columnChoices: QueueColumnView[];
  /** How many projects match the filters (bounded). */
  count: BoundedCount;
  /** How many of the program's projects need attention, for any reason and for each (bounded each). */
  attentionCounts: Record<AttentionKind | 'any', BoundedCount>;
}

/** The CSV export of a filtered queue: its columns and its rows, read a chunk at a time as they are consumed. */
export interface WorkQueueExport { fileName: string; header: string[]; rows: AsyncIterable<string[]> }

// The cursor names the order it was made for, so a cursor cannot continue a page in another order. A cursor that
// reads backwards (to the previous page) says so in a fifth element; forward cursors keep the four of old links.
function encodeCursor(f: WorkQueueFilter, key: QueueKey, backwards = false): string {
  return Buffer.from(JSON.stringify([f.sort, f.direction, key.at, key.id, ...(backwards ? ['back'] : [])])).toString('base64url');
}

function decodeCursor(f: WorkQueueFilter): { key: QueueKey; backwards: boolean } | undefined {
  if (f.cursor === null) return undefined;
  const invalid = new ApiError('INVALID_PARAMETER', 'The cursor is not one this queue gave out for this order; start again from the first page.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(f.cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid;
  }
  if (!Array.isArray(parsed) || (parsed.length !== 4 && parsed.length !== 5)) throw invalid;
  const [sort, direction, at, id, way] = parsed as unknown[];
  if (sort !== f.sort || direction !== f.direction || !Number.isSafeInteger(at) || typeof id !== 'string' || id.length > 64) throw invalid;
  if (parsed.length === 5 && way !== 'back') throw invalid;
  return { key: { at: at as number, id }, backwards: way === 'back' };
}

function keyOf(row: WorkQueueRow): QueueKey {
  return { at: row.at, id: row.project.id };
}

/**
 * Staff read a choice by its label everywhere, so the queue's equals / does-not-equal filter takes the label (in any
 * case) as well as the stored value; GetProjectsByData in the API compares stored values only.
 */
function byValueOrLabel(ctx: ProgramContext, c: QueueFieldFilter): QueueFieldFilter {
  if (c.content === null || (c.operator !== 'eq' && c.operator !== 'ne')) return c;
  const field = ctx.model.fields.find((f) => f.id === c.fieldRef || f.customId === c.fieldRef);
  // A table's column (`Inverters.Make`) takes the labels of the column's list, as a choice field does.
  const dot = c.fieldRef.lastIndexOf('.');
  const table = field || dot <= 0 ? undefined : ctx.model.fields.find((f) => f.type === 'table' && (f.id === c.fieldRef.slice(0, dot) || f.customId === c.fieldRef.slice(0, dot)));
  const listId = field ? field.listId : table?.table?.columns.find((col) => col.customId === c.fieldRef.slice(dot + 1))?.listId ?? null;
  const choices = ctx.model.lists.find((l) => listId !== null && l.id === listId)?.choices ?? [];
  const wanted = c.content.trim().toLowerCase();
  const choice = choices.find((x) => x.value === c.content) ?? choices.find((x) => x.label.trim().toLowerCase() === wanted);
  return choice ? { ...c, content: choice.value } : c;
}

/** A grant limited to access groups sees only their projects in the queue, its counts and its CSV. */
function groupsOf(ctx: ProgramContext): Pick<WorkQueueQuery, 'groups'> {
  const groups = groupLimit(ctx.role);
  return groups ? { groups } : {};
}

/** The needs-attention tab a query is (all kinds or one, and no other filter), or null. */
function attentionTab(q: Omit<WorkQueueQuery, 'limit' | 'after'>): AttentionKind | 'any' | null {
  const other = Object.keys(q).some((k) => !['programId', 'sort', 'direction', 'groups', 'fields', 'attention'].includes(k));
  if (other || q.fields.length > 0 || !q.attention) return null;
  const kinds = new Set(q.attention.kinds);
  if (kinds.size === 4) return 'any';
  return kinds.size === 1 ? q.attention.kinds[0]! : null;
}

/** The staff work queue of a program: filtered, sorted, paged by keyset, and exported as CSV. */
export class WorkQueueService {
  readonly #deps: ServiceDeps<'programs' | 'projects' | 'accounts' | 'deadlines'>;
  constructor(deps: ServiceDeps<'programs' | 'projects' | 'accounts' | 'deadlines'>) {
    this.#deps = deps;
  }

  /**
   * A page of the queue: staff of the program only (readers, editors, admins); applicants are refused. A forward
   * cursor continues after its row; a backward one reads the page before its row (the other way round, turned back),
   * so paging either way costs what the first page does.
   */
  async page(caller: Caller, programRef: string, filter: WorkQueueFilter): Promise<WorkQueueView> {
    const ctx = await this.#staffProgram(caller, programRef);
    if (!(QUEUE_PAGE_SIZES as readonly number[]).includes(filter.pageSize)) {
      throw new ApiError('INVALID_PARAMETER', `The page size must be one of ${QUEUE_PAGE_SIZES.join(', ')}; got ${filter.pageSize}.`);
    }
    const query = await this.#query(caller, ctx, filter);
    const columns = this.#columns(ctx, filter.columns);
    const cursor = decodeCursor(filter);
    const read = (q: Pick<WorkQueueQuery, 'direction' | 'after'>) =>
      // One row more than the page shows tells whether there is a page beyond it without counting the program.
      this.#deps.store.projects.workQueuePage({ ...query, ...q, limit: filter.pageSize + 1 });
    let shown: WorkQueueRow[];
    let atStart: boolean;
    let hasNext: boolean;
    const back = cursor?.backwards ? await read({ direction: filter.direction === 'desc' ? 'asc' : 'desc', after: cursor.key }) : null;
    if (back && back.length > filter.pageSize) {
      // Rows before the cursor's, nearest first: the page is the nearest pageSize of them, in the queue's order.
      shown = back.slice(0, filter.pageSize).reverse();
      atStart = false;
      hasNext = true;
    } else {
      // Forward, or back to the start: then the first page, whole (rows may have come or gone since).
      const found = await read({ direction: filter.direction, ...(cursor && !cursor.backwards ? { after: cursor.key } : {}) });
      shown = found.slice(0, filter.pageSize);
      atStart = !cursor || cursor.backwards;
      hasNext = found.length > filter.pageSize;
    }
    const first = shown[0];
    const last = shown.at(-1);
    const counting = this.#attentionCounts(ctx);
    // A needs-attention tab's count is one the tabs' counts hold already (for a small access group, the page's dearest read).
    const tab = attentionTab(query);
    const [agency, assignees, count, attentionCounts] = await Promise.all([
      this.#deps.store.accounts.findAgency(caller.user.agencyId),
      this.#deps.store.accounts.usersWithProgramRole(ctx.program, staffRoles(ctx.program), QUEUE_ASSIGNEE_CHOICES),
      tab === null ? this.#count(query) : counting.then((c) => c[tab]),
      counting,
    ]);
    return {
      agencyName: agency?.name ?? '', programId: ctx.program.id, programName: ctx.program.name, testProgram: isTestProgram(ctx.program), role: ctx.role.name,
      statuses: ctx.model.statuses.map((s) => ({ statusId: s.id, name: s.name })),
      // A table is filtered by one of its columns (`Inverters.Make`), as GetProjectsByData searches it.
      fields: this.#filterableFields(ctx).flatMap((f): QueueFieldView[] => (f.type === 'table'
        ? (f.table?.columns ?? []).map((c) => ({
          fieldId: `${f.id}.${c.customId}`, customId: `${f.customId ?? f.id}.${c.customId}`, name: `${f.name}: ${c.name}`, type: c.type, sensitive: false,
        }))
        : [{ fieldId: f.id, customId: f.customId, name: f.name, type: f.type, sensitive: f.sensitive }])),
      assignees: assignees.filter((u) => u.id !== caller.user.id).map((u) => ({ email: u.email, name: u.name }))
        .sort((a, b) => a.name.localeCompare(b.name) || a.email.localeCompare(b.email)),
      rows: await this.#rowViews(caller, ctx, shown, columns),
      columns, columnChoices: this.#columnChoices(ctx), count, attentionCounts,
      nextCursor: hasNext && last ? encodeCursor(filter, keyOf(last)) : null,
      previousCursor: !atStart && first ? encodeCursor(filter, keyOf(first), true) : null,
      atStart,
    };
  }

  /**
   * The filtered queue as CSV rows, every page of it, read CSV_CHUNK projects at a time as the consumer asks. Values
   * of sensitive fields are masked unless the caller may reveal them (the privilege and a proved second factor).
   */
  async exportRows(caller: Caller, programRef: string, filter: WorkQueueFilter): Promise<WorkQueueExport> {
    const ctx = await this.#staffProgram(caller, programRef);
    const query = await this.#query(caller, ctx, { ...filter, cursor: null });
    const fields = this.#filterableFields(ctx);
    const reveal = hasSensitivePrivilege(ctx.role) && caller.mfaVerified === true;
    const store = this.#deps.store;
    if (filter.columns.length > 0) {
      // Chosen columns: the CSV has the page's columns, in its order (a deadline as its name and due day).
      const columns = this.#columns(ctx, filter.columns);
      const chosenViews = (rows: WorkQueueRow[]) => this.#rowViews(caller, ctx, rows, columns);
      const chosen = async function* (): AsyncGenerator<string[]> {
        let after: QueueKey | undefined;
        for (;;) {
          const chunk = await store.projects.workQueuePage({ ...query, after, limit: CSV_CHUNK });
          if (chunk.length === 0) return;
          for (const v of await chosenViews(chunk)) yield [v.number ?? '', v.projectId, ...columns.map((c) => csvCell(c.id, v))];
          if (chunk.length < CSV_CHUNK) return;
          after = keyOf(chunk.at(-1)!);
        }
      };
      return { fileName: `${ctx.program.customId || ctx.program.id}-projects.csv`, header: ['Number', 'Project id', ...columns.map((c) => c.label)], rows: chosen() };
    }
    const header = ['Number', 'Project id', 'Applicant', 'Status', 'Assignee', 'Submitted', 'Created', 'Last change', 'Next deadline', 'Due by', ...fields.map((f) => f.name)];
    const rowViews = (rows: WorkQueueRow[]) => this.#rowViews(caller, ctx, rows, []);
    async function* rows(): AsyncGenerator<string[]> {
      let after: QueueKey | undefined;
      for (;;) {
        const chunk = await store.projects.workQueuePage({ ...query, after, limit: CSV_CHUNK });
        if (chunk.length === 0) return;
        const views = await rowViews(chunk);
        const values = await store.projects.valuesOfProjects(chunk.map((r) => r.project.id), fields.map((f) => f.id));
        for (const v of views) {
          const own = values.filter((x) => x.projectId === v.projectId);
          yield [
            v.number ?? '', v.projectId, v.applicant, v.status, v.assignee ?? '', v.submittedAt === null ? '' : new Date(v.submittedAt).toISOString(),
            new Date(v.createdAt).toISOString(), new Date(v.lastChange).toISOString(), v.nextDeadline?.name ?? '', v.nextDeadline?.dueDate ?? '',
            ...fields.map((f) => {
              const x = own.find((o) => o.fieldId === f.id);
              if (!x || (x.value === null && x.values === null)) return '';
              return (x.values ?? [x.value ?? '']).map((t) => shownValue(ctx.model, f, t, reveal)).join('; ');
            }),
          ];
        }
        if (chunk.length < CSV_CHUNK) return;
        after = keyOf(chunk.at(-1)!);
      }
    }
    return { fileName: `${ctx.program.customId || ctx.program.id}-projects.csv`, header, rows: rows() };
  }

  /** The ids of the first `limit` projects the filter matches, in the queue's order (what a bulk action on "all matching" takes). */
  async matchingProjectIds(caller: Caller, programRef: string, filter: WorkQueueFilter, limit: number): Promise<string[]> {
    const ctx = await this.#staffProgram(caller, programRef);
    const rows = await this.#deps.store.projects.workQueuePage({ ...(await this.#query(caller, ctx, { ...filter, cursor: null })), limit });
    return rows.map((r) => r.project.id);
  }

  // Each count stops at QUEUE_COUNT_BOUND + 1 rows read, so a count never costs more than a page that long.
  async #count(query: Omit<WorkQueueQuery, 'limit' | 'after'>): Promise<BoundedCount> {
    const n = await this.#deps.store.projects.countWorkQueue(query, QUEUE_COUNT_BOUND);
    return { count: Math.min(n, QUEUE_COUNT_BOUND), more: n > QUEUE_COUNT_BOUND };
  }

  // Read together: a small access group's counts each test the whole program's flagged projects (countAttentionKinds).
  async #attentionCounts(ctx: ProgramContext): Promise<Record<AttentionKind | 'any', BoundedCount>> {
    const n = await this.#deps.store.projects.countAttentionKinds({ programId: ctx.program.id, ...groupsOf(ctx) }, QUEUE_COUNT_BOUND);
    const bounded = (k: AttentionKind | 'any'): BoundedCount => ({ count: Math.min(n[k], QUEUE_COUNT_BOUND), more: n[k] > QUEUE_COUNT_BOUND });
    return { any: bounded('any'), reply: bounded('reply'), files: bounded('files'), deadline: bounded('deadline'), connection: bounded('connection') };
  }

  // Every column the caller may choose: the queue's own, then each data field staff may read (a table's cells are not one value).
  #columnChoices(ctx: ProgramContext): QueueColumnView[] {
    return [
      ...Object.entries(QUEUE_COLUMNS).map(([id, label]) => ({ id, label })),
      ...this.#filterableFields(ctx).filter((f) => f.type !== 'table').map((f) => ({ id: `${FIELD_COLUMN_PREFIX}${f.customId ?? f.id}`, label: f.name })),
    ];
  }

  #columns(ctx: ProgramContext, ids: string[]): QueueColumnView[] {
    if (ids.length === 0) return DEFAULT_QUEUE_COLUMNS.map((id) => ({ id, label: QUEUE_COLUMNS[id] }));
    const choices = this.#columnChoices(ctx);
    const chosen: QueueColumnView[] = [];
    for (const id of ids) {
      if (chosen.some((c) => c.id === id)) continue;
      // A field may be named by its id too; the column is then known by the name the choices use.
      const field = id.startsWith(FIELD_COLUMN_PREFIX) ? ctx.model.fields.find((f) => f.id === id.slice(FIELD_COLUMN_PREFIX.length)) : undefined;
      const column = choices.find((c) => c.id === id) ?? (field ? choices.find((c) => c.id === `${FIELD_COLUMN_PREFIX}${field.customId ?? field.id}`) : undefined);
      if (!column) throw new ApiError('INVALID_PARAMETER', `Column "${id}" is not one the work queue of program ${ctx.program.id} offers you.`);
      if (!chosen.some((c) => c.id === column.id)) chosen.push(column);
    }
    if (chosen.length > MAX_QUEUE_COLUMNS) throw new ApiError('INVALID_PARAMETER', `Choose at most ${MAX_QUEUE_COLUMNS} columns; got ${chosen.length}.`);
    return chosen;
  }

  async #staffProgram(caller: Caller, programRef: string): Promise<ProgramContext> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    if (!isStaff(ctx.role)) throw new ApiError('FORBIDDEN', `The work queue of program ${ctx.program.id} is for its staff (the roles that read every project).`);
    return ctx;
  }

  // Staff read every form, so every current field of a form may be filtered on and exported.
  #filterableFields(ctx: ProgramContext): DataField[] {
    return ctx.model.fields.filter((f) => ctx.model.forms.some((form) => mayReadForm(ctx.role, form) && form.fields.some((p) => p.fieldId === f.id)));
  }

  async #query(caller: Caller, ctx: ProgramContext, f: WorkQueueFilter): Promise<Omit<WorkQueueQuery, 'limit' | 'after'>> {
    const statusIn = f.statuses.map((ref) => {
      const status = ctx.model.statuses.find((s) => s.id === ref || s.customId === ref);
      if (!status) throw new ApiError('INVALID_PARAMETER', `Status "${ref}" is not a status of program ${ctx.program.id}.`);
      return status.id;
    });
    return {
      programId: ctx.program.id, fields: f.fields.map((c) => resolveFieldCondition(ctx, caller, byValueOrLabel(ctx, c))), sort: f.sort, direction: f.direction,
      ...(statusIn.length > 0 ? { statusIn } : {}),
      ...(f.assignee === null ? {} : { assigneeId: await this.#assigneeId(caller, f.assignee) }),
      ...(f.number === null ? {} : { number: f.number }),
      ...(f.projectIds === undefined ? {} : { idIn: f.projectIds }),
      ...(f.submittedFrom !== null || f.submittedTo !== null ? { submitted: { from: f.submittedFrom, to: f.submittedTo } } : {}),
      // A status with no move onward closes the project, so a deadline that passed there is no longer overdue.
      ...(f.overdue ? { overdue: { now: this.#deps.clock.now() } } : {}),
      ...(f.attention.length > 0 ? { attention: { kinds: f.attention } } : {}),
      ...groupsOf(ctx),
    };
  }

  async #assigneeId(caller: Caller, assignee: string): Promise<string | null> {
    if (assignee === 'me') return caller.user.id;
    if (assignee === 'unassigned') return null;
    const user = await this.#deps.store.accounts.findUserByEmail(assignee);
    // Nobody by that address is assigned anything: an id no project has, rather than an error that would tell
    // which addresses have accounts.
    return user?.agencyId === caller.user.agencyId ? user.id : `no user ${assignee}`;
  }

  async #rowViews(caller: Caller, ctx: ProgramContext, rows: WorkQueueRow[], columns: QueueColumnView[]): Promise<WorkQueueRowView[]> {
    const ids = new Set(rows.flatMap((r) => (r.project.assigneeId === null ? [r.project.ownerId] : [r.project.ownerId, r.project.assigneeId])));
    const users = new Map((await this.#deps.store.accounts.usersByIds([...ids])).map((u) => [u.id, u]));
    // One read for the page: the running deadlines of its projects, due first first.
    const now = this.#deps.clock.now();
    const deadlines = await this.#deps.store.deadlines.listDeadlinesOfProjects(rows.map((r) => r.project.id));
    const due = deadlines.filter((d) => d.state === 'running');
    const nextDeadline = (projectId: string) => {
      const d = due.find((x) => x.projectId === projectId);
      return d ? { name: deadlineView(ctx.model, d, now).name, dueDate: d.dueDate, overdue: d.dueAt <= now } : null;
    };
    const fieldColumns = columns.flatMap((c) => {
      if (!c.id.startsWith(FIELD_COLUMN_PREFIX)) return [];
      const ref = c.id.slice(FIELD_COLUMN_PREFIX.length);
      const field = ctx.model.fields.find((f) => f.customId === ref || f.id === ref);
      return field ? [{ id: c.id, field }] : [];
    });
    const values = fieldColumns.length === 0 ? [] : await this.#deps.store.projects.valuesOfProjects(rows.map((r) => r.project.id), fieldColumns.map((c) => c.field.id));
    const reveal = hasSensitivePrivilege(ctx.role) && caller.mfaVerified === true;
    const shown = (projectId: string): Record<string, string> => Object.fromEntries(fieldColumns.map(({ id, field }) => {
      const x = values.find((v) => v.projectId === projectId && v.fieldId === field.id);
      if (!x || (x.value === null && x.values === null)) return [id, ''];
      return [id, (x.values ?? [x.value ?? '']).map((t) => shownValue(ctx.model, field, t, reveal)).join('; ')];
    }));
    return rows.map(({ project: p, firstSubmittedAt, lastApplicantActivityAt, attention }) => ({
      projectId: p.id, number: p.number, applicant: users.get(p.ownerId)?.name ?? p.ownerId, status: statusById(ctx.model, p.statusId).name,
      assignee: p.assigneeId === null ? null : (users.get(p.assigneeId)?.name ?? p.assigneeId), submittedAt: firstSubmittedAt,
      createdAt: p.createdAt, lastChange: p.updatedAt, nextDeadline: nextDeadline(p.id),
      daysInStatus: daysSince(p.statusAt, now), lastApplicantActivity: lastApplicantActivityAt,
      attention: [
        ...((attention & ATTENTION.reply) !== 0 ? ['reply' as const] : []), ...((attention & ATTENTION.files) !== 0 ? ['files' as const] : []),
        // The bits the filter reads: a running deadline near, or a passed one while the project can still move on.
        ...((attention & (ATTENTION.overdue | ATTENTION.near)) !== 0 ? ['deadline' as const] : []),
        ...((attention & ATTENTION.connection) !== 0 ? ['connection' as const] : []),
      ],
      values: shown(p.id),
    }));
  }
}

const iso = (at: number | null) => (at === null ? '' : new Date(at).toISOString());

/** One chosen column of a row as CSV text (times in ISO 8601 UTC, as the fixed export writes them). */
function csvCell(id: string, v: WorkQueueRowView): string {
  switch (id as QueueColumnId) {
    case 'applicant': return v.applicant;
    case 'status': return v.status;
    case 'assignee': return v.assignee ?? '';
    case 'submitted': return iso(v.submittedAt);
    case 'created': return iso(v.createdAt);
    case 'lastChange': return iso(v.lastChange);
    case 'nextDeadline': return v.nextDeadline ? `${v.nextDeadline.name} (by ${v.nextDeadline.dueDate})` : '';
    case 'daysInStatus': return String(v.daysInStatus);
    case 'lastApplicantActivity': return iso(v.lastApplicantActivity);
    case 'attention': return v.attention.map((k) => ATTENTION_KINDS[k]).join('; ');
    default: return v.values[id] ?? '';
  }
}
