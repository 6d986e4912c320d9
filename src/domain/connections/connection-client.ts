import http from 'node:http';
import https from 'node:https';
import type { ConnectionAuth } from '../../model/connection.ts';
import { ForbiddenAddressError, type HostResolver, resolveAllowed, systemResolver, type WebhookNetworkPolicy } from '../webhooks/webhook-address.ts';
import { guardedLookup } from '../webhooks/webhook-sender.ts';

/** The most bytes of an answer that are read; a longer one is refused (a lookup's answer is small). */
export const MAX_CONNECTION_ANSWER_BYTES = 1024 * 1024;

/** One request of a connection, its body or query already built. */
export interface ConnectionRequest {
  url: string; method: 'GET' | 'POST';
  /** The JSON body (POST) or query parameters (GET). */
  payload: Record<string, unknown> | null;
  auth: ConnectionAuth; timeoutMs: number;
  /** Sent as Idempotency-Key, the same on every attempt of one call. */
  idempotencyKey?: string;
  /** The hosts of the agency's allowlist. */
  allowedHosts: readonly string[];
}

/** How an attempt ended: the answer's JSON, or why there was none and whether trying again may help. */
export type ConnectionAnswer = { ok: true; status: number; json: unknown } | { ok: false; error: string; retryable: boolean };

/** Makes a connection's requests; an interface so tests and the field lookup share one client. */
export interface ConnectionClient { call(request: ConnectionRequest): Promise<ConnectionAnswer> }

/** The address rules of connections: the webhooks' (APAS_WEBHOOK_ALLOW_INSECURE allows http and private addresses). */
export type ConnectionNetworkPolicy = WebhookNetworkPolicy;

/**
 * Why a URL may not be called (null: it may): absolute http(s) without user name or password, a host on the agency's
 * allowlist, and unless the policy allows insecure targets, https only.
 */
export function urlProblem(raw: string, allowedHosts: readonly string[], policy: ConnectionNetworkPolicy): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'the address is not an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'the address must be an https:// URL';
  if (url.username !== '' || url.password !== '') return 'the address must not hold a user name or password';
  if (!allowedHosts.includes(url.hostname.toLowerCase())) return `the host ${url.hostname} is not on the agency's allowlist of connection hosts (apas connection allow-host)`;
  if (url.protocol !== 'https:' && !policy.allowInsecure) return 'the address must use https; plain http needs the operator setting APAS_WEBHOOK_ALLOW_INSECURE';
  return null;
}

type Failure = { ok: false; error: string; retryable: boolean };
type Exchange = { ok: true; status: number; text: string } | Failure;
const fail = (error: string, retryable: boolean): Failure => ({ ok: false, error, retryable });

/**
 * Calls connections over HTTP(S) with Node's own client, under the webhooks' rules: only hosts on the agency's
 * allowlist, https to public addresses (checked at connection time, so DNS cannot be switched after the check) unless
 * the operator allows insecure targets, no redirect followed, the whole exchange bounded by the timeout, at most
 * MAX_CONNECTION_ANSWER_BYTES read. OAuth 2.0 tokens are fetched with the client credentials and kept until they expire.
 */
export class HttpConnectionClient implements ConnectionClient {
  readonly #policy: ConnectionNetworkPolicy;
  readonly #resolver: HostResolver;
  readonly #tokens = new Map<string, { token: string; until: number }>();

  constructor(policy: ConnectionNetworkPolicy, resolver: HostResolver = systemResolver) {
    this.#policy = policy;
    this.#resolver = resolver;
  }

  async call(request: ConnectionRequest): Promise<ConnectionAnswer> {
    const problem = urlProblem(request.url, request.allowedHosts, this.#policy);
    if (problem !== null) return fail(problem, false);
    const url = new URL(request.url);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'apas-connections' };
    if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;
    const { auth } = request;
    if (auth.kind === 'header') headers[auth.name.toLowerCase()] = auth.value;
    if (auth.kind === 'oauth') {
      const token = await this.#token(auth, request);
      if (typeof token !== 'string') return token;
      headers.authorization = `Bearer ${token}`;
    }
    let body: string | null = null;
    if (request.method === 'GET') {
      for (const [k, v] of Object.entries(request.payload ?? {})) url.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    } else {
      body = JSON.stringify(request.payload ?? {});
      headers['content-type'] = 'application/json';
    }
    const answer = await this.#send(url, request.method, headers, body, request.timeoutMs, auth.kind === 'clientCert' ? auth.pem : null);
    if (!answer.ok) return answer;
    const { status, text } = answer;
    if (status >= 300 && status < 400) return fail(`the system answered ${status}, a redirect, which connections do not follow`, false);
    if (status === 429 || status >= 500) return fail(`the system answered ${status}`, true);
    if (status < 200 || status >= 300) return fail(`the system answered ${status}`, false);
    try {
      return { ok: true, status, json: JSON.parse(text) as unknown };
    } catch {
      return fail('the system answered with something other than JSON', true);
    }
  }

  // A token for the client credentials, fetched when there is none yet or it expires within half a minute.
  async #token(auth: Extract<ConnectionAuth, { kind: 'oauth' }>, request: ConnectionRequest): Promise<string | ConnectionAnswer> {
    const key = `${auth.tokenUrl} ${auth.clientId} ${auth.clientSecret}`;
    const kept = this.#tokens.get(key);
    if (kept && kept.until > Date.now() + 30_000) return kept.token;
    const problem = urlProblem(auth.tokenUrl, request.allowedHosts, this.#policy);
    if (problem !== null) return fail(`the OAuth token address: ${problem}`, false);
    const form = new URLSearchParams({ grant_type: 'client_credentials', ...(auth.scope ? { scope: auth.scope } : {}) }).toString();
    const basic = Buffer.from(`${encodeURIComponent(auth.clientId)}:${encodeURIComponent(auth.clientSecret)}`).toString('base64');
    const answer = await this.#send(new URL(auth.tokenUrl), 'POST', { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, form, request.timeoutMs, null);
    if (!answer.ok) return fail(`getting an OAuth token: ${answer.error}`, answer.retryable);
    if (answer.status !== 200) return fail(`getting an OAuth token: the token endpoint answered ${answer.status}`, answer.status >= 500);
    try {
      const t = JSON.parse(answer.text) as { access_token?: unknown; expires_in?: unknown };
      if (typeof t.access_token !== 'string') return fail('getting an OAuth token: the answer has no access_token', false);
      const seconds = typeof t.expires_in === 'number' ? t.expires_in : 300;
      this.#tokens.set(key, { token: t.access_token, until: Date.now() + seconds * 1000 });
      return t.access_token;
    } catch {
      return fail('getting an OAuth token: the answer is not JSON', true);
    }
  }

  async #send(url: URL, method: string, headers: Record<string, string>, body: string | null, timeoutMs: number, pem: string | null): Promise<Exchange> {
    if (!this.#policy.allowInsecure) {
      // IP literals are connected to without a lookup, so they are checked here.
      try {
        await resolveAllowed(url.hostname, this.#resolver);
      } catch (error) {
        return fail(error instanceof ForbiddenAddressError ? error.message : String(error), false);
      }
    }
    return new Promise<Exchange>((resolve) => {
      const signal = AbortSignal.timeout(timeoutMs);
      const secure = url.protocol === 'https:';
      const client = secure ? https : http;
      const req = client.request(url, {
        method, signal, agent: false,
        headers: { ...headers, ...(body === null ? {} : { 'content-length': String(Buffer.byteLength(body)) }) },
        ...(pem !== null && secure ? { cert: pem, key: pem } : {}),
        ...(this.#policy.allowInsecure ? {} : { lookup: guardedLookup(this.#resolver) }),
      }, (res) => {
        const chunks: Buffer[] = [];
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_CONNECTION_ANSWER_BYTES) {
            res.destroy();
            resolve(fail(`the answer is longer than ${MAX_CONNECTION_ANSWER_BYTES} bytes`, false));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ ok: true, status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', () => resolve(signal.aborted ? fail(`no answer within ${timeoutMs} ms`, true) : fail('the answer broke off', true)));
      });
      req.on('error', (error: Error & { code?: string }) => {
        if (signal.aborted) resolve(fail(`no answer within ${timeoutMs} ms`, true));
        else if (error.code === 'EFORBIDDENADDRESS') resolve(fail(error.message, false));
        else resolve(fail(`${error.code ?? 'error'}: ${error.message}`, true));
      });
      req.end(body ?? undefined);
    });
  }
}
