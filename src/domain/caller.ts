import type { ProgramGrant, User } from '../model/model.ts';

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
}
