/**
 * One line of an agency's groups → grants mapping: members of `group` (as the provider names it in the groups claim)
 * become agency admins, or get `role` in the program `programId` (with sensitive data when `sensitive`).
 */
export type GroupGrant =
  | { group: string; agencyAdmin: true }
  | {
    group: string; agencyAdmin: false; programId: string; role: string; sensitive: boolean;
    /** The access groups (customIds) the grant is limited to; absent: the grant keeps the limit it has (none for a new one). */
    accessGroups?: string[];
  };

/** An agency's OpenID Connect provider for staff sign-in, as stored (the client secret in clear only in memory). */
export interface SignOnSettings {
  agencyId: string;
  /** The provider's name on the sign-in button ("Sign in with <label>"). */
  label: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The scopes asked for; always includes `openid`. */
  scopes: string[];
  /** The ID token claim that carries the user's e-mail address (`email`) and the one that carries the groups (`groups`). */
  emailClaim: string;
  groupsClaim: string;
  groupGrants: GroupGrant[];
  /** False when the agency's staff may no longer sign in with a local password. */
  allowPasswords: boolean;
  enabled: boolean;
  updatedAt: number;
  updatedBy: string | null;
}

/** A sign-in sent to the provider and not yet back: found by the SHA-256 of its state, bound to one browser. */
export interface SignOnAttempt {
  id: string; agencyId: string; browserHash: string; nonce: string; codeVerifier: string; next: string; createdAt: number; expiresAt: number;
}
