import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import type { HttpHarness } from '../support/http-harness.ts';
import { formToken, WebVisitor } from '../support/web-visitor.ts';
import { sharedHarness } from './http-helpers.ts';

// Sign-in and sessions of the web pages: what the sign-in page offers, where it leads on, the CSRF token's binding
// to the session, and how long an unused session lasts.

const SIGN_IN = '/MvcProjects/SignIn';

/**
 * The paths of the links of a page's content, without the skip link's fragment (the header's agency name always leads
 * to the start page, wherever `next` says).
 */
function links(body: string): string[] {
  const main = /<main[^>]*>([\s\S]*)<\/main>/.exec(body)?.[1] ?? '';
  return [...main.matchAll(/<a [^>]*href="([^"#][^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
}

async function signedIn(h: HttpHarness): Promise<WebVisitor> {
  const v = new WebVisitor(h);
  const res = await v.signIn(h.who.applicant.email, h.who.applicant.password);
  assert.equal(res.statusCode, 303, res.body.slice(0, 300));
  return v;
}

forEachDialect('web sign-in', ({ dialect }) => {
  describe('with mail off', () => {
    const harness = sharedHarness(dialect);

    it('offers no password reset by mail, and every link of the sign-in page leads somewhere', async () => {
      const h = harness();
      const page = await new WebVisitor(h).send('GET', SIGN_IN);
      assert.equal(page.statusCode, 200);
      assert.doesNotMatch(page.body, /ForgotPassword/);
      assert.match(page.body, /Forgot your password\? Ask the agency/);
      for (const href of links(page.body)) {
        const res = await new WebVisitor(h).send('GET', href);
        assert.ok(res.statusCode < 400, `${href} answers ${res.statusCode}`);
      }
    });

    it('goes on only to a printable-ASCII path of this service after sign-in, never to a 500', async () => {
      const h = harness();
      const v = await signedIn(h);
      for (const next of ['/ü', '/MvcProjects/\u2028x', '/\u{1F600}', '//evil.example/', '/\\evil.example', 'https://evil.example/', '/a b']) {
        const res = await v.send('GET', `${SIGN_IN}?next=${encodeURIComponent(next)}`);
        assert.equal(res.statusCode, 200, `${JSON.stringify(next)}: ${res.body.slice(0, 200)}`);
        assert.deepEqual(links(res.body), ['/MvcProjects/'], `${JSON.stringify(next)}: the signed-in browser's way on`);
        const fresh = new WebVisitor(h);
        const posted = await fresh.signIn(h.who.applicant.email, h.who.applicant.password, next);
        assert.equal(posted.statusCode, 303, `${JSON.stringify(next)}: ${posted.body.slice(0, 200)}`);
        assert.equal(posted.headers.location, '/MvcProjects/', JSON.stringify(next));
      }
      const kept = await v.send('GET', `${SIGN_IN}?next=${encodeURIComponent('/MvcProjects/%C3%BC?x=1')}`);
      assert.deepEqual(links(kept.body), ['/MvcProjects/%C3%BC?x=1'], 'a percent-encoded path is kept');
    });

    it('shows a browser that holds a session (perhaps a planted one) whose it is, and signs it out and back to the form on request', async () => {
      const h = harness();
      const planted = await signedIn(h);
      const next = '/MvcProjects/Project?x=1';
      const page = await planted.send('GET', `${SIGN_IN}?next=${encodeURIComponent(next)}`);
      assert.equal(page.statusCode, 200, 'not sent on to the session\'s pages');
      assert.match(page.body, /<h1>You are signed in already<\/h1>/);
      assert.match(page.body, new RegExp(`signed in as <strong>User ${h.who.applicant.id}</strong> \\(${h.who.applicant.email}\\)`));
      assert.deepEqual(links(page.body), [next], `only "Continue as …" leads on`);
      assert.match(page.body, /<form method="post" action="\/MvcProjects\/SignOut">/);
      assert.match(page.body, /<input type="hidden" name="after" value="sign-in"\/>/);
      assert.match(page.body, /<button class="usa-button" type="submit">Sign out and sign in as someone else<\/button>/);

      const token = formToken(page.body);
      assert.equal((await planted.send('POST', '/MvcProjects/SignOut', { next, after: 'sign-in' })).statusCode, 403, 'the form needs its CSRF token');
      assert.equal((await planted.send('GET', '/MvcProjects/')).statusCode, 200, 'a refused sign-out changes nothing');
      const out = await planted.send('POST', '/MvcProjects/SignOut', { _csrf: token, next, after: 'sign-in' });
      assert.equal(out.statusCode, 303);
      assert.equal(out.headers.location, `${SIGN_IN}?next=${encodeURIComponent(next)}`);
      assert.notEqual((await planted.send('GET', '/MvcProjects/')).statusCode, 200, 'the planted session ended');
      const form = await planted.send('GET', String(out.headers.location));
      assert.equal(form.statusCode, 200);
      assert.match(form.body, /<label class="usa-label" for="email">E-mail address<\/label>/);
      const own = await planted.signIn(h.who.admin.email, h.who.admin.password, next);
      assert.equal(own.statusCode, 303);
      assert.equal(own.headers.location, next);
    });

    it('binds the CSRF token to the session: a token and cookie planted from another browser are refused', async () => {
      const h = harness();
      const victim = await signedIn(h);
      // The attacker's own pair: a CSRF cookie and a token of the sign-in page, planted in the victim's browser.
      const attacker = new WebVisitor(h);
      const token = formToken((await attacker.send('GET', SIGN_IN)).body);
      const planted = attacker.cookies.get('_csrf');
      assert.ok(planted);
      victim.cookies.set('_csrf', planted);
      const res = await victim.send('POST', '/MvcProjects/SignOut', { _csrf: token });
      assert.equal(res.statusCode, 403);
      assert.equal((await victim.send('GET', '/MvcProjects/')).statusCode, 200, 'still signed in');
      // Another session of the same user, with the victim's cookie and token, is refused as well.
      const ownToken = formToken((await victim.send('GET', '/MvcProjects/')).body);
      const other = await signedIn(h);
      other.cookies.set('_csrf', victim.cookies.get('_csrf')!);
      assert.equal((await other.send('POST', '/MvcProjects/SignOut', { _csrf: ownToken })).statusCode, 403);
      assert.equal((await other.send('GET', '/MvcProjects/')).statusCode, 200, 'still signed in');
    });

    it('starts a new CSRF secret at sign-in and at sign-out', async () => {
      const h = harness();
      const v = new WebVisitor(h);
      const before = formToken((await v.send('GET', SIGN_IN)).body);
      const secret = v.cookies.get('_csrf');
      const res = await v.send('POST', SIGN_IN, { _csrf: before, email: h.who.applicant.email, password: h.who.applicant.password, next: '/MvcProjects/' });
      assert.equal(res.statusCode, 303);
      assert.equal(v.cookies.has('_csrf'), false, 'the secret of before sign-in is cleared');
      await v.send('GET', '/MvcProjects/');
      assert.ok(v.cookies.get('_csrf'));
      assert.notEqual(v.cookies.get('_csrf'), secret);
      const during = formToken((await v.send('GET', '/MvcProjects/')).body);
      assert.equal((await v.send('POST', '/MvcProjects/SignOut', { _csrf: during })).statusCode, 303);
      assert.equal(v.cookies.has('_csrf'), false);
    });

    it('never ends a session used within its idle time, and ends one left unused', async () => {
      const h = harness();
      const idle = h.config.web.sessionIdleMinutes * 60_000;
      const v = await signedIn(h);
      // Used just before the write-back interval, then again just inside the idle time counted from that use.
      h.clock.advance(59_000);
      assert.equal((await v.send('GET', '/MvcProjects/')).statusCode, 200);
      h.clock.advance(idle - 1000);
      assert.equal((await v.send('GET', '/MvcProjects/')).statusCode, 200, 'used within its idle time');
      for (let i = 0; i < 5; i++) {
        h.clock.advance(idle - 1000);
        assert.equal((await v.send('GET', '/MvcProjects/')).statusCode, 200, `use ${i} within its idle time`);
      }
      h.clock.advance(idle + 60_000);
      const ended = await v.send('GET', '/MvcProjects/');
      assert.equal(ended.statusCode, 303, 'unused for longer than its idle time (and the write-back interval)');
      assert.match(String(ended.headers.location), /^\/MvcProjects\/SignIn/);
    });
  });

  describe('with mail on', () => {
    const harness = sharedHarness(dialect, { APAS_SMTP_URL: 'smtp://127.0.0.1:1', APAS_MAIL_FROM: 'apas@apas.test' });

    it('links the password reset, and the link works', async () => {
      const h = harness();
      const page = await new WebVisitor(h).send('GET', SIGN_IN);
      assert.ok(links(page.body).includes('/MvcProjects/ForgotPassword'));
      for (const href of links(page.body)) assert.equal((await new WebVisitor(h).send('GET', href)).statusCode < 400, true, href);
    });
  });

  describe('over https', () => {
    const harness = sharedHarness(dialect, { APAS_PUBLIC_URL: 'https://apas.test' });

    it('keeps the CSRF secret in a __Host- cookie (Secure, path /, no domain) and sends HSTS', async () => {
      const h = harness();
      const res = await new WebVisitor(h).send('GET', SIGN_IN);
      const cookie = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('__Host-'));
      assert.ok(cookie, String(res.headers['set-cookie']));
      assert.match(cookie, /; Secure/i);
      assert.match(cookie, /; Path=\//i);
      assert.doesNotMatch(cookie, /Domain=/i);
      assert.match(String(res.headers['strict-transport-security']), /max-age=/);
      const v = new WebVisitor(h);
      assert.equal((await v.signIn(h.who.applicant.email, h.who.applicant.password)).statusCode, 303, 'the form works with it');
    });
  });
});
