import type { ProgramGrant, User } from './model.ts';

/** The authenticated user behind a request, with the API key used and the user's program grants. */
export interface Caller {
  user: User;
  apiKeyId: string;
  grants: ProgramGrant[];
  requestId?: string;
  /** True when this request proved a second factor (TOTP or MFA session token). */
  mfaVerified?: boolean;
  /** How the second factor was proved: a TOTP code, or an MFA session token. */
  mfaMethod?: 'totp' | 'session';
  /** The session token that proved the second factor, when one did. */
  mfaSessionTokenId?: string;
}
