import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { HttpHarness } from '../support/http-harness.ts';

/** A browser's cookies for one visitor: the CSRF cookie and the session cookie, kept across requests. */
export class Visitor {
  readonly cookies = new Map<string, string>();
  /** `address`: the client address the requests come from. */
  constructor(private readonly h: HttpHarness, private readonly address = '127.0.0.1') {}

  async send(method: 'GET' | 'POST', url: string, form?: Record<string, string>): Promise<LightMyRequestResponse> {
    const res = await this.h.app.inject({
      method, url, remoteAddress: this.address, payload: form ? new URLSearchParams(form).toString() : undefined,
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://apas.test' } : {}),
      },
    });
    for (const c of [res.headers['set-cookie'] ?? []].flat()) {
      const [pair] = c.split(';');
      const [name, ...rest] = pair!.split('=');
      if (/expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name!);
      else this.cookies.set(name!, rest.join('='));
    }
    return res;
  }

  /** Opens `page` and posts its form (with the page's CSRF token) to `action`. */
  async submit(page: string, action: string, form: Record<string, string>): Promise<LightMyRequestResponse> {
    const opened = await this.send('GET', page);
    const token = /name="_csrf" value="([^"]+)"/.exec(opened.body)?.[1];
    assert.ok(token, `no form on ${page}: ${opened.statusCode} ${opened.body}`);
    return this.send('POST', action, { _csrf: token, ...form });
  }

  signIn(email: string, password: string): Promise<LightMyRequestResponse> {
    return this.submit('/MvcProjects/SignIn', '/MvcProjects/SignIn', { email, password, next: '/MvcProjects/' });
  }
}

