import { ApiError } from '../api-error.ts';
import { ForbiddenAddressError, resolveAllowed, type WebhookNetworkPolicy } from './webhook-address.ts';

/** The longest target URL accepted. */
export const MAX_WEBHOOK_URL_CHARS = 2000;

/**
 * Checks a subscription's target URL: absolute http(s) without user name or password; unless the policy allows
 * insecure targets, https only and a host that resolves to public addresses only (checked again at every attempt).
 * Returns the URL as it will be used.
 */
export async function checkWebhookUrl(raw: string, policy: WebhookNetworkPolicy): Promise<string> {
  // The URL parser drops tabs and line breaks silently; a URL holding them is refused instead of sent somewhere
  // other than what was written (and a CR/LF never reaches a request line or a log).
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for.
  if (/[\u0000-\u001f\u007f]/.test(raw)) throw new ApiError('INVALID_REQUEST', 'Url must not contain control characters such as CR, LF or tab.');
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ApiError('INVALID_REQUEST', 'Url must be an absolute https:// URL.');
  }
  if (text.length > MAX_WEBHOOK_URL_CHARS) throw new ApiError('INVALID_REQUEST', `Url must be at most ${MAX_WEBHOOK_URL_CHARS} characters.`);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ApiError('INVALID_REQUEST', 'Url must be an https:// URL.');
  if (url.username !== '' || url.password !== '') throw new ApiError('INVALID_REQUEST', 'Url must not hold a user name or password; deliveries are signed instead.');
  if (policy.allowInsecure) return url.href;
  if (url.protocol !== 'https:') {
    throw new ApiError('WEBHOOK_TARGET_NOT_ALLOWED', 'Url must use https; plain http targets need the operator setting APAS_WEBHOOK_ALLOW_INSECURE.');
  }
  try {
    await resolveAllowed(url.hostname);
  } catch (error) {
    if (!(error instanceof ForbiddenAddressError)) throw error;
    throw new ApiError('WEBHOOK_TARGET_NOT_ALLOWED', `Url is not allowed: ${error.message}. Webhooks go to public addresses only, unless the operator sets APAS_WEBHOOK_ALLOW_INSECURE.`);
  }
  return url.href;
}
