import type { Kysely, Selectable } from 'kysely';
import type { BrowserSessionRecord } from '../model/records.ts';
import { bindDb } from './bind-db.ts';
import type { BrowserSessionTable, Database } from './tables.ts';

type Db = Kysely<Database>;

function toRecord(r: Selectable<BrowserSessionTable>): BrowserSessionRecord {
  return {
    id: r.id, userId: r.user_id, secretHash: r.secret_hash, createdAt: Number(r.created_at), lastSeenAt: Number(r.last_seen_at),
    expiresAt: Number(r.expires_at), mfaPending: Number(r.mfa_pending) === 1,
  };
}

/** A browser session by id. */
export async function getBrowserSession(db: Db, id: string): Promise<BrowserSessionRecord | null> {
  const r = await db.selectFrom('browser_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? toRecord(r) : null;
}

/** Stores a new browser session and deletes the user's ended ones, so a user's rows stay few. */
export async function insertBrowserSession(db: Db, s: BrowserSessionRecord): Promise<void> {
  await db.deleteFrom('browser_sessions').where('user_id', '=', s.userId).where('expires_at', '<=', s.createdAt).execute();
  await db.insertInto('browser_sessions').values({
    id: s.id, user_id: s.userId, secret_hash: s.secretHash, created_at: s.createdAt, last_seen_at: s.lastSeenAt, expires_at: s.expiresAt,
    mfa_pending: s.mfaPending ? 1 : 0,
  }).execute();
}

/** Records that a session was used (one statement: sessions are not project changes and need no transaction). */
export async function touchBrowserSession(db: Db, id: string, at: number): Promise<void> {
  await db.updateTable('browser_sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
}

/** Marks a pending session's MFA step as done; false when it was not pending (a replayed step). */
export async function completeBrowserSessionMfa(db: Db, id: string, at: number): Promise<boolean> {
  const r = await db.updateTable('browser_sessions').set({ mfa_pending: 0, last_seen_at: at }).where('id', '=', id).where('mfa_pending', '=', 1).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Ends a session (sign-out); ending one that is gone is not an error. */
export async function deleteBrowserSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('browser_sessions').where('id', '=', id).execute();
}

/** Records a user's completed sign-in on the web pages (one statement, like a session's use). */
export async function recordSignIn(db: Db, userId: string, at: number): Promise<void> {
  await db.updateTable('users').set({ last_sign_in_at: at }).where('id', '=', userId).execute();
}

/** Records that an API key authenticated a request (the caller writes at most once a minute per key). */
export async function markApiKeyUsed(db: Db, id: string, at: number): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}

/** Records that an OAuth client was issued an access token. */
export async function markClientUsed(db: Db, id: string, at: number): Promise<void> {
  await db.updateTable('oauth_clients').set({ last_used_at: at }).where('id', '=', id).execute();
}

/** Sessions of the web application's sign-in page, and the marks of a sign-in's or a credential's last use; every method is one statement. */
export type BrowserSessionRepository = ReturnType<typeof browserSessionRepository>;

/** The browser sessions over a database or a transaction. */
export function browserSessionRepository(db: Db) {
  return bindDb(db, {
    getBrowserSession, insertBrowserSession, touchBrowserSession, completeBrowserSessionMfa, deleteBrowserSession, recordSignIn, markApiKeyUsed, markClientUsed,
  });
}
