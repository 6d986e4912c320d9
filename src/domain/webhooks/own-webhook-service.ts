import type { WebhookDelivery, WebhookSubscription } from '../../model/webhook.ts';
import { type EventType, isEventType } from '../../model/event.ts';
import type { Store, StoreWriter } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import { loadProgram } from '../projects/project-context.ts';
import { roleIn } from '../roles/access.ts';
import type { WebhookNetworkPolicy } from './webhook-address.ts';
import { DEFAULT_ROTATION_GRACE_HOURS, MAX_ROTATION_GRACE_HOURS, newWebhookSecret } from './webhook-service.ts';
import { checkWebhookUrl } from './webhook-url.ts';

/** The most self-service subscriptions one user may have, over all programs. */
export const MAX_OWN_SUBSCRIPTIONS = 5;

/** The most deliveries the account page shows of one subscription. */
export const OWN_DELIVERY_LOG = 50;

/** A user's own subscription as the account page shows it: never its secret. */
export interface OwnSubscriptionView {
  id: string; programId: string; programName: string; url: string; enabled: boolean; disabledReason: string | null; createdAt: number;
  /** The kinds of event sent; empty: every kind. */
  eventTypes: EventType[];
  /** Until when deliveries are also signed with the secret before the last rotation (null: none, or that time passed). */
  previousSecretUntil: number | null;
}

/** The caller's subscriptions, whether the agency allows new ones, and the programs they could subscribe to. */
export interface OwnWebhooksView { allowed: boolean; subscriptions: OwnSubscriptionView[]; programs: { id: string; name: string }[] }

type Deps = { store: Pick<Store, 'programs' | 'webhooks' | 'agencyPolicies' | 'transaction'>; clock: Clock; ids: IdGenerator; policy: WebhookNetworkPolicy };

/**
 * Self-service webhooks: a user subscribes a receiver to the events of one program's projects that they can read
 * (checked per event when it is fanned out and again before each attempt: src/domain/webhooks/owner-access.ts), when
 * the agency's policy allows it. Same signing, secret shown once, SSRF rules and worker as the agency's subscriptions;
 * the user sees only their own subscriptions and delivery logs, and may always delete one, whatever the policy.
 */
export class OwnWebhookService {
  readonly #deps: Deps;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  /** The caller's subscriptions, oldest first, and what the page may offer. */
  async list(caller: Caller): Promise<OwnWebhooksView> {
    const { store } = this.#deps;
    const [allowed, owned, programs] = await Promise.all([
      this.allowed(caller), store.webhooks.listOwnedSubscriptions(caller.user.id), store.programs.listPrograms(caller.user.agencyId),
    ]);
    const names = new Map(programs.map((p) => [p.id, p.name]));
    return {
      allowed,
      subscriptions: owned.map((s) => view(s, names.get(s.programId) ?? s.programId, this.#deps.clock.now())),
      programs: programs.filter((p) => roleIn(caller, p) !== null).map((p) => ({ id: p.id, name: p.name })),
    };
  }

  /** True when the caller's agency lets users subscribe webhooks themselves. */
  async allowed(caller: Caller): Promise<boolean> {
    return (await this.#deps.store.agencyPolicies.findPolicy(caller.user.agencyId)).ownWebhooks;
  }

  /**
   * Subscribes `url` to every event of the program's projects the caller can read; the secret is in this answer only.
   * FORBIDDEN when the policy does not allow it, NOT_FOUND/FORBIDDEN for a program the caller has no role in,
   * INVALID_REQUEST or WEBHOOK_TARGET_NOT_ALLOWED for a target the SSRF rules refuse, CONFLICT past MAX_OWN_SUBSCRIPTIONS.
   */
  async create(caller: Caller, programRef: string, rawUrl: string): Promise<{ subscription: OwnSubscriptionView; secret: string }> {
    if (!(await this.allowed(caller))) throw new ApiError('FORBIDDEN', 'Your agency does not let users subscribe webhooks themselves.');
    const { store, clock, ids } = this.#deps;
    const { program } = await loadProgram(this.#deps, caller, programRef);
    const url = await checkWebhookUrl(rawUrl, this.#deps.policy);
    const secret = newWebhookSecret();
    const now = clock.now();
    const subscription: WebhookSubscription = {
      id: ids.next(), agencyId: program.agencyId, programId: program.id, url, eventTypes: [], secret, enabled: true, disabledReason: null,
      disabledAt: null, consecutiveFailures: 0, failingSince: null, pausedUntil: null, previousSecret: null, previousSecretUntil: null,
      createdAt: now, createdBy: caller.user.id, ownerId: caller.user.id, updatedAt: now,
    };
    await store.transaction(async (tx) => {
      const existing = await tx.webhooks.listOwnedSubscriptions(caller.user.id);
      if (existing.length >= MAX_OWN_SUBSCRIPTIONS) {
        throw new ApiError('CONFLICT', `You have ${existing.length} webhook subscriptions, the most you may have; delete one first.`);
      }
      await tx.webhooks.insertSubscription(subscription);
      await this.#audit(tx, caller, 'webhook.own.create', subscription, { url });
    });
    return { subscription: view(subscription, program.name, now), secret };
  }

  /** Deletes one of the caller's subscriptions and its delivery log; NOT_FOUND for anyone else's. */
  async delete(caller: Caller, id: string): Promise<void> {
    await this.#deps.store.transaction(async (tx) => {
      const s = await tx.webhooks.findOwnedSubscription(caller.user.id, id);
      if (!s) throw notFound();
      await tx.webhooks.deleteSubscription(s.id);
      await this.#audit(tx, caller, 'webhook.own.delete', s, { url: s.url });
    });
  }

  /**
   * Changes one of the caller's subscriptions: the kinds of event sent (empty: every kind) and whether it is enabled.
   * Enabling again (after the worker disabled it, or the user did) clears its failures and resumes its paused
   * deliveries, and needs the agency's policy and a role in the program still; disabling is always allowed.
   * INVALID_PARAMETER for an unknown kind of event; NOT_FOUND for anyone else's subscription.
   */
  async update(caller: Caller, id: string, input: { eventTypes?: string[]; enabled?: boolean }): Promise<OwnSubscriptionView> {
    const unknown = input.eventTypes?.find((t) => !isEventType(t));
    if (unknown !== undefined) throw new ApiError('INVALID_PARAMETER', `"${unknown.slice(0, 60)}" is not a kind of event.`);
    const eventTypes = input.eventTypes === undefined ? undefined : [...new Set(input.eventTypes as EventType[])];
    const { store, clock } = this.#deps;
    const current = await store.webhooks.findOwnedSubscription(caller.user.id, id);
    if (!current) throw notFound();
    const enabling = input.enabled === true && !current.enabled;
    if (enabling) {
      if (!(await this.allowed(caller))) throw new ApiError('FORBIDDEN', 'Your agency does not let users subscribe webhooks themselves.');
      await loadProgram(this.#deps, caller, current.programId);
    }
    const now = clock.now();
    const updated = await store.transaction(async (tx) => {
      const s = await tx.webhooks.findOwnedSubscription(caller.user.id, id);
      if (!s) throw notFound();
      const disabling = input.enabled === false && s.enabled;
      await tx.webhooks.updateSubscription(s.id, {
        eventTypes, updatedAt: now,
        ...(enabling && !s.enabled ? { enabled: true, disabledReason: null, disabledAt: null, consecutiveFailures: 0, failingSince: null, pausedUntil: null } : {}),
        ...(disabling ? { enabled: false, disabledReason: `Disabled by ${caller.user.email}.`, disabledAt: now } : {}),
      });
      if (enabling && !s.enabled) await tx.webhooks.resumeDeliveries(s.id, now);
      await this.#audit(tx, caller, 'webhook.own.update', s, { ...(eventTypes ? { eventTypes } : {}), ...(input.enabled === undefined ? {} : { enabled: input.enabled }) });
      return (await tx.webhooks.findOwnedSubscription(caller.user.id, id))!;
    });
    return view(updated, await this.#programName(caller, updated.programId), now);
  }

  /**
   * A new signing secret for one of the caller's subscriptions, in this answer only; deliveries are signed with the old
   * one too for `graceHours` (0 to MAX_ROTATION_GRACE_HOURS), so the receiver can switch without losing any.
   */
  async rotateSecret(caller: Caller, id: string, graceHours: number = DEFAULT_ROTATION_GRACE_HOURS): Promise<{ subscription: OwnSubscriptionView; secret: string }> {
    if (!Number.isInteger(graceHours) || graceHours < 0 || graceHours > MAX_ROTATION_GRACE_HOURS) {
      throw new ApiError('INVALID_PARAMETER', `The grace period must be a whole number of hours from 0 to ${MAX_ROTATION_GRACE_HOURS}.`);
    }
    const { store, clock } = this.#deps;
    const secret = newWebhookSecret();
    const now = clock.now();
    const rotated = await store.transaction(async (tx) => {
      const s = await tx.webhooks.findOwnedSubscription(caller.user.id, id);
      if (!s) throw notFound();
      const grace = graceHours > 0;
      await tx.webhooks.updateSubscription(s.id, { secret, previousSecret: grace ? s.secret : null, previousSecretUntil: grace ? now + graceHours * 3_600_000 : null, updatedAt: now });
      await this.#audit(tx, caller, 'webhook.own.rotate_secret', s, { graceHours });
      return (await tx.webhooks.findOwnedSubscription(caller.user.id, id))!;
    });
    return { subscription: view(rotated, await this.#programName(caller, rotated.programId), now), secret };
  }

  /** One of the caller's subscriptions with its latest deliveries, newest first; NOT_FOUND for anyone else's. */
  async deliveries(caller: Caller, id: string): Promise<{ subscription: OwnSubscriptionView; deliveries: WebhookDelivery[] }> {
    const { store } = this.#deps;
    const s = await store.webhooks.findOwnedSubscription(caller.user.id, id);
    if (!s) throw notFound();
    return { subscription: view(s, await this.#programName(caller, s.programId), this.#deps.clock.now()), deliveries: await store.webhooks.listDeliveries(s.id, OWN_DELIVERY_LOG) };
  }

  async #programName(caller: Caller, programId: string): Promise<string> {
    return (await this.#deps.store.programs.findProgram(programId, caller.user.agencyId))?.name ?? programId;
  }

  async #audit(tx: StoreWriter, caller: Caller, action: string, s: WebhookSubscription, detail: Record<string, unknown>): Promise<void> {
    const { clock, ids } = this.#deps;
    await tx.audit.write({
      action, actorId: caller.user.id, agencyId: s.agencyId, programId: s.programId, requestId: caller.requestId ?? null,
      detail: { subscriptionId: s.id, ...detail },
    }, clock.now(), ids.next());
  }
}

// The old secret's end only while it is still used (`now`).
function view(s: WebhookSubscription, programName: string, now: number): OwnSubscriptionView {
  return {
    id: s.id, programId: s.programId, programName, url: s.url, enabled: s.enabled, disabledReason: s.disabledReason, createdAt: s.createdAt,
    eventTypes: s.eventTypes, previousSecretUntil: s.previousSecretUntil !== null && s.previousSecretUntil > now ? s.previousSecretUntil : null,
  };
}

function notFound(): ApiError {
  return new ApiError('NOT_FOUND', 'You have no webhook subscription with this id.');
}
