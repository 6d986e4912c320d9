import { randomBytes } from 'node:crypto';
import { isoTimestamp } from '../../model/clock.ts';
import type { EventType } from '../../model/event.ts';
import type { Program } from '../../model/model.ts';
import { WEBHOOK_TEST_EVENT, type WebhookDelivery, type WebhookSubscription } from '../../model/webhook.ts';
import type { StoreWriter } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { loadProgramWith } from '../projects/project-context.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { WebhookNetworkPolicy } from './webhook-address.ts';
import { checkWebhookUrl } from './webhook-url.ts';

/** A subscription as the API shows it: never its secret. */
export interface WebhookSubscriptionView extends Omit<WebhookSubscription, 'secret' | 'previousSecret' | 'createdBy' | 'agencyId' | 'failingSince' | 'pausedUntil' | 'ownerId'> {
  /** The e-mail address of the admin who made it (null when that user is gone). */
  createdBy: string | null;
}

/** The longest grace period of a secret rotation: a week. */
export const MAX_ROTATION_GRACE_HOURS = 168;

/** The grace period of a rotation when none is given: a day. */
export const DEFAULT_ROTATION_GRACE_HOURS = 24;

/** The most failed deliveries one bulk redelivery queues; a caller repeats it for more (those sent again are skipped). */
export const MAX_BULK_REDELIVERIES = 1000;

/** A new subscription (or one whose secret was rotated) with its secret, shown this once. */
export interface CreatedSubscriptionView { subscription: WebhookSubscriptionView; secret: string }

/** A subscription's delivery log, newest first. */
export interface WebhookDeliveriesView { subscriptionId: string; deliveries: WebhookDelivery[] }

/** What CreateWebhookSubscription is given: the target, and the event types (empty: every type). */
export interface NewSubscriptionInput { url: string; eventTypes: EventType[] }

/** What SetWebhookSubscription changes: only what is given. */
export interface SubscriptionChangeInput { url?: string; eventTypes?: EventType[]; enabled?: boolean }

/** What the webhook operations need besides the store: the network policy of targets. */
export type WebhookServiceDeps = Pick<ServiceDeps<'programs' | 'webhooks' | 'accounts'>, 'store' | 'clock' | 'ids'> & { policy: WebhookNetworkPolicy };

/** The operator on the command line: any program of the installation (of `agencyId`, to find one by custom id). */
export interface WebhookOperator { operator: true; agencyId?: string }

/** Who manages subscriptions: an API caller (admins of the program only), or the operator. */
export type WebhookActor = Caller | WebhookOperator;

function isOperator(actor: WebhookActor): actor is WebhookOperator {
  return 'operator' in actor;
}

/** The most subscriptions one program may have: each adds a delivery per event. */
export const MAX_SUBSCRIPTIONS_PER_PROGRAM = 20;

/** A new signing secret in the Standard Webhooks format: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Webhook subscriptions and their delivery logs, for the program's admins. Every change commits with its audit row. */
export class WebhookService {
  readonly #deps: WebhookServiceDeps;

  constructor(deps: WebhookServiceDeps) {
    this.#deps = deps;
  }

  /** CreateWebhookSubscription: a new, enabled subscription; its secret is in this answer only. */
  async create(caller: WebhookActor, programRef: string, input: NewSubscriptionInput): Promise<CreatedSubscriptionView> {
    const { store, clock, ids } = this.#deps;
    const { program } = await this.#program(caller, programRef, 'CreateWebhookSubscription');
    const url = await checkWebhookUrl(input.url, this.#deps.policy);
    const eventTypes = [...new Set(input.eventTypes)];
    const secret = newWebhookSecret();
    const now = clock.now();
    const subscription: WebhookSubscription = {
      id: ids.next(), agencyId: program.agencyId, programId: program.id, url, eventTypes, secret, enabled: true, disabledReason: null,
      disabledAt: null, consecutiveFailures: 0, failingSince: null, pausedUntil: null, previousSecret: null, previousSecretUntil: null, createdAt: now, createdBy: isOperator(caller) ? null : caller.user.id, ownerId: null, updatedAt: now,
    };
    await store.transaction(async (tx) => {
      const existing = await tx.webhooks.listSubscriptions(program.id);
      if (existing.length >= MAX_SUBSCRIPTIONS_PER_PROGRAM) {
        throw new ApiError('CONFLICT', `Program ${program.id} has ${existing.length} webhook subscriptions, the most it may have; delete one first.`);
      }
      await tx.webhooks.insertSubscription(subscription);
      await this.#audit(tx, caller, 'webhook.create', subscription, { url, eventTypes });
    });
    return { subscription: await this.#view(subscription), secret };
  }

  /** GetWebhookSubscriptions: the program's subscriptions, oldest first. */
  async list(caller: WebhookActor, programRef: string): Promise<WebhookSubscriptionView[]> {
    const { program } = await this.#program(caller, programRef, 'GetWebhookSubscriptions');
    const all = await this.#deps.store.webhooks.listSubscriptions(program.id);
    return Promise.all(all.map((s) => this.#view(s)));
  }

  /** GetWebhookSubscription: one subscription. */
  async get(caller: WebhookActor, programRef: string, id: string): Promise<WebhookSubscriptionView> {
    const { program } = await this.#program(caller, programRef, 'GetWebhookSubscription');
    return this.#view(await this.#find(this.#deps.store.webhooks, program.id, id));
  }

  /**
   * SetWebhookSubscription: changes the target, the event types or whether it is enabled. Enabling clears the
   * reason it was disabled and the run of failures, and makes its pending deliveries due now.
   */
  async update(caller: WebhookActor, programRef: string, id: string, input: SubscriptionChangeInput): Promise<WebhookSubscriptionView> {
    const { store, clock } = this.#deps;
    const { program } = await this.#program(caller, programRef, 'SetWebhookSubscription');
    const url = input.url === undefined ? undefined : await checkWebhookUrl(input.url, this.#deps.policy);
    const eventTypes = input.eventTypes === undefined ? undefined : [...new Set(input.eventTypes)];
    const now = clock.now();
    const updated = await store.transaction(async (tx) => {
      const s = await this.#find(tx.webhooks, program.id, id);
      const enabling = input.enabled === true && !s.enabled;
      const disabling = input.enabled === false && s.enabled;
      await tx.webhooks.updateSubscription(s.id, {
        url, eventTypes, updatedAt: now,
        ...(enabling ? { enabled: true, disabledReason: null, disabledAt: null, consecutiveFailures: 0, failingSince: null, pausedUntil: null } : {}),
        ...(disabling ? { enabled: false, disabledReason: `Disabled by ${isOperator(caller) ? 'the operator' : caller.user.email}.`, disabledAt: now } : {}),
      });
      if (enabling) await tx.webhooks.resumeDeliveries(s.id, now);
      const changes = { ...(url !== undefined ? { url } : {}), ...(eventTypes !== undefined ? { eventTypes } : {}), ...(input.enabled !== undefined ? { enabled: input.enabled } : {}) };
      await this.#audit(tx, caller, 'webhook.update', s, changes);
      return this.#find(tx.webhooks, program.id, id);
    });
    return this.#view(updated);
  }

  /** DeleteWebhookSubscription: the subscription and its delivery log; nothing more is sent to it. */
  async delete(caller: WebhookActor, programRef: string, id: string): Promise<void> {
    const { store } = this.#deps;
    const { program } = await this.#program(caller, programRef, 'DeleteWebhookSubscription');
    await store.transaction(async (tx) => {
      const s = await this.#find(tx.webhooks, program.id, id);
      await tx.webhooks.deleteSubscription(s.id);
      await this.#audit(tx, caller, 'webhook.delete', s, { url: s.url });
    });
  }

  /** GetWebhookDeliveries: the subscription's latest deliveries, newest first. */
  async deliveries(caller: WebhookActor, programRef: string, id: string, limit: number): Promise<WebhookDeliveriesView> {
    const { store } = this.#deps;
    const { program } = await this.#program(caller, programRef, 'GetWebhookDeliveries');
    const s = await this.#find(store.webhooks, program.id, id);
    return { subscriptionId: s.id, deliveries: await store.webhooks.listDeliveries(s.id, limit) };
  }

  /**
   * RedeliverWebhookDelivery: sends a delivery's event again as a new delivery with the same body and webhook-id,
   * due now (after any earlier pending delivery of the project, to keep the order).
   */
  async redeliver(caller: WebhookActor, programRef: string, id: string, deliveryId: string): Promise<WebhookDelivery> {
    const { store, clock, ids } = this.#deps;
    const { program } = await this.#program(caller, programRef, 'RedeliverWebhookDelivery');
    const now = clock.now();
    return store.transaction(async (tx) => {
      const s = await this.#find(tx.webhooks, program.id, id);
      const original = await tx.webhooks.findDelivery(s.id, deliveryId);
      if (!original) throw new ApiError('NOT_FOUND', `Delivery "${deliveryId}" was not found in webhook subscription ${s.id}.`);
      const again: WebhookDelivery = {
        ...original, id: ids.next(), status: 'pending', attempts: 0, createdAt: now, nextAttemptAt: now, firstAttemptAt: null, lastAttemptAt: null,
        lastStatusCode: null, lastError: null, deliveredAt: null, redeliveryOf: original.id,
      };
      await tx.webhooks.insertDeliveries([again]);
      await this.#endPause(tx, s, now);
      await this.#audit(tx, caller, 'webhook.redeliver', s, { deliveryId: original.id, newDeliveryId: again.id, eventId: original.eventId });
      return again;
    });
  }

  /**
   * RotateWebhookSecret: gives the subscription a new secret, shown in this answer only. For `graceHours` (0 to
   * 168, default 24) deliveries are signed with the old secret too, so its receiver can switch without refusing any.
   */
  async rotateSecret(caller: WebhookActor, programRef: string, id: string, graceHours: number = DEFAULT_ROTATION_GRACE_HOURS): Promise<CreatedSubscriptionView> {
    const { store, clock } = this.#deps;
    const { program } = await this.#program(caller, programRef, 'RotateWebhookSecret');
    if (!Number.isInteger(graceHours) || graceHours < 0 || graceHours > MAX_ROTATION_GRACE_HOURS) {
      throw new ApiError('INVALID_REQUEST', `GraceHours must be a whole number of hours from 0 to ${MAX_ROTATION_GRACE_HOURS}.`);
    }
    const secret = newWebhookSecret();
    const now = clock.now();
    const rotated = await store.transaction(async (tx) => {
      const s = await this.#find(tx.webhooks, program.id, id);
      const grace = graceHours > 0;
      await tx.webhooks.updateSubscription(s.id, {
        secret, previousSecret: grace ? s.secret : null, previousSecretUntil: grace ? now + graceHours * 3_600_000 : null, updatedAt: now,
      });
      await this.#audit(tx, caller, 'webhook.rotate_secret', s, { graceHours });
      return this.#find(tx.webhooks, program.id, id);
    });
    return { subscription: await this.#view(rotated), secret };
  }

  /**
   * RedeliverFailedWebhookDeliveries: sends again every failed delivery of the subscription made at or after
   * `since` that was not sent again yet (at most 1000 per call, oldest event first), each as RedeliverWebhookDelivery
   * does. Returns the new deliveries.
   */
  async redeliverFailed(caller: WebhookActor, programRef: string, id: string, since: number): Promise<WebhookDeliveriesView> {
    const { store, clock, ids } = this.#deps;
    const { program } = await this.#program(caller, programRef, 'RedeliverFailedWebhookDeliveries');
    const now = clock.now();
    return store.transaction(async (tx) => {
      const s = await this.#find(tx.webhooks, program.id, id);
      const failed = await tx.webhooks.failedSince(s.id, since, MAX_BULK_REDELIVERIES);
      const again = failed.map((original): WebhookDelivery => ({
        ...original, id: ids.next(), status: 'pending', attempts: 0, createdAt: now, nextAttemptAt: now, firstAttemptAt: null, lastAttemptAt: null,
        lastStatusCode: null, lastError: null, deliveredAt: null, redeliveryOf: original.id,
      }));
      await tx.webhooks.insertDeliveries(again);
      await this.#endPause(tx, s, now);
      await this.#audit(tx, caller, 'webhook.redeliver_failed', s, { since: isoTimestamp(since), count: again.length });
      return { subscriptionId: s.id, deliveries: again };
    });
  }

  /**
   * SendWebhookTestEvent (the console's "Send a test event"): a signed `webhook.test` delivery to this subscription
   * only, whatever its event types, through the normal delivery path (retries, log, redelivery), due now. Its body
   * says it is a test (`"type":"webhook.test"`, `data.Test` true) and names no project. CONFLICT while the
   * subscription is disabled: nothing would be sent to it.
   */
  async sendTest(caller: WebhookActor, programRef: string, id: string): Promise<WebhookDelivery> {
    const { store, clock, ids } = this.#deps;
    const { program } = await this.#program(caller, programRef, 'SendWebhookTestEvent');
    const now = clock.now();
    return store.transaction(async (tx) => {
      const s = await this.#find(tx.webhooks, program.id, id);
      if (!s.enabled) throw new ApiError('CONFLICT', `Webhook subscription ${s.id} is disabled; enable it to send a test event.`);
      const eventId = ids.next();
      const data = {
        EventId: eventId, Type: WEBHOOK_TEST_EVENT, Test: true, ProgramId: program.id, SubscriptionId: s.id,
        SentBy: isOperator(caller) ? null : caller.user.email,
      };
      const delivery: WebhookDelivery = {
        id: ids.next(), subscriptionId: s.id, eventId, eventSeq: 0, eventType: WEBHOOK_TEST_EVENT, projectId: '',
        payload: JSON.stringify({ type: WEBHOOK_TEST_EVENT, timestamp: isoTimestamp(now), data }), status: 'pending', attempts: 0, createdAt: now,
        nextAttemptAt: now, firstAttemptAt: null, lastAttemptAt: null, lastStatusCode: null, lastError: null, deliveredAt: null, redeliveryOf: null,
      };
      await tx.webhooks.insertDeliveries([delivery]);
      await this.#endPause(tx, s, now);
      await this.#audit(tx, caller, 'webhook.test', s, { deliveryId: delivery.id, eventId });
      return delivery;
    });
  }

  // The program the actor manages webhooks of: admins of it through the API, any program for the operator.
  async #program(actor: WebhookActor, programRef: string, operation: string): Promise<{ program: Program }> {
    if (!isOperator(actor)) return loadProgramWith(this.#deps, actor, programRef, 'manageWebhooks', operation);
    const program = await this.#deps.store.programs.findProgram(programRef, actor.agencyId);
    if (!program) throw new ApiError('NOT_FOUND', `Program "${programRef}" was not found.`);
    return { program };
  }

  async #find(reader: Pick<StoreWriter['webhooks'], 'findSubscription'>, programId: string, id: string): Promise<WebhookSubscription> {
    const s = await reader.findSubscription(programId, id);
    if (!s) throw new ApiError('NOT_FOUND', `Webhook subscription "${id}" was not found in program ${programId}.`);
    return s;
  }

  async #view(s: WebhookSubscription): Promise<WebhookSubscriptionView> {
    const { secret: _secret, previousSecret: _previous, createdBy, agencyId: _agency, failingSince: _since, pausedUntil: _paused, ownerId: _owner, ...rest } = s;
    const [creator] = createdBy === null ? [] : await this.#deps.store.accounts.usersByIds([createdBy]);
    // A grace period that has ended is no longer shown.
    const previousSecretUntil = s.previousSecretUntil !== null && s.previousSecretUntil > this.#deps.clock.now() ? s.previousSecretUntil : null;
    return { ...rest, previousSecretUntil, createdBy: creator?.email ?? null };
  }

  // A redelivery asked for now is sent now: it ends the subscription's backoff pause (left set, as the mark that a
  // 2xx should make its other waiting deliveries due).
  async #endPause(tx: StoreWriter, s: WebhookSubscription, now: number): Promise<void> {
    if (s.pausedUntil !== null && s.pausedUntil > now) await tx.webhooks.updateSubscription(s.id, { pausedUntil: now });
  }

  // The audit row of a change; never the secret.
  async #audit(tx: StoreWriter, caller: WebhookActor, action: string, s: WebhookSubscription, detail: Record<string, unknown>): Promise<void> {
    const { clock, ids } = this.#deps;
    await tx.audit.write({
      action, actorId: isOperator(caller) ? null : caller.user.id, agencyId: s.agencyId, programId: s.programId,
      requestId: isOperator(caller) ? null : caller.requestId ?? null,
      detail: { subscriptionId: s.id, ...detail },
    }, clock.now(), ids.next());
  }
}
