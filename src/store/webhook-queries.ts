import { type Kysely, type Selectable, sql } from 'kysely';
import type { EventType } from '../model/event.ts';
import type { DeliveryEventType, DeliveryStatus, WebhookDelivery, WebhookSubscription } from '../model/webhook.ts';
import { bindDb } from './bind-db.ts';
import type { Dialect } from './dialect.ts';
import type { Database, WebhookDeliveryTable, WebhookSubscriptionTable } from './tables.ts';

type Db = Kysely<Database>;

/** What may change of a subscription. */
export type SubscriptionPatch = Partial<Pick<WebhookSubscription,
  'url' | 'eventTypes' | 'enabled' | 'disabledReason' | 'disabledAt' | 'consecutiveFailures' | 'failingSince' | 'pausedUntil' | 'updatedAt'
  | 'secret' | 'previousSecret' | 'previousSecretUntil'>>;

/** What an attempt changes of a delivery. */
export type DeliveryPatch = Partial<Pick<WebhookDelivery,
  'status' | 'attempts' | 'nextAttemptAt' | 'firstAttemptAt' | 'lastAttemptAt' | 'lastStatusCode' | 'lastError' | 'deliveredAt'>>;

/**
 * A claimed delivery with where and how to send it: the secrets that sign it (the current one first), and for a
 * self-service subscription its owner and program (whose access is checked again before it is sent).
 */
export interface ClaimedDelivery { delivery: WebhookDelivery; url: string; secrets: string[]; ownerId: string | null; programId: string }

function toSubscription(r: Selectable<WebhookSubscriptionTable>): WebhookSubscription {
  return {
    id: r.id, agencyId: r.agency_id, programId: r.program_id, url: r.url, eventTypes: JSON.parse(r.event_types) as EventType[],
    secret: r.secret, previousSecret: r.previous_secret, previousSecretUntil: r.previous_secret_until, enabled: r.enabled === 1, disabledReason: r.disabled_reason, disabledAt: r.disabled_at,
    consecutiveFailures: r.consecutive_failures, failingSince: r.failing_since, pausedUntil: r.paused_until, createdAt: r.created_at, createdBy: r.created_by, ownerId: r.owner_id, updatedAt: r.updated_at,
  };
}

function toDelivery(r: Selectable<WebhookDeliveryTable>): WebhookDelivery {
  return {
    id: r.id, subscriptionId: r.subscription_id, eventId: r.event_id, eventSeq: r.event_seq, eventType: r.event_type as DeliveryEventType,
    projectId: r.project_id, payload: r.payload, status: r.status as DeliveryStatus, attempts: r.attempts, createdAt: r.created_at,
    nextAttemptAt: r.next_attempt_at, firstAttemptAt: r.first_attempt_at, lastAttemptAt: r.last_attempt_at,
    lastStatusCode: r.last_status_code, lastError: r.last_error, deliveredAt: r.delivered_at, redeliveryOf: r.redelivery_of,
  };
}

/** Stores a new subscription. */
export async function insertSubscription(db: Db, s: WebhookSubscription): Promise<void> {
  await db.insertInto('webhook_subscriptions').values({
    id: s.id, agency_id: s.agencyId, program_id: s.programId, url: s.url, event_types: JSON.stringify(s.eventTypes), secret: s.secret,
    enabled: s.enabled ? 1 : 0, disabled_reason: s.disabledReason, disabled_at: s.disabledAt, consecutive_failures: s.consecutiveFailures,
    failing_since: s.failingSince, paused_until: s.pausedUntil, last_success_at: null,
    previous_secret: s.previousSecret, previous_secret_until: s.previousSecretUntil, created_at: s.createdAt, created_by: s.createdBy, owner_id: s.ownerId, updated_at: s.updatedAt,
  }).execute();
}

/** One of a program's own subscriptions (not a user's self-service one). */
export async function findSubscription(db: Db, programId: string, id: string): Promise<WebhookSubscription | undefined> {
  const row = await db.selectFrom('webhook_subscriptions').selectAll().where('program_id', '=', programId).where('id', '=', id)
    .where('owner_id', 'is', null).executeTakeFirst();
  return row ? toSubscription(row) : undefined;
}

/** A program's own subscriptions (not users' self-service ones), oldest first. */
export async function listSubscriptions(db: Db, programId: string): Promise<WebhookSubscription[]> {
  const rows = await db.selectFrom('webhook_subscriptions').selectAll().where('program_id', '=', programId).where('owner_id', 'is', null)
    .orderBy('created_at').orderBy('id').execute();
  return rows.map(toSubscription);
}

/** One self-service subscription of a user. */
export async function findOwnedSubscription(db: Db, ownerId: string, id: string): Promise<WebhookSubscription | undefined> {
  const row = await db.selectFrom('webhook_subscriptions').selectAll().where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
  return row ? toSubscription(row) : undefined;
}

/** A user's self-service subscriptions, of every program, oldest first. */
export async function listOwnedSubscriptions(db: Db, ownerId: string): Promise<WebhookSubscription[]> {
  const rows = await db.selectFrom('webhook_subscriptions').selectAll().where('owner_id', '=', ownerId).orderBy('created_at').orderBy('id').execute();
  return rows.map(toSubscription);
}

/** The enabled subscriptions of the given programs (the fan-out). */
export async function enabledSubscriptions(db: Db, programIds: string[]): Promise<WebhookSubscription[]> {
  if (programIds.length === 0) return [];
  const rows = await db.selectFrom('webhook_subscriptions').selectAll().where('program_id', 'in', programIds).where('enabled', '=', 1).orderBy('created_at').orderBy('id').execute();
  return rows.map(toSubscription);
}

/** Changes a subscription. */
export async function updateSubscription(db: Db, id: string, p: SubscriptionPatch): Promise<void> {
  await db.updateTable('webhook_subscriptions').set({
    ...(p.url !== undefined ? { url: p.url } : {}),
    ...(p.eventTypes !== undefined ? { event_types: JSON.stringify(p.eventTypes) } : {}),
    ...(p.enabled !== undefined ? { enabled: p.enabled ? 1 : 0 } : {}),
    ...(p.disabledReason !== undefined ? { disabled_reason: p.disabledReason } : {}),
    ...(p.disabledAt !== undefined ? { disabled_at: p.disabledAt } : {}),
    ...(p.consecutiveFailures !== undefined ? { consecutive_failures: p.consecutiveFailures } : {}),
    ...(p.failingSince !== undefined ? { failing_since: p.failingSince } : {}),
    ...(p.pausedUntil !== undefined ? { paused_until: p.pausedUntil } : {}),
    ...(p.secret !== undefined ? { secret: p.secret } : {}),
    ...(p.previousSecret !== undefined ? { previous_secret: p.previousSecret } : {}),
    ...(p.previousSecretUntil !== undefined ? { previous_secret_until: p.previousSecretUntil } : {}),
    ...(p.updatedAt !== undefined ? { updated_at: p.updatedAt } : {}),
  }).where('id', '=', id).execute();
}

/** Deletes a subscription and its delivery log. */
export async function deleteSubscription(db: Db, id: string): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('subscription_id', '=', id).execute();
  await db.deleteFrom('webhook_subscriptions').where('id', '=', id).execute();
}

/** Stores new deliveries. */
export async function insertDeliveries(db: Db, deliveries: readonly WebhookDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  await db.insertInto('webhook_deliveries').values(deliveries.map((d) => ({
    id: d.id, subscription_id: d.subscriptionId, event_id: d.eventId, event_seq: d.eventSeq, event_type: d.eventType, project_id: d.projectId,
    payload: d.payload, status: d.status, attempts: d.attempts, created_at: d.createdAt, next_attempt_at: d.nextAttemptAt,
    first_attempt_at: d.firstAttemptAt, last_attempt_at: d.lastAttemptAt, last_status_code: d.lastStatusCode, last_error: d.lastError,
    delivered_at: d.deliveredAt, redelivery_of: d.redeliveryOf, lease_owner: null, lease_until: null,
  }))).execute();
}

/** One delivery of a subscription. */
export async function findDelivery(db: Db, subscriptionId: string, id: string): Promise<WebhookDelivery | undefined> {
  const row = await db.selectFrom('webhook_deliveries').selectAll().where('subscription_id', '=', subscriptionId).where('id', '=', id).executeTakeFirst();
  return row ? toDelivery(row) : undefined;
}

/** A subscription's delivery log, newest first (by event sequence, then creation). */
export async function listDeliveries(db: Db, subscriptionId: string, limit: number): Promise<WebhookDelivery[]> {
  const rows = await db.selectFrom('webhook_deliveries').selectAll().where('subscription_id', '=', subscriptionId)
    .orderBy('created_at', 'desc').orderBy('event_seq', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map(toDelivery);
}

/**
 * A page of a subscription's delivery log for the console, newest first by when each was made (then id), after the
 * delivery made at `after.at` with id `after.id`: a keyset, so deliveries made meanwhile never shift the next page.
 */
export async function pageDeliveries(db: Db, subscriptionId: string, after: { at: number; id: string } | null, limit: number): Promise<WebhookDelivery[]> {
  let query = db.selectFrom('webhook_deliveries').selectAll().where('subscription_id', '=', subscriptionId);
  if (after !== null) query = query.where((eb) => eb.or([eb('created_at', '<', after.at), eb.and([eb('created_at', '=', after.at), eb('id', '<', after.id)])]));
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map(toDelivery);
}

/** Every delivery of a subscription in sending order (operators and tests). */
export async function listAllDeliveries(db: Db, subscriptionId: string): Promise<WebhookDelivery[]> {
  const rows = await db.selectFrom('webhook_deliveries').selectAll().where('subscription_id', '=', subscriptionId).orderBy('event_seq').orderBy('created_at').execute();
  return rows.map(toDelivery);
}

/** How deliveries are picked per subscription (the rules are the worker's: src/domain/webhooks/webhook-worker.ts). */
export interface ClaimPolicy {
  /** Deliveries of one subscription in flight at once (leased, on any instance) while its attempts succeed. */
  perSubscription: number;
  /** The same while its last attempt failed: a failing receiver gets one attempt at a time. */
  whileFailing: number;
  /**
   * How long (from its first attempt) an earlier pending delivery holds back its project's later ones once its
   * receiver has accepted a delivery since that attempt; while none was accepted since, it holds them back.
   */
  holdMs: number;
}

/**
 * Claims up to `limit` due deliveries for `owner` until `leaseUntil`: pending, due by `now`, not leased by a live
 * claim, of an enabled subscription that is not paused, not held back by an earlier pending delivery of their
 * subscription and project (in order per project, within `policy.holdMs`), and, per subscription, no more than its
 * room: `policy.perSubscription` (or `whileFailing`) less its deliveries leased now. So one subscription can neither
 * take a whole claim nor hold more than its share of attempts. On PostgreSQL the rows are locked FOR UPDATE SKIP
 * LOCKED, so concurrent claims take different rows; SQLite has one writer at a time. Run inside a transaction, so
 * the lease commits with the claim.
 */
export async function claimDue(db: Db, dialect: Dialect, owner: string, now: number, leaseUntil: number, limit: number, policy: ClaimPolicy): Promise<ClaimedDelivery[]> {
  const leased = db.selectFrom('webhook_deliveries').select(['subscription_id', (eb) => eb.fn.countAll().as('n')])
    .where('status', '=', 'pending').where('lease_until', '>=', now).groupBy('subscription_id');
  const ranked = db.selectFrom('webhook_deliveries as d').innerJoin('webhook_subscriptions as s', 's.id', 'd.subscription_id')
    .leftJoin(leased.as('l'), 'l.subscription_id', 'd.subscription_id')
    .select(['d.id', 'd.next_attempt_at', 'd.event_seq',
      sql<number>`row_number() over (partition by ${sql.ref('d.subscription_id')} order by ${sql.ref('d.next_attempt_at')}, ${sql.ref('d.event_seq')})`.as('place'),
      sql<number>`(case when ${sql.ref('s.consecutive_failures')} > 0 then ${sql.lit(policy.whileFailing)} else ${sql.lit(policy.perSubscription)} end) - coalesce(${sql.ref('l.n')}, 0)`.as('room')])
    .where('d.status', '=', 'pending').where('d.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', now)]))
    .where('s.enabled', '=', 1)
    .where((eb) => eb.or([eb('s.paused_until', 'is', null), eb('s.paused_until', '<=', now)]))
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('webhook_deliveries as e').select('e.id')
      .whereRef('e.subscription_id', '=', 'd.subscription_id').whereRef('e.project_id', '=', 'd.project_id')
      .where('e.status', '=', 'pending').whereRef('e.event_seq', '<', 'd.event_seq')
      .where((eb) => eb.or([
        eb('e.first_attempt_at', 'is', null), eb('e.first_attempt_at', '>', now - policy.holdMs),
        eb('s.last_success_at', 'is', null), eb('s.last_success_at', '<', eb.ref('e.first_attempt_at')),
      ])))));
  const chosen = db.selectFrom(ranked.as('c')).select('c.id').whereRef('c.place', '<=', 'c.room')
    .orderBy('c.next_attempt_at').orderBy('c.event_seq').limit(limit);
  let query = db.selectFrom('webhook_deliveries as d').select('d.id').where('d.id', 'in', chosen)
    .where('d.status', '=', 'pending').where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', now)]));
  if (dialect === 'postgres') query = query.forUpdate().skipLocked();
  const ids = (await query.execute()).map((r) => r.id);
  if (ids.length === 0) return [];
  await db.updateTable('webhook_deliveries').set({ lease_owner: owner, lease_until: leaseUntil }).where('id', 'in', ids).execute();
  const rows = await db.selectFrom('webhook_deliveries as d').innerJoin('webhook_subscriptions as s', 's.id', 'd.subscription_id')
    .selectAll('d').select(['s.url as target_url', 's.secret as target_secret', 's.previous_secret', 's.previous_secret_until', 's.owner_id', 's.program_id']).where('d.id', 'in', ids)
    .orderBy('d.next_attempt_at').orderBy('d.event_seq').execute();
  // During a rotation's grace period a delivery is signed with the old secret too.
  return rows.map((r) => ({
    delivery: toDelivery(r), url: r.target_url, ownerId: r.owner_id, programId: r.program_id,
    secrets: r.previous_secret !== null && r.previous_secret_until !== null && r.previous_secret_until > now ? [r.target_secret, r.previous_secret] : [r.target_secret],
  }));
}

/**
 * Records an attempt and ends the lease, if `owner` still holds it; false when its lease ran out and another
 * instance took the delivery over (that instance records its own attempt).
 */
export async function finishAttempt(db: Db, id: string, owner: string, p: DeliveryPatch): Promise<boolean> {
  const result = await db.updateTable('webhook_deliveries').set({
    ...(p.status !== undefined ? { status: p.status } : {}),
    ...(p.attempts !== undefined ? { attempts: p.attempts } : {}),
    ...(p.nextAttemptAt !== undefined ? { next_attempt_at: p.nextAttemptAt } : {}),
    ...(p.firstAttemptAt !== undefined ? { first_attempt_at: p.firstAttemptAt } : {}),
    ...(p.lastAttemptAt !== undefined ? { last_attempt_at: p.lastAttemptAt } : {}),
    ...(p.lastStatusCode !== undefined ? { last_status_code: p.lastStatusCode } : {}),
    ...(p.lastError !== undefined ? { last_error: p.lastError } : {}),
    ...(p.deliveredAt !== undefined ? { delivered_at: p.deliveredAt } : {}),
    lease_owner: null, lease_until: null,
  }).where('id', '=', id).where('lease_owner', '=', owner).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Counts a failed attempt in its subscription's run of failures (and starts the run at `at`). Arithmetic in SQL, so
 * concurrent attempts of one subscription all count. Returns the subscription.
 */
export async function noteFailure(db: Db, id: string, at: number): Promise<WebhookSubscription | undefined> {
  await db.updateTable('webhook_subscriptions')
    .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1), failing_since: eb.fn.coalesce('failing_since', eb.val(at)) }))
    .where('id', '=', id).execute();
  const row = await db.selectFrom('webhook_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toSubscription(row) : undefined;
}

/**
 * Ends a subscription's run of failures after a 2xx. When it was backing off (paused), the backoff ends too and its
 * pending deliveries, which waited for their own retries, are made due at `at`: the receiver is back. True then.
 */
export async function noteSuccess(db: Db, id: string, at: number): Promise<boolean> {
  const paused = await db.updateTable('webhook_subscriptions').set({ paused_until: null }).where('id', '=', id).where('paused_until', 'is not', null).executeTakeFirst();
  await db.updateTable('webhook_subscriptions').set({ consecutive_failures: 0, failing_since: null, last_success_at: at }).where('id', '=', id).execute();
  if (Number(paused.numUpdatedRows) === 0) return false;
  await resumeDeliveries(db, id, at);
  return true;
}

/** Makes a subscription's pending deliveries due at `now` (when it is enabled again). */
export async function resumeDeliveries(db: Db, subscriptionId: string, now: number): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ next_attempt_at: now }).where('subscription_id', '=', subscriptionId).where('status', '=', 'pending')
    .where('next_attempt_at', '>', now).execute();
}

/**
 * The failed deliveries of a subscription made at or after `since` that were not sent again yet (no delivery is a
 * redelivery of them), oldest event first, at most `limit`.
 */
export async function failedSince(db: Db, subscriptionId: string, since: number, limit: number): Promise<WebhookDelivery[]> {
  const rows = await db.selectFrom('webhook_deliveries as d').selectAll('d').where('d.subscription_id', '=', subscriptionId)
    .where('d.status', '=', 'failed').where('d.created_at', '>=', since)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('webhook_deliveries as r').select('r.id').whereRef('r.redelivery_of', '=', 'd.id'))))
    .orderBy('d.event_seq').orderBy('d.created_at').limit(limit).execute();
  return rows.map(toDelivery);
}

/** Deletes delivered and failed deliveries made before `before` (the log's retention); pending ones stay. Returns how many. */
export async function pruneDeliveries(db: Db, before: number): Promise<number> {
  const result = await db.deleteFrom('webhook_deliveries').where('status', 'in', ['delivered', 'failed']).where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

const READS = { findSubscription, listSubscriptions, findOwnedSubscription, listOwnedSubscriptions, enabledSubscriptions, findDelivery, listDeliveries, pageDeliveries, listAllDeliveries };

/** The webhooks' reads. */
export type WebhookReader = ReturnType<typeof webhookReader>;

/** Subscriptions and deliveries inside a transaction. */
export type WebhookRepository = ReturnType<typeof webhookRepository>;

/** The webhooks' reads over a database. */
export function webhookReader(db: Db) {
  return bindDb(db, READS);
}

/** Subscriptions and deliveries over a transaction. */
export function webhookRepository(db: Db, dialect: Dialect) {
  return {
    ...bindDb(db, { ...READS, insertSubscription, updateSubscription, deleteSubscription, insertDeliveries, finishAttempt, noteFailure, noteSuccess, resumeDeliveries, failedSince, pruneDeliveries }),
    claimDue: (owner: string, now: number, leaseUntil: number, limit: number, policy: ClaimPolicy) => claimDue(db, dialect, owner, now, leaseUntil, limit, policy),
  };
}
