import type { Program, ProgramGrant, User } from '../model/model.ts';
import type { ProjectVersion } from './views.ts';

/** An If-Match precondition: any version of the project (`*`), or one of the listed project versions. */
export type VersionCondition = { any: true } | { any: false; versions: ProjectVersion[] };

/**
 * A request's Idempotency-Key: the change step takes the key in the change's own transaction, so the key is taken
 * exactly when the change commits, and a second request with it is refused there (see idempotency-service.ts).
 */
export interface IdempotencyClaim {
  key: string;
  /** The request's id; the stored answer is added to the key this request took, and to no other. */
  requestId: string;
  /** What the request was (method, URL, the headers that shape it, the body's SHA-256); read once its body is in. */
  fingerprint(): string;
}

/** The authenticated user behind a request, with the API key used and the user's program grants. */
export interface Caller {
  user: User;
  apiKeyId: string;
  grants: ProgramGrant[];
  /**
   * The organizations the user is a member of, read with the grants for each request: their projects are readable
   * and writable like the user's own, and a removed member's next request no longer has them.
   */
  organizationIds?: readonly string[];
  requestId?: string;
  /** True when this request proved a second factor (TOTP, MFA session token or, on the web pages, a web session). */
  mfaVerified?: boolean;
  /** How the second factor was proved: a TOTP code, an MFA session token, or a web session's cookie (web pages only). */
  mfaMethod?: 'totp' | 'session' | 'web';
  /** The session token that proved the second factor, when one did. */
  mfaSessionTokenId?: string;
  /**
   * The request's If-Match, when it sent one: the change step refuses the change (PRECONDITION_FAILED) unless the
   * project, locked and as it is now, is at one of these versions. Requests that send none change unconditionally.
   */
  ifMatch?: VersionCondition;
  /** The request's Idempotency-Key, on the operations that honour one and only when it sent one. */
  idempotency?: IdempotencyClaim;
  /**
   * The bulk action (src/domain/queue/bulk-action-service.ts) this change is one project of: the change's audit row
   * names it, and the change step records the project as done in the change's own transaction.
   */
  bulkActionId?: string;
  /**
   * Told the program a request loaded (projects/project-context.ts, loadProgram): the API marks its answers about a
   * test copy from it (src/http/test-program-marker.ts) without looking the program up again.
   */
  onProgram?: (program: Program) => void;
}
