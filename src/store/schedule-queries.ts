import type { Kysely } from 'kysely';
import { bindDb } from './bind-db.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

/** One day's run of a scheduled automation over one program (the key of its row). */
export interface ScheduleRunKey { programId: string; automation: string; day: string }

/** Where a run has got to: the last project it went past, in creation order (null before the first). */
export type ScheduleCursor = { createdAt: number; id: string } | null;

const keyOf = (k: ScheduleRunKey) => ({ program_id: k.programId, automation: k.automation, day: k.day });

/** The ids of the programs that have automations: the ones whose schedules the runner looks at. */
export async function programsWithAutomations(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('programs').select('id').where('automations', 'is not', null).orderBy('id').execute();
  return rows.map((r) => r.id);
}

/**
 * Takes the lease of a day's run for `owner` until `leaseUntil`: the run is started when it has no row yet, or taken
 * over when its lease has lapsed (its holder died or stalled). Returns where the run is, or undefined when it is done
 * or another instance holds it. Each step is one statement, so two instances never both take it.
 */
export async function claimScheduleRun(db: Db, key: ScheduleRunKey, owner: string, now: number, leaseUntil: number): Promise<ScheduleCursor | undefined> {
  const fresh = await db.insertInto('automation_schedule_runs')
    .values({ ...keyOf(key), after_created: null, after_id: null, lease_owner: owner, lease_until: leaseUntil, done_at: null })
    .onConflict((oc) => oc.doNothing()).returning('day').executeTakeFirst();
  if (fresh) return null;
  const taken = await db.updateTable('automation_schedule_runs').set({ lease_owner: owner, lease_until: leaseUntil })
    .where('program_id', '=', key.programId).where('automation', '=', key.automation).where('day', '=', key.day)
    .where('done_at', 'is', null).where('lease_until', '<=', now)
    .returning(['after_created', 'after_id']).executeTakeFirst();
  if (!taken) return undefined;
  return taken.after_id === null ? null : { createdAt: Number(taken.after_created), id: taken.after_id };
}

/** Records how far the run got and renews the lease; false when `owner` no longer holds it (then it stops). */
export async function advanceScheduleRun(db: Db, key: ScheduleRunKey, owner: string, cursor: NonNullable<ScheduleCursor>, leaseUntil: number): Promise<boolean> {
  const r = await db.updateTable('automation_schedule_runs').set({ after_created: cursor.createdAt, after_id: cursor.id, lease_until: leaseUntil })
    .where('program_id', '=', key.programId).where('automation', '=', key.automation).where('day', '=', key.day)
    .where('lease_owner', '=', owner).where('done_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Marks the day's run done (when `owner` still holds it). */
export async function finishScheduleRun(db: Db, key: ScheduleRunKey, owner: string, now: number): Promise<boolean> {
  const r = await db.updateTable('automation_schedule_runs').set({ done_at: now })
    .where('program_id', '=', key.programId).where('automation', '=', key.automation).where('day', '=', key.day)
    .where('lease_owner', '=', owner).where('done_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** True when the day's run is done. */
export async function scheduleRunDone(db: Db, key: ScheduleRunKey): Promise<boolean> {
  const row = await db.selectFrom('automation_schedule_runs').select('done_at')
    .where('program_id', '=', key.programId).where('automation', '=', key.automation).where('day', '=', key.day).executeTakeFirst();
  return row !== undefined && row.done_at !== null;
}

/**
 * The next projects of a program after `after` in creation order (in one status, when given): a page of the run's
 * candidates, read over projects_program_created or projects_queue_status_created.
 */
export async function scheduleCandidates(db: Db, programId: string, statusId: string | null, after: ScheduleCursor, limit: number): Promise<{ id: string; createdAt: number }[]> {
  let q = db.selectFrom('projects').select(['id', 'created_at']).where('program_id', '=', programId);
  if (statusId !== null) q = q.where('status_id', '=', statusId);
  if (after) q = q.where((eb) => eb.or([eb('created_at', '>', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.id)])]));
  const rows = await q.orderBy('created_at').orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ id: r.id, createdAt: Number(r.created_at) }));
}

/** The last day an automation ran on a project by its schedule, or null. */
export async function scheduleMark(db: Db, programId: string, automation: string, projectId: string): Promise<string | null> {
  const row = await db.selectFrom('automation_schedule_marks').select('day')
    .where('program_id', '=', programId).where('automation', '=', automation).where('project_id', '=', projectId).executeTakeFirst();
  return row?.day ?? null;
}

/** Records that the automation ran on the project on `day` (in the project's change, so it commits with what it did). */
export async function markScheduled(db: Db, programId: string, automation: string, projectId: string, day: string): Promise<void> {
  await db.insertInto('automation_schedule_marks').values({ program_id: programId, automation, project_id: projectId, day })
    .onConflict((oc) => oc.columns(['program_id', 'automation', 'project_id']).doUpdateSet({ day })).execute();
}

const READS = { programsWithAutomations, scheduleRunDone, scheduleCandidates, scheduleMark };

/** Scheduled runs' reads, and their claims (single statements, outside a transaction). */
export function scheduleReader(db: Db) {
  return bindDb(db, { ...READS, claimScheduleRun, advanceScheduleRun, finishScheduleRun });
}

/** Inside a project's change: the marks too. */
export function scheduleRepository(db: Db) {
  return bindDb(db, { ...READS, claimScheduleRun, advanceScheduleRun, finishScheduleRun, markScheduled });
}

/** Scheduled runs outside a transaction. */
export type ScheduleReader = ReturnType<typeof scheduleReader>;
/** Scheduled runs and marks in a transaction. */
export type ScheduleRepository = ReturnType<typeof scheduleRepository>;
