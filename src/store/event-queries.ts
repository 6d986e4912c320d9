import { type Expression, type Kysely, type Selectable, type SqlBool, sql } from 'kysely';
import type { EventAudience, EventData, EventType, NewEvent, StoredEvent } from '../model/event.ts';
import type { OwnerScope } from '../model/records.ts';
import { inAccessGroups, readableBy } from './owner-scope.ts';
import { bindDb } from './bind-db.ts';
import type { Dialect } from './dialect.ts';
import type { Database, EventTable } from './tables.ts';

type Db = Kysely<Database>;

/** The cursor row that marks the feed's retention: events up to its sequence may have been deleted. */
export const PRUNED_MARK = 'feed.pruned';

// The key of the PostgreSQL advisory lock that orders the outbox's commits ("apas" in ASCII).
const SEQUENCE_LOCK = 0x61706173;

/** What the caller may read of the outbox: whole programs as staff, and their own projects' public events as applicant. */
export interface FeedScope {
  /** Every program of this agency (an agency admin). */
  staffAgencyId?: string;
  staffProgramIds: string[];
  /** Programs whose staff grant is limited to access groups: only events of projects now in one of them. */
  limitedPrograms?: { programId: string; groups: readonly string[] }[];
  applicantProgramIds: string[];
  /** The caller as an applicant: the projects they read (their own, their organizations'). */
  owner: OwnerScope;
  /** Only this program's events. */
  programId?: string;
  /** Only events of these kinds. */
  types?: EventType[];
}

function toEvent(r: Selectable<EventTable>): StoredEvent {
  return {
    seq: r.seq, id: r.id, type: r.type as EventType, at: r.at, agencyId: r.agency_id, programId: r.program_id,
    projectId: r.project_id, actorId: r.actor_id, ownerId: r.owner_id, audience: r.audience as EventAudience, data: JSON.parse(r.data) as EventData,
  };
}

/** The events after `after` that the scope may read, in sequence order, at most `limit`. */
export async function listFeed(db: Db, scope: FeedScope, after: number, limit: number): Promise<StoredEvent[]> {
  const rows = await db.selectFrom('events as e').selectAll('e')
    .where('e.seq', '>', after)
    .where((eb) => {
      const visible: Expression<SqlBool>[] = [];
      if (scope.staffAgencyId !== undefined) visible.push(eb('e.agency_id', '=', scope.staffAgencyId));
      if (scope.staffProgramIds.length > 0) visible.push(eb('e.program_id', 'in', scope.staffProgramIds));
      for (const l of scope.limitedPrograms ?? []) {
        visible.push(eb.and([eb('e.program_id', '=', l.programId), eb('e.project_id', 'is not', null), inAccessGroups('e', l.groups, 'project_id')]));
      }
      if (scope.applicantProgramIds.length > 0) {
        visible.push(eb.and([
          eb('e.program_id', 'in', scope.applicantProgramIds), eb('e.audience', '=', 'all'),
          eb.exists(eb.selectFrom('projects as p').select(sql.lit(1).as('one')).whereRef('p.id', '=', 'e.project_id').where(readableBy('p', scope.owner))),
        ]));
      }
      return visible.length > 0 ? eb.or(visible) : sql<SqlBool>`1 = 0`;
    })
    .$if(scope.programId !== undefined, (q) => q.where('e.program_id', '=', scope.programId as string))
    .$if(scope.types !== undefined && scope.types.length > 0, (q) => q.where('e.type', 'in', scope.types as EventType[]))
    .orderBy('e.seq').limit(limit).execute();
  return rows.map(toEvent);
}

/** Every event after `after`, in sequence order, at most `limit`: the service's own consumers (webhooks, mail). */
export async function listAfter(db: Db, after: number, limit: number): Promise<StoredEvent[]> {
  const rows = await db.selectFrom('events').selectAll().where('seq', '>', after).orderBy('seq').limit(limit).execute();
  return rows.map(toEvent);
}

/** Every event of one project, in sequence order (operators and tests). */
export async function listProjectEvents(db: Db, projectId: string): Promise<StoredEvent[]> {
  const rows = await db.selectFrom('events').selectAll().where('project_id', '=', projectId).orderBy('seq').execute();
  return rows.map(toEvent);
}

/** The highest sequence committed, or 0. */
export async function lastSequence(db: Db): Promise<number> {
  const row = await db.selectFrom('events').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst();
  return Number(row?.seq ?? 0);
}

/** How far `consumer` has read (0 when it never has). */
export async function readCursor(db: Db, consumer: string): Promise<number> {
  const row = await db.selectFrom('event_cursors').select('seq').where('consumer', '=', consumer).executeTakeFirst();
  return row?.seq ?? 0;
}

/** Every cursor but the retention mark. */
export async function listCursors(db: Db): Promise<{ consumer: string; seq: number }[]> {
  return db.selectFrom('event_cursors').select(['consumer', 'seq']).where('consumer', '!=', PRUNED_MARK).orderBy('consumer').execute();
}

/**
 * Locks `consumer`'s cursor until the transaction ends and returns it, so one instance at a time reads the outbox
 * for that consumer (the others wait, then see where it stopped).
 */
export async function lockCursor(db: Db, dialect: Dialect, consumer: string): Promise<number> {
  await db.insertInto('event_cursors').values({ consumer, seq: 0 }).onConflict((oc) => oc.column('consumer').doNothing()).execute();
  if (dialect === 'sqlite') return readCursor(db, consumer);
  const row = await db.selectFrom('event_cursors').select('seq').where('consumer', '=', consumer).forUpdate().executeTakeFirstOrThrow();
  return row.seq;
}

/** Moves `consumer`'s cursor to `seq`. */
export async function moveCursor(db: Db, consumer: string, seq: number): Promise<void> {
  await db.insertInto('event_cursors').values({ consumer, seq }).onConflict((oc) => oc.column('consumer').doUpdateSet({ seq })).execute();
}

/**
 * Deletes events older than `before` that every consumer has read, and raises the retention mark to the highest
 * sequence deleted. Returns how many were deleted.
 */
export async function pruneEvents(db: Db, before: number): Promise<number> {
  const cursors = await listCursors(db);
  const readByAll = cursors.length === 0 ? Number.MAX_SAFE_INTEGER : Math.min(...cursors.map((c) => c.seq));
  const top = await db.selectFrom('events').select((eb) => eb.fn.max('seq').as('seq'))
    .where('at', '<', before).where('seq', '<=', readByAll).executeTakeFirst();
  const through = Number(top?.seq ?? 0);
  if (through === 0) return 0;
  const deleted = await db.deleteFrom('events').where('seq', '<=', through).executeTakeFirst();
  const mark = await readCursor(db, PRUNED_MARK);
  if (through > mark) await moveCursor(db, PRUNED_MARK, through);
  return Number(deleted.numDeletedRows);
}

/**
 * Writes a transaction's events just before it commits. On PostgreSQL a transaction-scoped advisory lock is taken
 * first and held through the commit, so sequences commit in their order: a reader that has seen sequence n will
 * never later find a smaller one. Taken this late, it serialises only the writing of events and the commit itself.
 * SQLite has one writer at a time, so its order is the commit order already.
 */
export async function insertEvents(db: Db, dialect: Dialect, events: readonly NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${sql.lit(SEQUENCE_LOCK)})`.execute(db);
  await db.insertInto('events').values(events.map((e) => ({
    id: e.id, type: e.type, at: e.at, agency_id: e.agencyId, program_id: e.programId, project_id: e.projectId,
    actor_id: e.actorId, owner_id: e.ownerId, audience: e.audience, data: JSON.stringify(e.data),
  }))).execute();
}

const READS = { listFeed, listAfter, listProjectEvents, lastSequence, readCursor, listCursors };

/** The outbox's reads. */
export type EventReader = ReturnType<typeof eventReader>;

/** The outbox inside a transaction: `append` keeps events until the transaction is about to commit. */
export type EventRepository = ReturnType<typeof eventRepository>;

/** The outbox's reads over a database. */
export function eventReader(db: Db) {
  return bindDb(db, READS);
}

/** The outbox over a transaction; the store calls `flush` once the transaction's work is done. */
export function eventRepository(db: Db, dialect: Dialect) {
  const pending: NewEvent[] = [];
  return {
    ...bindDb(db, { ...READS, moveCursor, pruneEvents }),
    lockCursor: (consumer: string) => lockCursor(db, dialect, consumer),
    /** Adds an event to be written when the transaction commits. */
    append: (event: NewEvent): void => {
      pending.push(event);
    },
    /** Writes the appended events; returns how many. */
    flush: async (): Promise<number> => {
      const events = pending.splice(0);
      await insertEvents(db, dialect, events);
      return events.length;
    },
  };
}
