import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { HttpHarness } from './http-harness.ts';

/** The CSRF token of the first form on a page. */
export function formToken(body: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(body)?.[1];
  assert.ok(token, `no form on the page: ${body.slice(0, 300)}`);
  return token;
}

/** One browser as the web pages see it, through app.inject: its cookies kept (and dropped when cleared) across requests. */
export class WebVisitor {
  readonly cookies = new Map<string, string>();
  constructor(private readonly h: HttpHarness) {}

  /**
   * Sends a request with this browser's cookies; a form goes url-encoded with a same-origin Origin, as browsers send
   * it (a list as the field repeated, as ticked checkboxes of one name are).
   */
  async send(method: 'GET' | 'POST', url: string, form?: Record<string, string | string[]>): Promise<LightMyRequestResponse> {
    const fields = form ? Object.entries(form).flatMap(([k, v]) => [v].flat().map((x): [string, string] => [k, x])) : [];
    const res = await this.h.app.inject({
      method, url, payload: form ? new URLSearchParams(fields).toString() : undefined,
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(this.h.config.publicUrl).origin } : {}),
      },
    });
    for (const c of [res.headers['set-cookie'] ?? []].flat()) {
      const [pair] = c.split(';');
      const [name, ...rest] = pair!.split('=');
      if (/expires=Thu, 01 Jan 1970/i.test(c) || /max-age=0/i.test(c)) this.cookies.delete(name!);
      else this.cookies.set(name!, rest.join('='));
    }
    return res;
  }

  /** Opens `page` and posts its form (with the page's CSRF token) to `action`. */
  async submit(page: string, action: string, form: Record<string, string>): Promise<LightMyRequestResponse> {
    const opened = await this.send('GET', page);
    return this.send('POST', action, { _csrf: formToken(opened.body), ...form });
  }

  /** Signs in on the sign-in page; the answer is the sign-in form's (303 when signed in). */
  signIn(email: string, password: string, next = '/MvcProjects/'): Promise<LightMyRequestResponse> {
    return this.submit('/MvcProjects/SignIn', '/MvcProjects/SignIn', { email, password, next });
  }
}
