import type { Kysely } from 'kysely';
import type { MfaEnrolment, MfaSessionTokenRecord, WebSessionRecord } from '../model/records.ts';
import { bindDb } from './bind-db.ts';
import type { SecretBox } from './secret-box.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

/** A user's TOTP enrolment, if any. */
export async function getMfa(db: Db, userId: string): Promise<MfaEnrolment | null> {
  const r = await db.selectFrom('user_mfa').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return r ? { userId: r.user_id, secret: r.secret, enrolledAt: r.enrolled_at, lastStep: r.last_step } : null;
}

/** Enrols a user (or replaces the enrolment), forgetting any used step. */
export async function saveMfa(db: Db, userId: string, secret: string, at: number): Promise<void> {
  await db.insertInto('user_mfa').values({ user_id: userId, secret, enrolled_at: at, last_step: 0 })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret, enrolled_at: at, last_step: 0 })).execute();
}

/** Ends a user's enrolment, session token and web sessions; false when the user was not enrolled. */
export async function deleteMfa(db: Db, userId: string): Promise<boolean> {
  await db.deleteFrom('mfa_session_tokens').where('user_id', '=', userId).execute();
  await db.deleteFrom('web_sessions').where('user_id', '=', userId).execute();
  const r = await db.deleteFrom('user_mfa').where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Records a TOTP time step as used; false when it (or a later one) was used before, so a code works once. */
export async function claimTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const r = await db.updateTable('user_mfa').set({ last_step: step }).where('user_id', '=', userId).where('last_step', '<', step).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** An MFA session token by id. */
export async function getSessionToken(db: Db, id: string): Promise<MfaSessionTokenRecord | null> {
  const r = await db.selectFrom('mfa_session_tokens').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? { id: r.id, userId: r.user_id, tokenHash: r.token_hash, createdAt: r.created_at, expiresAt: r.expires_at } : null;
}

/** Stores a user's new session token, deleting the earlier one (one token per user). */
export async function replaceSessionToken(db: Db, t: MfaSessionTokenRecord): Promise<void> {
  await db.deleteFrom('mfa_session_tokens').where('user_id', '=', t.userId).execute();
  await db.insertInto('mfa_session_tokens').values({ id: t.id, user_id: t.userId, token_hash: t.tokenHash, created_at: t.createdAt, expires_at: t.expiresAt }).execute();
}

/** Deletes a session token of a user; false when that user has no token with that id. */
export async function deleteSessionToken(db: Db, userId: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom('mfa_session_tokens').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** A web session by id. */
export async function getWebSession(db: Db, id: string): Promise<WebSessionRecord | null> {
  const r = await db.selectFrom('web_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? { id: r.id, userId: r.user_id, secretHash: r.secret_hash, createdAt: Number(r.created_at), expiresAt: Number(r.expires_at) } : null;
}

/** Stores a web session; the user's expired ones are deleted, so a user's rows stay few. */
export async function insertWebSession(db: Db, s: WebSessionRecord): Promise<void> {
  await db.deleteFrom('web_sessions').where('user_id', '=', s.userId).where('expires_at', '<=', s.createdAt).execute();
  await db.insertInto('web_sessions').values({ id: s.id, user_id: s.userId, secret_hash: s.secretHash, created_at: s.createdAt, expires_at: s.expiresAt }).execute();
}

// claimTotpStep is one atomic statement, so it is also offered outside transactions.
const READS = { getMfa, getSessionToken, getWebSession, claimTotpStep };
const WRITES = { saveMfa, deleteMfa, replaceSessionToken, deleteSessionToken, insertWebSession };

/** TOTP enrolments, MFA session tokens and web sessions: reads, and the atomic claim of a TOTP step. */
export type MfaReader = ReturnType<typeof mfaReader>;

/** TOTP enrolments, MFA session tokens and web sessions: reads and writes (inside a transaction). */
export type MfaRepository = ReturnType<typeof mfaRepository>;

/** What a TOTP secret is sealed against: its column and its user, so it cannot be moved to another user. */
export function mfaSecretContext(userId: string): string {
  return `user_mfa.secret:${userId}`;
}

// The TOTP secret is sealed on its way in and opened on its way out, so nothing above the store sees ciphertext.
function sealed(secrets: SecretBox) {
  return {
    getMfa: async (db: Db, userId: string) => {
      const m = await getMfa(db, userId);
      return m ? { ...m, secret: secrets.open(m.secret, mfaSecretContext(userId)) } : null;
    },
    saveMfa: (db: Db, userId: string, secret: string, at: number) => saveMfa(db, userId, secrets.seal(secret, mfaSecretContext(userId)), at),
  };
}

/** The MFA reads over a database. */
export function mfaReader(db: Db, secrets: SecretBox) {
  return bindDb(db, { ...READS, getMfa: sealed(secrets).getMfa });
}

/** The MFA reads and writes over a transaction. */
export function mfaRepository(db: Db, secrets: SecretBox) {
  return bindDb(db, { ...READS, ...WRITES, ...sealed(secrets) });
}
