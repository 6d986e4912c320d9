import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import { startHttp } from '../support/http-harness.ts';
import { Visitor } from './web-visitor.ts';

// Web sign-ins are also throttled per account, across every client address: an attacker with many addresses gets a
// few guesses per window, not 10 per address; the real user's browsers that signed in before carry a known-device
// cookie and are not slowed by it, so the attacker cannot lock the user out; the user is told by mail
// (docs/interface.md, "Failed sign-ins").

forEachDialect('HTTP: the account-wide sign-in throttle', ({ open }) => {
  it('many addresses get few guesses; the user\'s known browser still signs in; the user is mailed once', async () => {
    const h = await startHttp(await open(), { APAS_SIGNIN_ACCOUNT_SLOW_AFTER: '3', APAS_SMTP_URL: 'smtp://127.0.0.1:9', APAS_MAIL_FROM: 'apas@apas.test' });
    try {
      const { email, password } = h.who.applicant;
      // The real user signed in from this browser before: it keeps a known-device cookie.
      const known = new Visitor(h, '192.0.2.1');
      assert.equal((await known.signIn(email, password)).statusCode, 303);
      assert.ok(known.cookies.has('apas_device'), 'a successful sign-in sets the known-device cookie');
      known.cookies.delete('apas_session');

      const answers: number[] = [];
      for (let i = 0; i < 30; i += 1) answers.push((await new Visitor(h, `198.51.100.${i + 1}`).signIn(email, `guess number ${i}`)).statusCode);
      const checked = answers.filter((s) => s === 401).length;
      assert.ok(checked <= 12, `at most a dozen guesses are checked in a window across addresses, got ${checked}: ${answers.join(' ')}`);
      assert.equal(answers.filter((s) => s === 429).length, 30 - checked, 'the others are refused unchecked');

      // The user's known browser is not throttled by the attack, and signs in with the right password.
      const back = await known.signIn(email, password);
      assert.equal(back.statusCode, 303, back.body);
      // A browser without the cookie is throttled like the attacker, right password or not.
      assert.equal((await new Visitor(h, '192.0.2.99').signIn(email, password)).statusCode, 429);
      // Unknown user names get the same answers, so the throttle does not tell who has an account.
      const nobody: number[] = [];
      for (let i = 0; i < 30; i += 1) nobody.push((await new Visitor(h, `203.0.113.${i + 1}`).signIn('nobody@example.org', `guess ${i}`)).statusCode);
      assert.ok(nobody.filter((s) => s === 429).length >= 18, nobody.join(' '));

      const notices = (await h.store.mail.listMail()).filter((m) => m.to === email);
      assert.deepEqual(notices.map((m) => m.subject), ['Failed sign-ins to your account'], 'one notice per window');
      assert.match(notices[0]!.text, /ForgotPassword/);

      // The next window starts afresh.
      h.clock.advance(15 * 60_000);
      assert.equal((await new Visitor(h, '192.0.2.99').signIn(email, password)).statusCode, 303);
    } finally {
      await h.close();
    }
  });
});
