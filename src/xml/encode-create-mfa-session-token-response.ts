import { isoTimestamp } from '../model/clock.ts';
import type { SessionTokenView } from '../domain/mfa-service.ts';
import { XmlWriter } from './xml-writer.ts';

/** Encodes CreateMfaSessionToken's answer: `<CreateMfaSessionTokenResponse><MfaSessionToken TokenId Token ExpiresTimestamp/></…>`. */
export function encodeCreateMfaSessionTokenResponse(view: SessionTokenView, ns: string): string {
  return new XmlWriter(ns).start('CreateMfaSessionTokenResponse')
    .empty('MfaSessionToken', { TokenId: view.tokenId, Token: view.token, ExpiresTimestamp: isoTimestamp(view.expiresAt) })
    .end().finish();
}
