/** Stored records that the domain and the store both speak of. */
import type { CustomList, DataField, Form, Program, Status, User } from './model.ts';

/** A user with the secret needed to check a password. */
export interface UserWithSecret extends User { passwordHash: string }

/** An API key record: its public id, the user it belongs to and its hashed secret. */
export interface ApiKeyRecord {
  id: string; userId: string; name: string; secretHash: string; createdAt: number; revokedAt: number | null;
  /** The last request it authenticated, to the minute; null or absent when never used. */
  lastUsedAt?: number | null;
}

/** A user's TOTP enrolment: the base-32 secret and the last time step accepted. */
export interface MfaEnrolment { userId: string; secret: string; enrolledAt: number; lastStep: number }

/** An MFA session token: only the SHA-256 of its secret is stored. */
export interface MfaSessionTokenRecord { id: string; userId: string; tokenHash: string; createdAt: number; expiresAt: number }

/** A web-page session of a user enrolled in MFA (the second factor of the landing page's cookie). */
export interface WebSessionRecord { id: string; userId: string; secretHash: string; createdAt: number; expiresAt: number }

/** An OAuth 2.0 client (client credentials grant) of one user: its public id and the argon2id hash of its secret. */
export interface OAuthClientRecord {
  id: string; userId: string; name: string; secretHash: string; createdAt: number; revokedAt: number | null;
  /** The last access token issued to it, to the minute; null or absent when never used. */
  lastUsedAt?: number | null;
}

/** An access token issued to an OAuth client: only the SHA-256 of its secret is stored. */
export interface AccessTokenRecord { id: string; clientId: string; tokenHash: string; createdAt: number; expiresAt: number; revokedAt: number | null }

/** Which projects of a program a listing may return, in creation order. */
export interface ProjectQuery {
  programId: string;
  /** Only the projects this owner scope reads (applicants: their own and their organizations'); absent for staff. */
  owner?: OwnerScope;
  changedSince?: number;
  /** Keyset paging: only projects after this one in creation order (created time, then id). */
  after?: ProjectKey;
  limit: number;
  offset: number;
  /** How the store plans the page (its defaults when left out); tests set it to try every plan. */
  tuning?: SearchTuning;
}

/**
 * What a caller limited in what they read reads: a non-staff caller their own personal projects (no organization) and
 * every project of the organizations they are a member of now; a staff caller (ownerId null) every project. A grant
 * limited to access groups (`groups`) also needs the project in one of them (src/domain/roles/access.ts ownerFilter
 * decides it).
 */
export interface OwnerScope { ownerId: string | null; organizationIds: readonly string[]; groups?: readonly string[] }

/** A project's place in creation order: its creation time, then its id for projects created in the same millisecond. */
export interface ProjectKey { createdAt: number; id: string }

/** One condition of GetProjectsByData on a submitted value, resolved to a field and how to compare it. */
export interface FieldCondition {
  fieldId: string;
  /**
   * number: compared as numbers; text (and dates, as yyyy-MM-dd): as text; multi…: each value of a multi-value field;
   * cell…: each row's cell in `column` of a table field.
   */
  kind: 'text' | 'number' | 'multi' | 'multiNumber' | 'cell' | 'cellNumber';
  /** For kind cell and cellNumber: the column's customId. */
  column?: string;
  op: 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'contains' | 'empty' | 'notempty';
  content: string | null;
  number: number | null;
  /** The field is sensitive: its values are stored sealed, so only equality (eq, ne) and emptiness can be tested. */
  sealed?: boolean;
  /** For a sealed field: the blind indexes of `content` the store compares (filled in by the store). */
  blind?: string[];
}

/** GetProjectsByData's filters resolved to ids, combined with AND, with paging. */
export interface ProjectSearch {
  programId: string;
  /** Only the projects this owner scope reads (see ProjectQuery.owner); absent for staff. */
  owner?: OwnerScope;
  statusIn?: string[];
  statusNotIn?: string[];
  statusDates: { statusId: string; op: 'eq' | 'lt' | 'le' | 'gt' | 'ge'; at: number }[];
  fields: FieldCondition[];
  limit: number;
  offset: number;
  /** How the store plans the search (its defaults when left out); tests set it to try every plan. */
  tuning?: SearchTuning;
}

/** When a search filter is broad, and how far a walk past broad filters goes before the search changes plan. */
export interface SearchTuning {
  /** How many matches make a filter broad (the store's BROAD_FILTER when left out). */
  broadAt?: number;
  /** How many projects in the result order a walk tests at most (the store's WALK_WINDOW when left out). */
  walkWindow?: number;
  /** How a list limited to access groups tests its projects (src/store/access-group-plan.ts; the store plans it when left out). */
  groupPlan?: 'probe' | 'members' | 'drive';
}

/** Everything of a program definition that an import writes, keyed by generated ids. */
export interface ProgramDefinitionRows {
  program: Program & { createdAt: number };
  lists: CustomList[];
  statuses: Status[];
  fields: DataField[];
  forms: Form[];
}

/** A session of the web application: whose, when it began, was last used and ends, and whether its MFA step is still due. */
export interface BrowserSessionRecord {
  id: string; userId: string; secretHash: string; createdAt: number; lastSeenAt: number; expiresAt: number; mfaPending: boolean;
}

/** An answer as it was sent, kept so that a retry gets it again: the status, the headers a replay repeats, the body's bytes. */
export interface StoredAnswer { status: number; headers: Record<string, string>; body: Buffer }

/**
 * An Idempotency-Key a user's request took: what that request was (its fingerprint), which request it was, when its
 * change was made, and the answer it got (null until stored, and for good when it was lost).
 */
export interface IdempotencyKeyRecord {
  userId: string; key: string; fingerprint: string; requestId: string; createdAt: number; answer: StoredAnswer | null;
}
