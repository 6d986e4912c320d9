import type { Kysely, Selectable } from 'kysely';
import type { AccessTokenRecord, OAuthClientRecord } from '../model/records.ts';
import { bindDb } from './bind-db.ts';
import type { Database, OAuthClientTable, OAuthTokenTable } from './tables.ts';

type Db = Kysely<Database>;

function toClient(r: Selectable<OAuthClientTable>): OAuthClientRecord {
  return {
    id: r.id, userId: r.user_id, name: r.name, secretHash: r.secret_hash, createdAt: r.created_at, revokedAt: r.revoked_at,
    lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
  };
}

function toToken(r: Selectable<OAuthTokenTable>): AccessTokenRecord {
  return { id: r.id, clientId: r.client_id, tokenHash: r.token_hash, createdAt: r.created_at, expiresAt: r.expires_at, revokedAt: r.revoked_at };
}

/** An OAuth client by its public id. */
export async function findClient(db: Db, id: string): Promise<OAuthClientRecord | null> {
  const r = await db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? toClient(r) : null;
}

/** The OAuth clients of a user, oldest first. */
export async function listClients(db: Db, userId: string): Promise<OAuthClientRecord[]> {
  const rows = await db.selectFrom('oauth_clients').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
  return rows.map(toClient);
}

/** An access token by its id. */
export async function findAccessToken(db: Db, id: string): Promise<AccessTokenRecord | null> {
  const r = await db.selectFrom('oauth_tokens').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? toToken(r) : null;
}

/** Inserts an OAuth client. */
export async function insertClient(db: Db, c: OAuthClientRecord): Promise<void> {
  await db.insertInto('oauth_clients').values({
    id: c.id, user_id: c.userId, name: c.name, secret_hash: c.secretHash, created_at: c.createdAt, revoked_at: c.revokedAt,
  }).execute();
}

/** Revokes a live client and every live token issued to it; false when no live client has that id. */
export async function revokeClient(db: Db, id: string, at: number): Promise<boolean> {
  const r = await db.updateTable('oauth_clients').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return false;
  await db.updateTable('oauth_tokens').set({ revoked_at: at }).where('client_id', '=', id).where('revoked_at', 'is', null).execute();
  return true;
}

/** Stores a new access token; the client's tokens that expired by then are deleted, so a client's rows stay few. */
export async function insertAccessToken(db: Db, t: AccessTokenRecord): Promise<void> {
  await db.deleteFrom('oauth_tokens').where('client_id', '=', t.clientId).where('expires_at', '<=', t.createdAt).execute();
  await db.insertInto('oauth_tokens').values({
    id: t.id, client_id: t.clientId, token_hash: t.tokenHash, created_at: t.createdAt, expires_at: t.expiresAt, revoked_at: t.revokedAt,
  }).execute();
}

/** Revokes a live token of one client; false when that client has no live token with that id. */
export async function revokeAccessToken(db: Db, id: string, clientId: string, at: number): Promise<boolean> {
  const r = await db.updateTable('oauth_tokens').set({ revoked_at: at })
    .where('id', '=', id).where('client_id', '=', clientId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

const READS = { findClient, listClients, findAccessToken };
const WRITES = { insertClient, revokeClient, insertAccessToken, revokeAccessToken };

/** OAuth clients and their access tokens: reads. */
export type OAuthReader = ReturnType<typeof oauthReader>;

/** OAuth clients and their access tokens: reads and writes (inside a transaction). */
export type OAuthRepository = ReturnType<typeof oauthRepository>;

/** The OAuth reads over a database. */
export function oauthReader(db: Db) {
  return bindDb(db, READS);
}

/** The OAuth reads and writes over a transaction. */
export function oauthRepository(db: Db) {
  return bindDb(db, { ...READS, ...WRITES });
}
