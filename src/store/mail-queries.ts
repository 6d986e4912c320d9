import type { Kysely, Selectable } from 'kysely';
import { bindDb } from './bind-db.ts';
import type { Dialect } from './dialect.ts';
import type { Database, MailMessageTable } from './tables.ts';

type Db = Kysely<Database>;

/**
 * Where a queued message stands: waiting to be sent (again), sent, given up after its last attempt, or kept in a test
 * program's outbox instead of being sent (`test`, migration 053).
 */
export type MailStatus = 'pending' | 'sent' | 'failed' | 'test';

/**
 * A generated document a mail carries (migration 046): the file a request will make (`requestId`, still queued when the
 * mail was queued, so the mail waits for it) or a version already made (`version`); resolved when the mail is sent.
 */
export interface MailAttachmentRef { projectId: string; documentId: string; attachmentId: string; requestId: string | null; version: number | null }

/** A message to queue: what kind of notification, from which event, to whom and what it says. */
export interface NewMailMessage {
  id: string; kind: string; eventId: string | null; to: string; subject: string; text: string; html: string; createdAt: number;
  /** The project the mail is about and the user it goes to, for the project's list of its owner's mails; absent for none. */
  projectId?: string | null; toUserId?: string | null;
  /** Generated documents it carries; absent or empty for none. */
  attachments?: MailAttachmentRef[];
}

/** A mail about a project as its pages list it: never its text, which may hold links. */
export interface ProjectMailRow { id: string; kind: string; subject: string; status: MailStatus; createdAt: number; sentAt: number | null }

/** A queued message with its delivery state. */
export interface MailMessage extends NewMailMessage {
  status: MailStatus; attempts: number; nextAttemptAt: number; leaseUntil: number | null; lastError: string | null; sentAt: number | null;
}

function toMessage(r: Selectable<MailMessageTable>): MailMessage {
  return {
    id: r.id, kind: r.kind, eventId: r.event_id, to: r.to_address, subject: r.subject, text: r.text_body, html: r.html_body,
    createdAt: Number(r.created_at), status: r.status as MailStatus, attempts: Number(r.attempts), nextAttemptAt: Number(r.next_attempt_at),
    leaseUntil: r.lease_until === null ? null : Number(r.lease_until), lastError: r.last_error, sentAt: r.sent_at === null ? null : Number(r.sent_at),
    ...(r.attachments ? { attachments: JSON.parse(r.attachments) as MailAttachmentRef[] } : {}),
  };
}

/** Queues a message, due at once. */
export async function enqueueMail(db: Db, m: NewMailMessage): Promise<void> {
  await db.insertInto('mail_messages').values({
    id: m.id, kind: m.kind, event_id: m.eventId, to_address: m.to, subject: m.subject, text_body: m.text, html_body: m.html,
    status: 'pending', attempts: 0, next_attempt_at: m.createdAt, lease_until: null, last_error: null, created_at: m.createdAt, sent_at: null,
    project_id: m.projectId ?? null, to_user_id: m.toUserId ?? null,
    attachments: m.attachments && m.attachments.length > 0 ? JSON.stringify(m.attachments) : null,
  }).execute();
}

/** The mails queued to a user about a project, newest first, at most `limit` (the index on project, user and time). */
export async function listProjectMail(db: Db, projectId: string, toUserId: string, limit: number): Promise<ProjectMailRow[]> {
  const rows = await db.selectFrom('mail_messages').select(['id', 'kind', 'subject', 'status', 'created_at', 'sent_at'])
    .where('project_id', '=', projectId).where('to_user_id', '=', toUserId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => ({ id: r.id, kind: r.kind, subject: r.subject, status: r.status as MailStatus, createdAt: Number(r.created_at), sentAt: r.sent_at === null ? null : Number(r.sent_at) }));
}

/**
 * Claims up to `limit` due messages for one sender until `now + leaseMs`: pending, due, and not claimed by a sender
 * whose lease still runs. On PostgreSQL rows another instance is claiming are skipped (SKIP LOCKED), so instances
 * never wait for or claim the same message; a crashed sender's claims come free when its lease ends.
 */
export async function claimDueMail(db: Db, dialect: Dialect, now: number, leaseMs: number, limit: number): Promise<ClaimedMail[]> {
  let query = db.selectFrom('mail_messages').selectAll()
    .select((eb) => eb.exists(eb.selectFrom('projects').innerJoin('programs', 'programs.id', 'projects.program_id').select('projects.id')
      .whereRef('projects.id', '=', 'mail_messages.project_id').where('programs.test_of', 'is not', null)).as('for_test'))
    .where('status', '=', 'pending').where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
    .orderBy('next_attempt_at').orderBy('created_at').orderBy('id').limit(limit);
  if (dialect === 'postgres') query = query.forUpdate().skipLocked();
  const rows = await query.execute();
  if (rows.length === 0) return [];
  await db.updateTable('mail_messages').set({ lease_until: now + leaseMs }).where('id', 'in', rows.map((r) => r.id)).execute();
  return rows.map((r) => ({ ...toMessage(r), leaseUntil: now + leaseMs, forTest: Boolean(Number(r.for_test)) }));
}

/** A claimed message; `forTest` when it is about a project of a test program (it is then never sent). */
export interface ClaimedMail extends MailMessage { forTest: boolean }

/** Keeps a claimed message of a test program in its outbox (status `test`) instead of sending it; `kept` replaces its bodies. */
export async function markMailKeptForTest(db: Db, id: string, kept?: KeptBodies): Promise<void> {
  await db.updateTable('mail_messages').set({ status: 'test', lease_until: null, ...keptBodies(kept) })
    .where('id', '=', id).where('status', '=', 'pending').execute();
}

/** The bodies a settled message keeps instead of what was sent (its links' secrets redacted). */
export interface KeptBodies { text: string; html: string }

function keptBodies(kept: KeptBodies | undefined) {
  return kept ? { text_body: kept.text, html_body: kept.html } : {};
}

/** Records that a claimed message went out; `kept` replaces its bodies. */
export async function markMailSent(db: Db, id: string, at: number, attempts: number, kept?: KeptBodies): Promise<void> {
  await db.updateTable('mail_messages').set({ status: 'sent', sent_at: at, attempts, lease_until: null, last_error: null, ...keptBodies(kept) })
    .where('id', '=', id).where('status', '=', 'pending').execute();
}

/**
 * Records a failed attempt: pending again from `nextAttemptAt`, or `failed` for good when nextAttemptAt is null (then
 * `kept` replaces its bodies).
 */
export async function markMailFailed(db: Db, id: string, attempts: number, error: string, nextAttemptAt: number | null, kept?: KeptBodies): Promise<void> {
  await db.updateTable('mail_messages').set({
    status: nextAttemptAt === null ? 'failed' : 'pending', attempts, last_error: error.slice(0, 1000), lease_until: null,
    ...(nextAttemptAt === null ? keptBodies(kept) : { next_attempt_at: nextAttemptAt }),
  }).where('id', '=', id).where('status', '=', 'pending').execute();
}

/**
 * Queues failed notification messages again, due at `now` with a fresh round of attempts (their last error kept until
 * the next attempt): the one with `id`, or every failed one when `id` is null. Returns the ids queued again.
 */
export async function requeueFailedMail(db: Db, id: string | null, now: number): Promise<string[]> {
  const rows = await db.updateTable('mail_messages').set({ status: 'pending', attempts: 0, next_attempt_at: now, lease_until: null })
    // Account mails (no event) lost their link's token when they were given up: sending them again would mail a dead link.
    .where('status', '=', 'failed').where('event_id', 'is not', null).$if(id !== null, (q) => q.where('id', '=', id as string)).returning('id').execute();
  return rows.map((r) => r.id);
}

/** One queued message by its id, or null. */
export async function findMail(db: Db, id: string): Promise<MailMessage | null> {
  const row = await db.selectFrom('mail_messages').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toMessage(row) : null;
}

/** The queued messages, oldest first, optionally of one status and at most the newest `limit` (operators and tests). */
export async function listMail(db: Db, status?: MailStatus, limit?: number): Promise<MailMessage[]> {
  const rows = await db.selectFrom('mail_messages').selectAll().$if(status !== undefined, (q) => q.where('status', '=', status as MailStatus))
    .$if(limit !== undefined, (q) => q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit as number))
    .$if(limit === undefined, (q) => q.orderBy('created_at').orderBy('id')).execute();
  const messages = rows.map(toMessage);
  return limit === undefined ? messages : messages.reverse();
}

/**
 * Whose mails an outbox listing shows: an agency's (the mails about its programs' projects, and the mails about no
 * project addressed to one of its users), or only the mails about the projects of some programs (a program admin's).
 * Mails about no project to an address that is no user's (an invitation to someone new) belong to no agency here.
 */
export interface OutboxScope { agencyId: string; programIds: readonly string[] | null }

/** A place in the outbox's order (newest first): after the mail queued at `at` with id `id`. */
export interface OutboxKey { at: number; id: string }

function outboxQuery(db: Db, scope: OutboxScope) {
  const query = db.selectFrom('mail_messages as m').leftJoin('projects as p', 'p.id', 'm.project_id').selectAll('m');
  if (scope.programIds !== null) return query.where('p.program_id', 'in', scope.programIds.length > 0 ? [...scope.programIds] : ['']);
  return query.where((eb) => eb.or([
    eb('p.program_id', 'in', eb.selectFrom('programs').select('programs.id').where('programs.agency_id', '=', scope.agencyId)),
    eb.and([eb('m.project_id', 'is', null), eb('m.to_address', 'in', eb.selectFrom('users').select('users.email').where('users.agency_id', '=', scope.agencyId))]),
  ]));
}

/** Up to `limit` mails of the scope, newest first (by time queued, then id), of one status when given, after `after`. */
export async function pageOutbox(db: Db, scope: OutboxScope, status: MailStatus | null, after: OutboxKey | null, limit: number): Promise<MailMessage[]> {
  let query = outboxQuery(db, scope);
  if (status !== null) query = query.where('m.status', '=', status);
  if (after !== null) query = query.where((eb) => eb.or([eb('m.created_at', '<', after.at), eb.and([eb('m.created_at', '=', after.at), eb('m.id', '<', after.id)])]));
  const rows = await query.orderBy('m.created_at', 'desc').orderBy('m.id', 'desc').limit(limit).execute();
  return rows.map(toMessage);
}

/** One mail of the scope by its id, or null (also for a mail outside it). */
export async function findOutboxMail(db: Db, scope: OutboxScope, id: string): Promise<MailMessage | null> {
  const row = await outboxQuery(db, scope).where('m.id', '=', id).executeTakeFirst();
  return row ? toMessage(row) : null;
}

/** How many messages wait to be sent. */
export async function countPendingMail(db: Db): Promise<number> {
  const row = await db.selectFrom('mail_messages').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'pending').executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Deletes sent and given-up messages settled before `before` (sent ones by when they went out, given-up ones by when
 * they were queued); waiting ones stay, however old. Returns how many were deleted.
 */
export async function pruneMail(db: Db, before: number): Promise<number> {
  const r = await db.deleteFrom('mail_messages').where((eb) => eb.or([
    eb.and([eb('status', '=', 'sent'), eb('sent_at', '<', before)]),
    eb.and([eb('status', '=', 'failed'), eb('created_at', '<', before)]),
  ])).executeTakeFirst();
  return Number(r.numDeletedRows);
}

const READS = { listMail, countPendingMail, findMail, listProjectMail, pageOutbox, findOutboxMail };

/** The mail queue's reads. */
export type MailReader = ReturnType<typeof mailReader>;

/** The mail queue inside a transaction. */
export type MailRepository = ReturnType<typeof mailRepository>;

/** The mail queue's reads over a database. */
export function mailReader(db: Db) {
  return bindDb(db, READS);
}

/** The mail queue over a transaction: queue, claim and settle messages. */
export function mailRepository(db: Db, dialect: Dialect) {
  return {
    ...bindDb(db, { ...READS, enqueueMail, markMailSent, markMailFailed, markMailKeptForTest, requeueFailedMail, pruneMail }),
    claimDueMail: (now: number, leaseMs: number, limit: number) => claimDueMail(db, dialect, now, leaseMs, limit),
  };
}
