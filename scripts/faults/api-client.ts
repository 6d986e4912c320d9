import { DEFAULT_XML_NAMESPACE } from '../../src/config.ts';
import { DEMO_CREDENTIALS } from '../../src/domain/programs/demo.ts';

/** The base path of the interface. */
export const API = '/services/v2';

/** The namespace of request bodies (the default; fault runs do not change it). */
export const NS = DEFAULT_XML_NAMESPACE;

/** Who a client signs in as: HTTP Basic user name and password plus an API key. */
export interface Identity { email: string; password: string; apiKey: string }

/** One of the demo accounts (admin, applicant, reviewer), whose credentials are fixed and public. */
export function demoIdentity(role: 'admin' | 'applicant' | 'reviewer'): Identity {
  const found = DEMO_CREDENTIALS.find((c) => c.role === role);
  if (!found) throw new Error(`no demo account ${role}`);
  return { email: found.email, password: found.password, apiKey: found.apiKey };
}

/** The headers that authenticate an identity. */
export function authHeaders(who: Identity): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${who.email}:${who.password}`).toString('base64')}`, 'x-apikey': who.apiKey };
}

/** An HTTP answer, read whole. */
export interface ApiAnswer { status: number; contentType: string; body: string }

/** Thrown when no answer arrived: connection refused or reset (a killed server), or the time ran out. */
export class ConnectionLost extends Error {
  /** True when the connection was refused: the request never reached a server, so it certainly did not happen. */
  readonly neverSent: boolean;
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.neverSent = describeFetchError(options.cause) === 'ECONNREFUSED';
  }
}

/** What a request may carry besides method and path. */
export interface SendOptions { body?: string | Buffer; contentType?: string; headers?: Record<string, string> }

/** A client of one server as one identity; paths not starting with "/" are relative to /services/v2. */
export class ApiClient {
  constructor(readonly origin: string, readonly who: Identity, readonly timeoutMs = 30_000) {}

  /** Sends one request; resolves with any HTTP answer, throws ConnectionLost when there was none. */
  async send(method: string, path: string, options: SendOptions = {}): Promise<ApiAnswer> {
    const url = `${this.origin}${path.startsWith('/') ? path : `${API}/${path}`}`;
    const headers: Record<string, string> = { ...authHeaders(this.who), ...(options.headers ?? {}) };
    if (options.body !== undefined) headers['content-type'] = options.contentType ?? 'application/xml';
    let res: Response;
    try {
      // A Buffer is sent as its bytes (the DOM typings of fetch, which the web pages' JSX brings in, do not list Buffer).
      const body = typeof options.body === 'string' || options.body === undefined ? options.body : new Uint8Array(options.body);
      res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      throw new ConnectionLost(`${method} ${url}: ${describeFetchError(error)}`, { cause: error });
    }
    try {
      return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: await res.text() };
    } catch (error) {
      // The headers arrived but the body did not: as good as no answer.
      throw new ConnectionLost(`${method} ${url}: body lost (${describeFetchError(error)})`, { cause: error });
    }
  }
}

function describeFetchError(error: unknown): string {
  const e = error as { message?: string; cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(error);
}

/** The value of attribute `name` on the first `element` of a document (entities decoded), if any. */
export function xmlAttr(xml: string, element: string, name: string): string | undefined {
  return xmlAttrs(xml, element, name)[0];
}

/** The values of attribute `name` on every `element` of a document, in order. */
export function xmlAttrs(xml: string, element: string, name: string): string[] {
  const out: string[] = [];
  for (const m of xml.matchAll(new RegExp(`<(?:[\\w.-]+:)?${element}\\s[^>]*>`, 'g'))) {
    const a = new RegExp(`\\s${name}="([^"]*)"`).exec(m[0]);
    if (a) out.push(unescapeXml(a[1]!));
  }
  return out;
}

/** Escapes text for an XML attribute value or element content. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

function unescapeXml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_, n: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[n]!);
}
