import type { Kysely } from 'kysely';
import { bindDb } from './bind-db.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

/** An agency's self-service policy: what its users may set up for themselves, and who set it last when. */
export interface AgencyPolicy {
  agencyId: string;
  /** Users may create and revoke their own API keys and OAuth clients. */
  ownCredentials: boolean;
  /** Users may subscribe webhooks for the projects they can read. */
  ownWebhooks: boolean;
  /** When it was last set (null: never, the defaults). */
  updatedAt: number | null;
  /** The user who set it last (null: never set, or set on the command line). */
  updatedBy: string | null;
}

/** The policy of an agency that never set one: everything off. */
export function defaultPolicy(agencyId: string): AgencyPolicy {
  return { agencyId, ownCredentials: false, ownWebhooks: false, updatedAt: null, updatedBy: null };
}

/** An agency's policy; the defaults (everything off) when it never set one. */
export async function findPolicy(db: Db, agencyId: string): Promise<AgencyPolicy> {
  const row = await db.selectFrom('agency_policies').selectAll().where('agency_id', '=', agencyId).executeTakeFirst();
  if (!row) return defaultPolicy(agencyId);
  return { agencyId, ownCredentials: row.own_credentials === 1, ownWebhooks: row.own_webhooks === 1, updatedAt: row.updated_at, updatedBy: row.updated_by };
}

/** Stores an agency's policy, replacing the one it had. */
export async function savePolicy(db: Db, p: AgencyPolicy & { updatedAt: number }): Promise<void> {
  const values = { own_credentials: p.ownCredentials ? 1 : 0, own_webhooks: p.ownWebhooks ? 1 : 0, updated_at: p.updatedAt, updated_by: p.updatedBy };
  await db.insertInto('agency_policies').values({ agency_id: p.agencyId, ...values })
    .onConflict((oc) => oc.column('agency_id').doUpdateSet(values)).execute();
}

const READS = { findPolicy };

/** The agency policies' reads. */
export type AgencyPolicyReader = ReturnType<typeof agencyPolicyReader>;

/** The agency policies inside a transaction. */
export type AgencyPolicyRepository = ReturnType<typeof agencyPolicyRepository>;

/** The agency policies' reads over a database. */
export function agencyPolicyReader(db: Db) {
  return bindDb(db, READS);
}

/** The agency policies over a transaction. */
export function agencyPolicyRepository(db: Db) {
  return bindDb(db, { ...READS, savePolicy });
}
