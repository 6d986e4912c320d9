import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { ForbiddenAddressError, type HostResolver, resolveAllowed, systemResolver, type WebhookNetworkPolicy } from './webhook-address.ts';

/** One POST of a delivery. */
export interface WebhookPost { url: string; headers: Record<string, string>; body: string }

/**
 * How an attempt ended: the answer's status code, or why there was none; and the answer's `Retry-After` in
 * milliseconds from now, when it had a valid one.
 */
export interface WebhookAnswer { status: number | null; error: string | null; retryAfterMs?: number | null }

/** Reads a `Retry-After` value (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) as milliseconds from `now`; null when absent or invalid. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  const text = value?.trim() ?? '';
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Sends a delivery; an interface so tests can count and hold sends. */
export interface WebhookSender { post(request: WebhookPost): Promise<WebhookAnswer> }

/**
 * The Standard Webhooks headers of a body: webhook-id, webhook-timestamp (seconds) and webhook-signature (v1,
 * HMAC-SHA256), one signature per secret, space-separated (during a secret rotation, the new and the old).
 */
export function signedHeaders(secrets: readonly string[], messageId: string, at: number, body: string): Record<string, string> {
  const timestamp = new Date(Math.floor(at / 1000) * 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(' '),
  };
}

/**
 * A lookup that resolves through the guard, so the connection goes to the address that was checked: a name that resolved to a
 * public address when it was checked cannot be switched to a private one for the connection (DNS rebinding).
 */
export const guardedLookup = (resolver: HostResolver): LookupFunction => (hostname, options, callback) => {
  resolveAllowed(hostname, resolver).then(
    ({ address, family }) => {
      if (options.all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
      else callback(null, address, family);
    },
    (error: Error) => callback(Object.assign(error, { code: 'EFORBIDDENADDRESS' }), '', 0),
  );
};

/** The most bytes of an answer's body that are read (and thrown away) before the connection is closed. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Posts deliveries over HTTP(S) with Node's own client: no redirect is followed (a 3xx is a failed attempt), the
 * whole exchange is bounded by `timeoutMs`, and unless the policy allows insecure targets only https to public
 * addresses is used, checked again at every attempt.
 */
export class HttpWebhookSender implements WebhookSender {
  readonly #policy: WebhookNetworkPolicy;
  readonly #timeoutMs: number;
  readonly #resolver: HostResolver;

  /** `resolver` is the system's unless a test plays DNS. */
  constructor(policy: WebhookNetworkPolicy, timeoutMs: number, resolver: HostResolver = systemResolver) {
    this.#policy = policy;
    this.#timeoutMs = timeoutMs;
    this.#resolver = resolver;
  }

  async post(request: WebhookPost): Promise<WebhookAnswer> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return { status: null, error: 'the target URL is not valid' };
    }
    const secure = url.protocol === 'https:';
    if (!secure && (url.protocol !== 'http:' || !this.#policy.allowInsecure)) return { status: null, error: `${url.protocol} targets are not allowed` };
    if (!this.#policy.allowInsecure) {
      // IP literals are connected to without a lookup, so they are checked here.
      try {
        await resolveAllowed(url.hostname, this.#resolver);
      } catch (error) {
        return { status: null, error: error instanceof ForbiddenAddressError ? error.message : String(error) };
      }
    }
    return this.#send(url, secure, request);
  }

  #send(url: URL, secure: boolean, request: WebhookPost): Promise<WebhookAnswer> {
    return new Promise((resolve) => {
      const signal = AbortSignal.timeout(this.#timeoutMs);
      const client = secure ? https : http;
      const req = client.request(url, {
        method: 'POST', signal, agent: false,
        headers: { ...request.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(request.body)), 'user-agent': 'apas-webhooks' },
        ...(this.#policy.allowInsecure ? {} : { lookup: guardedLookup(this.#resolver) }),
      }, (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        // The receiver's clock dates an HTTP-date Retry-After, so it is read against the wall clock.
        const retryAfterMs = parseRetryAfter(res.headers['retry-after'], Date.now());
        res.on('close', () => resolve({ status: res.statusCode ?? null, error: null, retryAfterMs }));
        res.on('error', () => undefined);
      });
      req.on('error', (error: Error & { code?: string }) => {
        if (signal.aborted) resolve({ status: null, error: `no answer within ${this.#timeoutMs} ms` });
        else resolve({ status: null, error: error.code === 'EFORBIDDENADDRESS' ? error.message : `${error.code ?? 'error'}: ${error.message}` });
      });
      req.end(request.body);
    });
  }
}
