import type { SessionTokenView } from '../../domain/accounts/mfa-service.ts';
import { isoTimestamp } from '../../model/clock.ts';
import { complex, type DocumentValue, dateTime, one, optional, positiveInteger, requestDocument, required, responseDocument, string } from '../wire-type.ts';

/** CreateMfaSessionToken's optional body: the token's lifetime in minutes. */
export const CreateMfaSessionTokenRequest = requestDocument('CreateMfaSessionTokenRequest', complex({
  attributes: { ExpiresAfterMinutes: optional(positiveInteger) },
}), 'CreateMfaSessionToken\'s optional body: the token\'s lifetime in minutes (1 to 720, default 60).');

/** A new MFA session token, whose secret is shown this once. */
export const CreateMfaSessionTokenResponse = responseDocument('CreateMfaSessionTokenResponse', complex({
  children: {
    MfaSessionToken: one(complex({ attributes: { TokenId: required(string), Token: required(string), ExpiresTimestamp: required(dateTime) } })),
  },
}), 'A new MFA session token. Token is shown this once; send it in X-Mfa-Session-Token.');

/** The CreateMfaSessionToken answer. */
export function sessionTokenValue(view: SessionTokenView): DocumentValue<typeof CreateMfaSessionTokenResponse> {
  return { MfaSessionToken: { TokenId: view.tokenId, Token: view.token, ExpiresTimestamp: isoTimestamp(view.expiresAt) } };
}
