import type { Kysely, Selectable } from 'kysely';
import type { IdempotencyKeyRecord, StoredAnswer } from '../model/records.ts';
import { bindDb } from './bind-db.ts';
import type { Database, IdempotencyKeyTable } from './tables.ts';

type Db = Kysely<Database>;

/** What a request that takes a key leaves: whose key, what request it was (its fingerprint), which one and when. */
export interface IdempotencyClaimRow { userId: string; key: string; fingerprint: string; requestId: string; createdAt: number }

function toRecord(r: Selectable<IdempotencyKeyTable>): IdempotencyKeyRecord {
  const answer: StoredAnswer | null = r.answer_status === null || r.answer_body === null ? null : {
    status: Number(r.answer_status), headers: JSON.parse(r.answer_headers ?? '{}') as Record<string, string>, body: Buffer.from(r.answer_body),
  };
  return { userId: r.user_id, key: r.key, fingerprint: r.fingerprint, requestId: r.request_id, createdAt: Number(r.created_at), answer };
}

/** A user's key as stored, however old (the caller decides what has expired), or null. */
export async function findIdempotencyKey(db: Db, userId: string, key: string): Promise<IdempotencyKeyRecord | null> {
  const r = await db.selectFrom('idempotency_keys').selectAll().where('user_id', '=', userId).where('key', '=', key).executeTakeFirst();
  return r ? toRecord(r) : null;
}

/**
 * Takes a key for a request, in one statement: a new row, or the row of a key last taken at or before `expiredAt`
 * (its answer dropped). False when the key is held by a row newer than that. On PostgreSQL an insert that meets a key
 * another open transaction has just taken waits for that transaction, and then takes the key only if it rolled back.
 */
export async function claimIdempotencyKey(db: Db, claim: IdempotencyClaimRow, expiredAt: number): Promise<boolean> {
  const r = await db.insertInto('idempotency_keys').values({
    user_id: claim.userId, key: claim.key, fingerprint: claim.fingerprint, request_id: claim.requestId, created_at: claim.createdAt,
    answer_status: null, answer_headers: null, answer_body: null,
  }).onConflict((oc) => oc.columns(['user_id', 'key']).doUpdateSet({
    fingerprint: claim.fingerprint, request_id: claim.requestId, created_at: claim.createdAt, answer_status: null, answer_headers: null, answer_body: null,
  }).where('idempotency_keys.created_at', '<=', expiredAt)).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

/**
 * Stores the answer of the request that took a key (one statement, after its change committed); false when the key
 * is not that request's (any more), or already has an answer.
 */
export async function saveIdempotentAnswer(db: Db, claim: Pick<IdempotencyClaimRow, 'userId' | 'key' | 'requestId'>, answer: StoredAnswer): Promise<boolean> {
  const r = await db.updateTable('idempotency_keys')
    .set({ answer_status: answer.status, answer_headers: JSON.stringify(answer.headers), answer_body: answer.body })
    .where('user_id', '=', claim.userId).where('key', '=', claim.key).where('request_id', '=', claim.requestId).where('answer_status', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Deletes the keys taken at or before `expiredAt`; returns how many. */
export async function deleteExpiredIdempotencyKeys(db: Db, expiredAt: number): Promise<number> {
  const r = await db.deleteFrom('idempotency_keys').where('created_at', '<=', expiredAt).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** The keys outside a transaction: reads, and the single statements that store an answer and sweep old keys. */
export type IdempotencyReader = ReturnType<typeof idempotencyReader>;

/** Idempotency keys over a database or a transaction, without taking a key. */
export function idempotencyReader(db: Db) {
  return bindDb(db, { findIdempotencyKey, saveIdempotentAnswer, deleteExpiredIdempotencyKeys });
}

/** The keys inside a transaction: a key is taken only there, so that it is taken exactly when the change commits. */
export type IdempotencyRepository = ReturnType<typeof idempotencyRepository>;

/** Idempotency keys inside a write transaction. */
export function idempotencyRepository(db: Db) {
  return bindDb(db, { findIdempotencyKey, saveIdempotentAnswer, deleteExpiredIdempotencyKeys, claimIdempotencyKey });
}
