import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { AgencyPolicy } from '../../store/agency-policy-queries.ts';
import type { Store } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { type ConsoleScope, requireAgencyAdmin } from './console-scope.ts';

/** What a change of the policy sets; what is left out stays as it is. */
export interface PolicyChange { ownCredentials?: boolean; ownWebhooks?: boolean }

/** The policy as the console and the CLI show it: with the e-mail address of whoever set it last (null: never, or the operator). */
export type PolicyView = AgencyPolicy & { updatedByEmail: string | null };

/** Who changes the policy: an agency admin in the console (with their scope), or the operator on the command line. */
export type PolicyActor = { caller: Caller; scope: ConsoleScope } | { operator: true };

/**
 * The agency's self-service policy: whether its users may create their own API keys and OAuth clients, and subscribe
 * webhooks for the projects they can read (both off until an agency admin turns them on). Read by the portal's account
 * page and the webhook work; set by agency admins in the console and by the operator with `apas agency policy set`,
 * each change with its audit row.
 */
export class SelfServicePolicyService {
  readonly #deps: { store: Pick<Store, 'accounts' | 'agencyPolicies' | 'transaction'>; clock: Clock; ids: IdGenerator };

  constructor(deps: { store: Pick<Store, 'accounts' | 'agencyPolicies' | 'transaction'>; clock: Clock; ids: IdGenerator }) {
    this.#deps = deps;
  }

  /** The policy that applies to a user of the agency (the portal's pages and services). */
  policyOf(agencyId: string): Promise<AgencyPolicy> {
    return this.#deps.store.agencyPolicies.findPolicy(agencyId);
  }

  /** The policy as the console shows it: agency admins only (FORBIDDEN otherwise). */
  async show(scope: ConsoleScope): Promise<PolicyView> {
    requireAgencyAdmin(scope, 'The self-service policy');
    return this.#view(scope.agencyId);
  }

  /** The policy of an agency named by custom id or id (the command line); NOT_FOUND when there is no such agency. */
  async showFor(agencyRef: string): Promise<PolicyView> {
    return this.#view(await this.#agencyId(agencyRef));
  }

  async #view(agencyId: string): Promise<PolicyView> {
    const policy = await this.policyOf(agencyId);
    const [by] = policy.updatedBy === null ? [] : await this.#deps.store.accounts.usersByIds([policy.updatedBy]);
    return { ...policy, updatedByEmail: by?.email ?? null };
  }

  /**
   * Sets the policy of the caller's agency (agency admins only: FORBIDDEN otherwise, nothing changed) or, for the
   * operator, of `agencyRef`. Turning self-service webhooks off stops the users' subscriptions at once: nothing more is
   * made for them and what was pending is not sent (src/domain/webhooks/owner-access.ts).
   */
  async set(actor: PolicyActor, change: PolicyChange, agencyRef?: string): Promise<AgencyPolicy> {
    let agencyId: string;
    if ('operator' in actor) {
      if (agencyRef === undefined) throw new ApiError('INVALID_PARAMETER', 'Name the agency whose policy to set.');
      agencyId = await this.#agencyId(agencyRef);
    } else {
      requireAgencyAdmin(actor.scope, 'Setting the self-service policy');
      agencyId = actor.scope.agencyId;
    }
    const { store, clock, ids } = this.#deps;
    const actorId = 'operator' in actor ? null : actor.caller.user.id;
    return store.transaction(async (tx) => {
      const before = await tx.agencyPolicies.findPolicy(agencyId);
      const now = clock.now();
      const after: AgencyPolicy = {
        agencyId, ownCredentials: change.ownCredentials ?? before.ownCredentials, ownWebhooks: change.ownWebhooks ?? before.ownWebhooks, updatedAt: now, updatedBy: actorId,
      };
      await tx.agencyPolicies.savePolicy({ ...after, updatedAt: now });
      await tx.audit.write({
        action: 'agency.policy.set', actorId, agencyId,
        requestId: 'operator' in actor ? null : actor.caller.requestId ?? null,
        detail: { ownCredentials: after.ownCredentials, ownWebhooks: after.ownWebhooks },
      }, now, ids.next());
      return after;
    });
  }

  async #agencyId(ref: string): Promise<string> {
    const agency = await this.#deps.store.accounts.findAgency(ref);
    if (!agency) throw new ApiError('NOT_FOUND', `agency "${ref}" not found`);
    return agency.id;
  }
}
