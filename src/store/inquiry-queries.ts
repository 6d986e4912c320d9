import type { Kysely, Selectable } from 'kysely';
import type { InquiryNote, InquiryStatus, InquiryThread } from '../model/inquiry.ts';
import type { Database, InquiryNoteTable, InquiryThreadTable } from './tables.ts';
import { bindDb } from './bind-db.ts';

type Db = Kysely<Database>;

/** A thread with how many notes it holds (hidden ones included). */
export type CountedThread = InquiryThread & { noteCount: number };

/** What a thread update may change; every change also says who made it and when. */
export interface ThreadChanges { status?: InquiryStatus; externalId?: string | null; updatedAt: number; updatedBy: string }

function toThread(r: Selectable<InquiryThreadTable>): InquiryThread {
  return {
    id: r.id, programId: r.program_id, projectId: r.project_id, subject: r.subject, status: r.status as InquiryStatus,
    externalId: r.external_id, createdAt: r.created_at, createdBy: r.created_by, updatedAt: r.updated_at, updatedBy: r.updated_by,
  };
}

function toNote(r: Selectable<InquiryNoteTable>): InquiryNote {
  return {
    id: r.id, threadId: r.thread_id, seq: r.seq, authorId: r.author_id, createdAt: r.created_at, text: r.text,
    visibleToApplicant: r.visible_to_applicant === 1,
  };
}

function counted(db: Db) {
  return db.selectFrom('inquiry_threads').selectAll('inquiry_threads')
    .select((eb) => eb.selectFrom('inquiry_notes').select((n) => n.fn.countAll<number>().as('n'))
      .whereRef('inquiry_notes.thread_id', '=', 'inquiry_threads.id').as('note_count'));
}

/** The threads of a project in creation order, with their note counts. */
export async function listThreads(db: Db, projectId: string): Promise<CountedThread[]> {
  const rows = await counted(db).where('inquiry_threads.project_id', '=', projectId)
    .orderBy('inquiry_threads.created_at').orderBy('inquiry_threads.id').execute();
  return rows.map((r) => ({ ...toThread(r), noteCount: Number(r.note_count ?? 0) }));
}

/** A thread of a project, with its note count; null when the project has no such thread. */
export async function getThread(db: Db, projectId: string, threadId: string): Promise<CountedThread | null> {
  const r = await counted(db).where('inquiry_threads.id', '=', threadId).where('inquiry_threads.project_id', '=', projectId).executeTakeFirst();
  return r ? { ...toThread(r), noteCount: Number(r.note_count ?? 0) } : null;
}

/** The thread of a program that carries an external id, if any. */
export async function findThreadByExternalId(db: Db, programId: string, externalId: string): Promise<InquiryThread | null> {
  const r = await db.selectFrom('inquiry_threads').selectAll().where('program_id', '=', programId).where('external_id', '=', externalId).executeTakeFirst();
  return r ? toThread(r) : null;
}

/** The notes of a thread, oldest first. */
export async function listNotes(db: Db, threadId: string): Promise<InquiryNote[]> {
  const rows = await db.selectFrom('inquiry_notes').selectAll().where('thread_id', '=', threadId).orderBy('seq').execute();
  return rows.map(toNote);
}

/** The notes the applicant may see of every thread of a project, by thread and oldest first. */
export async function listVisibleNotes(db: Db, projectId: string): Promise<InquiryNote[]> {
  const rows = await db.selectFrom('inquiry_notes').innerJoin('inquiry_threads', 'inquiry_threads.id', 'inquiry_notes.thread_id')
    .selectAll('inquiry_notes').where('inquiry_threads.project_id', '=', projectId).where('inquiry_notes.visible_to_applicant', '=', 1)
    .orderBy('inquiry_notes.thread_id').orderBy('inquiry_notes.seq').execute();
  return rows.map(toNote);
}

/**
 * The threads of several projects in a status that hold at least one note visible to the applicant, oldest first
 * (read in batches of project ids).
 */
export async function threadsWithVisibleNote(db: Db, projectIds: string[], status: InquiryStatus): Promise<InquiryThread[]> {
  const ids = [...new Set(projectIds)];
  const out: InquiryThread[] = [];
  for (let start = 0; start < ids.length; start += 1000) {
    const rows = await db.selectFrom('inquiry_threads').selectAll('inquiry_threads')
      .where('inquiry_threads.project_id', 'in', ids.slice(start, start + 1000)).where('inquiry_threads.status', '=', status)
      .where(({ exists, selectFrom }) => exists(selectFrom('inquiry_notes').select('inquiry_notes.id')
        .whereRef('inquiry_notes.thread_id', '=', 'inquiry_threads.id').where('inquiry_notes.visible_to_applicant', '=', 1)))
      .orderBy('inquiry_threads.created_at').orderBy('inquiry_threads.id').execute();
    out.push(...rows.map(toThread));
  }
  return out;
}

/** Inserts a new thread. */
export async function insertThread(db: Db, t: InquiryThread): Promise<void> {
  await db.insertInto('inquiry_threads').values({
    id: t.id, program_id: t.programId, project_id: t.projectId, subject: t.subject, status: t.status, external_id: t.externalId,
    created_at: t.createdAt, created_by: t.createdBy, updated_at: t.updatedAt, updated_by: t.updatedBy,
  }).execute();
}

/** Changes a thread's status or external id and stamps who changed it when. */
export async function updateThread(db: Db, id: string, c: ThreadChanges): Promise<void> {
  await db.updateTable('inquiry_threads').set({
    ...(c.status !== undefined ? { status: c.status } : {}),
    ...(c.externalId !== undefined ? { external_id: c.externalId } : {}),
    updated_at: c.updatedAt, updated_by: c.updatedBy,
  }).where('id', '=', id).execute();
}

/** Appends a note after the thread's last one (the unique (thread, seq) refuses a race) and returns it as stored. */
export async function insertNote(db: Db, n: Omit<InquiryNote, 'seq'>): Promise<InquiryNote> {
  const last = await db.selectFrom('inquiry_notes').select((eb) => eb.fn.max<number>('seq').as('seq')).where('thread_id', '=', n.threadId).executeTakeFirst();
  const seq = Number(last?.seq ?? 0) + 1;
  await db.insertInto('inquiry_notes').values({
    id: n.id, thread_id: n.threadId, seq, author_id: n.authorId, created_at: n.createdAt, text: n.text,
    visible_to_applicant: n.visibleToApplicant ? 1 : 0,
  }).execute();
  return { ...n, seq };
}

const READS = { listThreads, getThread, findThreadByExternalId, listNotes, listVisibleNotes, threadsWithVisibleNote };
const WRITES = { insertThread, updateThread, insertNote };

/** Projects' inquiry threads and their notes: reads. */
export type InquiryReader = ReturnType<typeof inquiryReader>;

/** Projects' inquiry threads and their notes: reads and writes (inside a transaction). */
export type InquiryRepository = ReturnType<typeof inquiryRepository>;

/** The inquiry reads over a database. */
export function inquiryReader(db: Db) {
  return bindDb(db, READS);
}

/** The inquiry reads and writes over a transaction. */
export function inquiryRepository(db: Db) {
  return bindDb(db, { ...READS, ...WRITES });
}
