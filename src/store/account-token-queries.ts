import type { Kysely } from 'kysely';
import { bindDb } from './bind-db.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

/** What a mailed link is for. */
export type TokenPurpose = 'confirm' | 'reset' | 'invite';

/** A stored link token (its hash only). */
export interface AccountToken {
  id: string; userId: string; purpose: TokenPurpose; tokenHash: string; programId: string | null;
  /** No longer written (null): confirmation links carried the password of their sign-up before the password was chosen at confirmation; ignored. */
  passwordHash: string | null;
  createdAt: number; expiresAt: number; usedAt: number | null;
}

/** Stores a new token. */
export async function insertAccountToken(db: Db, t: AccountToken): Promise<void> {
  await db.insertInto('account_tokens').values({
    id: t.id, user_id: t.userId, purpose: t.purpose, token_hash: t.tokenHash, program_id: t.programId, password_hash: t.passwordHash,
    created_at: t.createdAt, expires_at: t.expiresAt, used_at: t.usedAt,
  }).execute();
}

/** A token by its hash, whatever its state (the caller decides what is used or expired). */
export async function findAccountToken(db: Db, tokenHash: string): Promise<AccountToken | null> {
  const r = await db.selectFrom('account_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  return r ? {
    id: r.id, userId: r.user_id, purpose: r.purpose as TokenPurpose, tokenHash: r.token_hash, programId: r.program_id, passwordHash: r.password_hash,
    createdAt: Number(r.created_at), expiresAt: Number(r.expires_at), usedAt: r.used_at === null ? null : Number(r.used_at),
  } : null;
}

/**
 * Uses a token: true only for the one transaction that marks it used while unused and unexpired (a conditional
 * update, so two clicks of one link cannot both succeed).
 */
export async function useAccountToken(db: Db, id: string, now: number): Promise<boolean> {
  const r = await db.updateTable('account_tokens').set({ used_at: now })
    .where('id', '=', id).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Ends a user's live tokens of one purpose, by expiring them (a new link replaces the older ones). */
export async function retireAccountTokens(db: Db, userId: string, purpose: TokenPurpose, now: number): Promise<void> {
  await db.updateTable('account_tokens').set({ expires_at: now }).where('user_id', '=', userId).where('purpose', '=', purpose)
    .where('used_at', 'is', null).where('expires_at', '>', now).execute();
}

/**
 * Uses up every unused link of a user, live or expired (an operator disabled the account): none works any more, and
 * the user no longer counts as awaiting confirmation, so a new sign-up with the address cannot bring the account back.
 */
export async function consumeAccountTokens(db: Db, userId: string, now: number): Promise<void> {
  await db.updateTable('account_tokens').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

/**
 * True when a user signed up but never confirmed the address: they have confirmation links and none was used
 * (replaced links expire rather than count as used, see retireAccountTokens).
 */
export async function awaitsConfirmation(db: Db, userId: string): Promise<boolean> {
  const rows = await db.selectFrom('account_tokens').select('used_at').where('user_id', '=', userId).where('purpose', '=', 'confirm').execute();
  return rows.length > 0 && rows.every((r) => r.used_at === null);
}

/**
 * The program of a user's newest confirmation link while none of them was used (signed up, never confirmed, not
 * disabled by an operator since); undefined otherwise.
 */
export async function pendingConfirmation(db: Db, userId: string): Promise<{ programId: string | null } | undefined> {
  if (!(await awaitsConfirmation(db, userId))) return undefined;
  const row = await db.selectFrom('account_tokens').select('program_id').where('user_id', '=', userId).where('purpose', '=', 'confirm')
    .orderBy('created_at', 'desc').limit(1).executeTakeFirst();
  return row ? { programId: row.program_id } : undefined;
}

/** What ends with a user's sessions: the OAuth access tokens of the user's clients too, or only the sessions. */
export type SessionsToEnd = 'sessions' | 'sessions-and-access-tokens';

/**
 * Ends every session of a user: web-page sessions, the landing page's MFA cookies and MFA session tokens; with
 * `sessions-and-access-tokens` also revokes the live OAuth access tokens of the user's clients (not the clients).
 */
export async function endUserSessions(db: Db, userId: string, what: SessionsToEnd, now: number): Promise<void> {
  await db.deleteFrom('browser_sessions').where('user_id', '=', userId).execute();
  await db.deleteFrom('web_sessions').where('user_id', '=', userId).execute();
  await db.deleteFrom('mfa_session_tokens').where('user_id', '=', userId).execute();
  if (what === 'sessions-and-access-tokens') {
    await db.updateTable('oauth_tokens').set({ revoked_at: now }).where('revoked_at', 'is', null)
      .where('client_id', 'in', (eb) => eb.selectFrom('oauth_clients').select('id').where('user_id', '=', userId)).execute();
  }
}

const READS = { findAccountToken, awaitsConfirmation, pendingConfirmation };

/** Link tokens' reads. */
export type AccountTokenReader = ReturnType<typeof accountTokenReader>;

/** Link tokens inside a transaction. */
export type AccountTokenRepository = ReturnType<typeof accountTokenRepository>;

/** Link tokens' reads over a database. */
export function accountTokenReader(db: Db) {
  return bindDb(db, READS);
}

/** Link tokens over a transaction: store, use and retire them; end a user's sessions. */
export function accountTokenRepository(db: Db) {
  return bindDb(db, { ...READS, insertAccountToken, useAccountToken, retireAccountTokens, consumeAccountTokens, endUserSessions });
}
