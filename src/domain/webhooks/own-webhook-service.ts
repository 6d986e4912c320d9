import type { WebhookDelivery, WebhookSubscription } from '../../model/webhook.ts';
import type { Store, StoreWriter } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import { loadProgram } from '../projects/project-context.ts';
import { roleIn } from '../roles/access.ts';
import type { WebhookNetworkPolicy } from './webhook-address.ts';
import { newWebhookSecret } from './webhook-service.ts';
import { checkWebhookUrl } from './webhook-url.ts';

/** The most self-service subscriptions one user may have, over all programs. */
export const MAX_OWN_SUBSCRIPTIONS = 5;

/** The most deliveries the account page shows of one subscription. */
export const OWN_DELIVERY_LOG = 50;

/** A user's own subscription as the account page shows it: never its secret. */
export interface OwnSubscriptionView {
  id: string; programId: string; programName: string; url: string; enabled: boolean; disabledReason: string | null; createdAt: number;
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
      subscriptions: owned.map((s) => view(s, names.get(s.programId) ?? s.programId)),
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
    return { subscription: view(subscription, program.name), secret };
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

  /** One of the caller's subscriptions with its latest deliveries, newest first; NOT_FOUND for anyone else's. */
  async deliveries(caller: Caller, id: string): Promise<{ subscription: OwnSubscriptionView; deliveries: WebhookDelivery[] }> {
    const { store } = this.#deps;
    const s = await store.webhooks.findOwnedSubscription(caller.user.id, id);
    if (!s) throw notFound();
    const program = await store.programs.findProgram(s.programId, caller.user.agencyId);
    return { subscription: view(s, program?.name ?? s.programId), deliveries: await store.webhooks.listDeliveries(s.id, OWN_DELIVERY_LOG) };
  }

  async #audit(tx: StoreWriter, caller: Caller, action: string, s: WebhookSubscription, detail: Record<string, unknown>): Promise<void> {
    const { clock, ids } = this.#deps;
    await tx.audit.write({
      action, actorId: caller.user.id, agencyId: s.agencyId, programId: s.programId, requestId: caller.requestId ?? null,
      detail: { subscriptionId: s.id, ...detail },
    }, clock.now(), ids.next());
  }
}

function view(s: WebhookSubscription, programName: string): OwnSubscriptionView {
  return { id: s.id, programId: s.programId, programName, url: s.url, enabled: s.enabled, disabledReason: s.disabledReason, createdAt: s.createdAt };
}

function notFound(): ApiError {
  return new ApiError('NOT_FOUND', 'You have no webhook subscription with this id.');
}
