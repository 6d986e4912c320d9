import { boundText } from '../bounded-text.ts';
import { MAX_MESSAGE_CHARS } from '../api-error.ts';

/**
 * The error codes of RFC 6749 §5.2 that the OAuth endpoints (token and revocation) answer with, and their HTTP
 * status. They are the one documented exception to ApiError's closed list: OAuth clients expect exactly these.
 */
export const OAUTH_ERROR_STATUS = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
} as const;

/** One of the RFC 6749 §5.2 error codes. */
export type OAuthErrorCode = keyof typeof OAUTH_ERROR_STATUS;

/** A refusal at the OAuth token or revocation endpoint, answered as RFC 6749 §5.2 JSON (src/http/oauth-reply.ts). */
export class OAuthError extends Error {
  readonly code: OAuthErrorCode;

  constructor(code: OAuthErrorCode, message: string) {
    // Bounded like ApiError's messages: descriptions may quote what the client sent.
    super(boundText(message, MAX_MESSAGE_CHARS));
    this.name = 'OAuthError';
    this.code = code;
  }

  /** The HTTP status this error is answered with. */
  get status(): number {
    return OAUTH_ERROR_STATUS[this.code];
  }
}
