import type { Kysely, Selectable } from 'kysely';
import type { GroupGrant, SignOnAttempt, SignOnSettings } from '../model/sign-on.ts';
import type { SecretBox } from './secret-box.ts';
import type { AgencySignOnTable, Database } from './tables.ts';

type Db = Kysely<Database>;

/** What an agency's OpenID Connect client secret is sealed against: its row. */
export function signOnSecretContext(agencyId: string): string {
  return `agency_sign_on.client_secret:${agencyId}`;
}

function toSettings(row: Selectable<AgencySignOnTable>, secrets: SecretBox): SignOnSettings {
  return {
    agencyId: row.agency_id, label: row.label, issuer: row.issuer, clientId: row.client_id,
    clientSecret: secrets.open(row.client_secret, signOnSecretContext(row.agency_id)), scopes: row.scopes.split(' ').filter((s) => s !== ''),
    emailClaim: row.email_claim, groupsClaim: row.groups_claim, groupGrants: JSON.parse(row.group_grants) as GroupGrant[],
    allowPasswords: row.allow_passwords === 1, enabled: row.enabled === 1, updatedAt: Number(row.updated_at), updatedBy: row.updated_by,
  };
}

/** The agencies' single sign-on settings and the sign-ins under way (migration 051); secrets sealed on the way in. */
export interface SignOnRepository {
  /** An agency's settings, the client secret opened; null when it has none. */
  findSettings(agencyId: string): Promise<SignOnSettings | null>;
  /** An agency's password policy and button label, without opening the secret; null when it has no settings. */
  findPolicy(agencyId: string): Promise<{ enabled: boolean; allowPasswords: boolean; label: string } | null>;
  /** The agencies whose single sign-on is enabled, with their button labels. */
  listEnabled(): Promise<{ agencyId: string; label: string }[]>;
  /** Creates or replaces an agency's settings. */
  saveSettings(settings: SignOnSettings): Promise<void>;
  /** Stores a new attempt and sweeps expired ones. */
  insertAttempt(attempt: SignOnAttempt, now: number): Promise<void>;
  /** Takes an attempt away for good (at most one caller gets it): a replayed state finds nothing. */
  claimAttempt(id: string): Promise<SignOnAttempt | null>;
  /** How many of an agency's sign-ins are under way (not yet expired) at `now`. */
  countLiveAttempts(agencyId: string, now: number): Promise<number>;
}

/** The single sign-on repository over a database or transaction. */
export function signOnRepository(db: Db, secrets: SecretBox): SignOnRepository {
  return {
    async findSettings(agencyId) {
      const row = await db.selectFrom('agency_sign_on').selectAll().where('agency_id', '=', agencyId).executeTakeFirst();
      return row ? toSettings(row, secrets) : null;
    },
    async findPolicy(agencyId) {
      const row = await db.selectFrom('agency_sign_on').select(['enabled', 'allow_passwords', 'label']).where('agency_id', '=', agencyId).executeTakeFirst();
      return row ? { enabled: row.enabled === 1, allowPasswords: row.allow_passwords === 1, label: row.label } : null;
    },
    async listEnabled() {
      const rows = await db.selectFrom('agency_sign_on').select(['agency_id', 'label']).where('enabled', '=', 1).orderBy('label').orderBy('agency_id').execute();
      return rows.map((r) => ({ agencyId: r.agency_id, label: r.label }));
    },
    async saveSettings(s) {
      const values = {
        agency_id: s.agencyId, label: s.label, issuer: s.issuer, client_id: s.clientId,
        client_secret: secrets.seal(s.clientSecret, signOnSecretContext(s.agencyId)), scopes: s.scopes.join(' '), email_claim: s.emailClaim,
        groups_claim: s.groupsClaim, group_grants: JSON.stringify(s.groupGrants), allow_passwords: s.allowPasswords ? 1 : 0,
        enabled: s.enabled ? 1 : 0, updated_at: s.updatedAt, updated_by: s.updatedBy,
      };
      const { agency_id: _id, ...changes } = values;
      await db.insertInto('agency_sign_on').values(values).onConflict((oc) => oc.column('agency_id').doUpdateSet(changes)).execute();
    },
    async insertAttempt(a, now) {
      await db.deleteFrom('sign_on_attempts').where('expires_at', '<=', now).execute();
      await db.insertInto('sign_on_attempts').values({
        id: a.id, agency_id: a.agencyId, browser_hash: a.browserHash, nonce: a.nonce, code_verifier: a.codeVerifier, next: a.next,
        created_at: a.createdAt, expires_at: a.expiresAt,
      }).execute();
    },
    async countLiveAttempts(agencyId, now) {
      const row = await db.selectFrom('sign_on_attempts').select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('agency_id', '=', agencyId).where('expires_at', '>', now).executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async claimAttempt(id) {
      const row = await db.selectFrom('sign_on_attempts').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) return null;
      // The delete decides: of two requests with the same state, only the one whose delete removed the row goes on.
      const deleted = await db.deleteFrom('sign_on_attempts').where('id', '=', id).executeTakeFirst();
      if (Number(deleted.numDeletedRows) !== 1) return null;
      return {
        id: row.id, agencyId: row.agency_id, browserHash: row.browser_hash, nonce: row.nonce, codeVerifier: row.code_verifier, next: row.next,
        createdAt: Number(row.created_at), expiresAt: Number(row.expires_at),
      };
    },
  };
}
