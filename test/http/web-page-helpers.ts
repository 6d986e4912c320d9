import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { authHeaders, type HttpHarness, type Identity, type Who } from '../support/http-harness.ts';

/** A harness identity by name, or any identity (say, one a test made for itself). */
const identity = (h: HttpHarness, who: Who | Identity): Identity => (typeof who === 'string' ? h.who[who] : who);

/** GETs a web page as `who` (HTTP Basic, as browsers of the landing page may), or without credentials for null. */
export function webGet(h: HttpHarness, url: string, who: Who | Identity | null): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = who ? { authorization: authHeaders(identity(h, who)).authorization! } : {};
  return h.app.inject({ method: 'GET', url, headers });
}

/** A CSRF token and the cookie it belongs to, taken from a page as a browser would. */
export interface CsrfPair { token: string; cookie: string }

/** Reads the CSRF token of a page's forms (every signed-in page has one, in its sign-out form) and its cookie. */
export async function csrfFrom(h: HttpHarness, who: Who | Identity, url = '/MvcProjects/'): Promise<CsrfPair> {
  const res = await webGet(h, url, who);
  const token = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1];
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('_csrf='));
  assert.ok(token && setCookie, `no CSRF token on ${url} for ${identity(h, who).email}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return { token, cookie: setCookie.split(';')[0]! };
}

/** POSTs a form as `who`; with `csrf` false, without the token (a cross-site post). */
export async function webPost(h: HttpHarness, url: string, who: Who | Identity, form: Record<string, string>, csrf = true): Promise<LightMyRequestResponse> {
  const pair = await csrfFrom(h, who);
  const body = new URLSearchParams(csrf ? { _csrf: pair.token, ...form } : form).toString();
  return h.app.inject({
    method: 'POST', url, payload: body,
    headers: { authorization: authHeaders(identity(h, who)).authorization!, 'content-type': 'application/x-www-form-urlencoded', cookie: pair.cookie },
  });
}

/** The text of every table cell of a column in the first table of a page whose header row names it. */
export function column(html: string, header: string): string[] {
  const table = /<table class="usa-table">[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
  const headers = [...table.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((m) => m[1]);
  const index = headers.indexOf(header);
  assert.ok(index >= 0, `no column ${header} in ${headers.join(', ')}`);
  const rows = [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].slice(1);
  return rows.map((r) => [...r[1]!.matchAll(/<td>([\s\S]*?)<\/td>/g)][index]![1]!.replace(/<[^>]+>/g, ''));
}
