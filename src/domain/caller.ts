import type { ProgramGrant, User } from '../model/model.ts';
import type { ProjectVersion } from './views.ts';

/** An If-Match precondition: any version of the project (`*`), or one of the listed project versions. */
export type VersionCondition = { any: true } | { any: false; versions: ProjectVersion[] };

/** The authenticated user behind a request, with the API key used and the user's program grants. */
export interface Caller {
  user: User;
  apiKeyId: string;
  grants: ProgramGrant[];
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
}
