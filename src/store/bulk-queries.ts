import { type Kysely, sql } from 'kysely';
import type { AttachmentRecord, HistoryEntry, Project } from '../model/model.ts';
import { attachmentRow } from './attachment-queries.ts';
import { cellRows, itemRows, searchColumns, type StoredValue } from './project-queries.ts';
import type { SecretBox } from './secret-box.ts';
import { sealValue, sensitiveFieldIds } from './sealed-field-values.ts';
import type { Database } from './tables.ts';
import type { ProjectDeadline } from './deadline-queries.ts';
import { bindDb } from './bind-db.ts';
import { refreshSummaries } from './dashboard-queries.ts';
import { ATTENTION } from './queue-view-queries.ts';

/** A batch of whole projects to load at once: rows, submitted values per form, history, attachment and deadline rows. */
export interface BulkBatch {
  projects: Project[];
  values: { projectId: string; formId: string; values: StoredValue[] }[];
  history: HistoryEntry[];
  /** Rows of files already written whole to the blob store (optional). */
  attachments?: AttachmentRecord[];
  /** Deadlines of the batch's projects, in any state (optional). */
  deadlines?: ProjectDeadline[];
}

// Multi-row inserts are far faster than one statement per row; the chunk keeps each statement under
// SQLite's limit of bound parameters (32766) whatever the row width.
const PARAMS_PER_STATEMENT = 30000;

async function insertChunked<T extends Record<string, unknown>>(db: Kysely<Database>, table: keyof Database, rows: T[]): Promise<void> {
  if (rows.length === 0) return;
  const size = Math.max(1, Math.floor(PARAMS_PER_STATEMENT / Object.keys(rows[0]!).length));
  for (let i = 0; i < rows.length; i += size) {
    await db.insertInto(table as 'projects').values(rows.slice(i, i + size) as never).execute();
  }
}

/**
 * Loads a batch of projects in one transaction without per-row checks: the bulk path of data migrations and
 * benchmarks. Callers own consistency (numbers taken from the program's sequence, values that fit their fields).
 */
export async function bulkInsert(db: Kysely<Database>, batch: BulkBatch): Promise<void> {
  const awaiting = filesAwaitingReview(batch.attachments ?? []);
  await db.transaction().execute(async (tx) => {
    // A draft in its program's initial status has no file awaiting review, as the change step counts it.
    const initial = new Set(awaiting.size === 0 ? [] : (await tx.selectFrom('statuses').select('id').where('is_initial', '=', 1).execute()).map((r) => r.id));
    await insertChunked(tx, 'projects', batch.projects.map((p) => ({
      id: p.id, program_id: p.programId, number: p.number, status_id: p.statusId, status_at: p.statusAt, created_at: p.createdAt,
      created_by: p.createdBy, updated_at: p.updatedAt, updated_by: p.updatedBy, owner_id: p.ownerId, assignee_id: p.assigneeId, version: p.version,
      // The needs-attention bit of a file awaiting review, as migration 035 and the change step set it.
      attention: awaiting.has(p.id) && !initial.has(p.statusId) ? ATTENTION.files : 0,
    })));
    await insertChunked(tx, 'project_values', batch.values.flatMap((set) => set.values.map((v) => ({
      project_id: set.projectId, field_id: v.fieldId, form_id: set.formId, value: v.value,
      values_json: v.values === null ? null : JSON.stringify(v.values), updated_at: v.updatedAt, updated_by: v.updatedBy, ...searchColumns(v),
    }))));
    await insertChunked(tx, 'project_value_items', batch.values.flatMap((set) => set.values.flatMap((v) => itemRows(set.projectId, v))));
    await insertChunked(tx, 'project_table_cells', batch.values.flatMap((set) => set.values.flatMap((v) => cellRows(set.projectId, v))));
    const seqs = new Map<string, number>();
    await insertChunked(tx, 'status_history', batch.history.map((e) => {
      const seq = (seqs.get(e.projectId) ?? 0) + 1;
      seqs.set(e.projectId, seq);
      return { id: e.id, project_id: e.projectId, status_id: e.statusId, changed_at: e.changedAt, changed_by: e.changedBy, report_as: e.reportAs, seq };
    }));
    await insertChunked(tx, 'attachments', (batch.attachments ?? []).map(attachmentRow));
    await insertChunked(tx, 'project_deadlines', (batch.deadlines ?? []).map((d) => ({
      id: d.id, project_id: d.projectId, program_id: d.programId, deadline_id: d.deadlineId, state: d.state, started_at: d.startedAt,
      due_date: d.dueDate, due_at: d.dueAt, ended_at: d.endedAt, started_by: d.startedBy, ended_by: d.endedBy,
    })));
    // The overdue bit, as migration 035 and the change step keep it: a passed deadline while the status has a move onward.
    const passed = [...new Set((batch.deadlines ?? []).filter((d) => d.state === 'passed').map((d) => d.projectId))];
    for (let i = 0; i < passed.length; i += 500) {
      await tx.updateTable('projects').set((eb) => ({ attention: sql<number>`${eb.ref('attention')} | ${sql.lit(ATTENTION.overdue)}` }))
        .where('id', 'in', passed.slice(i, i + 500))
        .where((eb) => eb.exists(eb.selectFrom('status_transitions as t').select('t.from_status_id').whereRef('t.from_status_id', '=', 'projects.status_id')))
        .execute();
    }
    // The dashboards' summaries count the loaded projects like any other.
    await refreshSummaries(tx, batch.projects.map((p) => p.id));
  });
}

// The projects whose newest version of some file is pending review.
function filesAwaitingReview(attachments: AttachmentRecord[]): Set<string> {
  const newest = new Map<string, AttachmentRecord>();
  for (const a of attachments) {
    const key = `${a.projectId} ${a.definitionId}`;
    if ((newest.get(key)?.version ?? -1) < a.version) newest.set(key, a);
  }
  return new Set([...newest.values()].filter((a) => a.approvalStatus === 'Pending').map((a) => a.projectId));
}

/** Takes `count` consecutive project numbers of a program at once and returns the first. */
export async function reserveProjectNumbers(db: Kysely<Database>, programId: string, count: number): Promise<number> {
  const row = await db.updateTable('programs').set({ next_number: sql`next_number + ${count}` }).where('id', '=', programId)
    .returning('next_number').executeTakeFirstOrThrow();
  return Number(row.next_number) - count;
}

/** Loads whole projects without per-row checks (benchmarks and data migrations), each call its own transaction. */
export type BulkLoader = ReturnType<typeof bulkLoader>;

/** The bulk loader over a database; values of sensitive fields are sealed as a change would seal them. */
export function bulkLoader(db: Kysely<Database>, secrets: SecretBox) {
  return {
    ...bindDb(db, { reserveProjectNumbers }),
    bulkInsert: async (batch: BulkBatch) => bulkInsert(db, await sealedBatch(db, secrets, batch)),
  };
}

/** A bulk batch with the values of sensitive fields sealed. */
async function sealedBatch(db: Kysely<Database>, secrets: SecretBox, batch: BulkBatch): Promise<BulkBatch> {
  const sensitive = await sensitiveFieldIds(db, batch.values.flatMap((set) => set.values.map((v) => v.fieldId)));
  if (sensitive.size === 0) return batch;
  return {
    ...batch,
    values: batch.values.map((set) => ({ ...set, values: set.values.map((v) => (sensitive.has(v.fieldId) ? sealValue(secrets, set.projectId, v) : v)) })),
  };
}
