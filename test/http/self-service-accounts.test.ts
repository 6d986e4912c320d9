import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AccountService } from '../../src/domain/accounts/account-service.ts';
import { sendDueMail } from '../../src/domain/mail/mail-sender.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { smtpMailer } from '../../src/domain/mail/smtp-mailer.ts';
import { forEachDialect, openTestStore, type TestStore } from '../support/databases.ts';
import { programRows } from '../support/fixtures.ts';
import { type HttpHarness, startHttp } from '../support/http-harness.ts';
import { type CapturedMail, type SmtpCapture, startSmtpCapture } from '../support/smtp-capture.ts';
import { Visitor } from './web-visitor.ts';

const SIGN_UP = '/MvcProjects/SignUp?ProgramId=solar';
const NEW_PASSWORD = 'a brand new passphrase';

/** The page without its per-request parts (CSRF tokens), to compare two answers. */
function stable(body: string): string {
  return body.replace(/name="_csrf" value="[^"]*"/g, '');
}

function linkIn(mail: CapturedMail, path: string): string {
  const m = new RegExp(`http://apas\\.test${path}\\?token=[A-Za-z0-9_-]+`).exec(mail.text);
  assert.ok(m, `no ${path} link in\n${mail.text}`);
  const url = new URL(m[0]);
  return `${url.pathname}${url.search}`;
}

async function openForSignUp(h: HttpHarness, on: boolean): Promise<void> {
  const rows = programRows(h.clock.advance());
  rows.program = { ...rows.program, selfSignUp: on };
  await h.store.transaction((tx) => tx.programs.saveProgramDefinition(rows));
}

forEachDialect('self-service accounts', ({ dialect }) => {
  describe('sign-up, confirmation and password reset by mail', () => {
    let db: TestStore;
    let h: HttpHarness;
    let smtp: SmtpCapture;
    before(async () => {
      smtp = await startSmtpCapture();
      db = await openTestStore(dialect);
      h = await startHttp(db, { APAS_SMTP_URL: smtp.url, APAS_MAIL_FROM: 'apas@apas.test' });
    });
    after(async () => {
      await h.close();
      await db.store.close();
      await db.close();
      await smtp.stop();
    });

    /** Sends what is queued and returns the new messages. */
    async function mailed(): Promise<CapturedMail[]> {
      const start = smtp.messages.length;
      const mailer = smtpMailer(smtp.url, 'apas@apas.test');
      try {
        while (await sendDueMail({ store: h.store, clock: h.clock, mailer }));
      } finally {
        mailer.close();
      }
      return smtp.messages.slice(start);
    }

    it('sign-up is offered only for a program whose file allows it', async () => {
      const v = new Visitor(h);
      assert.equal((await v.send('GET', SIGN_UP)).statusCode, 404);
      await openForSignUp(h, true);
      const page = await v.send('GET', SIGN_UP);
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<label class="usa-label" for="email">E-mail address<\/label>/);
      assert.equal((await v.send('GET', '/MvcProjects/SignUp?ProgramId=nope')).statusCode, 404);
    });

    it('a new address gets a confirmation link, a known one a mail to its owner, behind the same page', async () => {
      const v = new Visitor(h);
      const fresh = await v.submit(SIGN_UP, SIGN_UP, { name: 'Ada Applicant', email: 'Ada@Example.org' });
      const known = await new Visitor(h).submit(SIGN_UP, SIGN_UP, { name: 'Someone', email: h.who.applicant.email });
      assert.equal(fresh.statusCode, 200);
      assert.equal(known.statusCode, 200);
      assert.equal(stable(fresh.body), stable(known.body), 'the answers do not tell known from unknown addresses');
      const mails = await mailed();
      assert.deepEqual(mails.map((m) => [m.to, m.subject]).sort(), [
        ['ada@example.org', 'Confirm your e-mail address for Solar Interconnection'],
        [h.who.applicant.email, 'You already have an account'],
      ].sort());
      const user = await h.store.accounts.findUserByEmail('ada@example.org');
      assert.equal(user?.disabled, true, 'inactive until confirmed');
      assert.deepEqual((await h.store.accounts.listGrants(user!.id)).map((g) => g.role), ['applicant']);
      assert.equal((await new Visitor(h).signIn('ada@example.org', 'correct horse battery')).statusCode, 401, 'cannot sign in before confirming');

      const confirm = linkIn(mails.find((m) => m.to === 'ada@example.org')!, '/MvcProjects/SignUp/Confirm');
      const token = new URL(confirm, 'http://x').searchParams.get('token')!;
      const done = await v.submit(confirm, '/MvcProjects/SignUp/Confirm', { token, password: 'correct horse battery' });
      assert.equal(done.statusCode, 200, done.body);
      assert.match(done.body, /Your account is active/);
      assert.equal((await v.send('GET', confirm)).statusCode, 400, 'a used link opens no form');
      const again = await v.submit(SIGN_UP, '/MvcProjects/SignUp/Confirm', { token, password: 'another password here' });
      assert.equal(again.statusCode, 400);
      assert.match(again.body, /already been used or has expired/);
      const signedIn = await v.signIn('ada@example.org', 'correct horse battery');
      assert.equal(signedIn.statusCode, 303, signedIn.body);
      assert.equal((await v.send('GET', '/MvcProjects/')).statusCode, 200);
    });

    it('an address that never confirmed can sign up again: a new link; the older link stops working', async () => {
      const v = new Visitor(h);
      await v.submit(SIGN_UP, SIGN_UP, { name: 'Carol', email: 'carol@example.org' });
      const [first] = await mailed();
      h.clock.advance(25 * 3_600_000);
      const expired = linkIn(first!, '/MvcProjects/SignUp/Confirm');
      const late = await v.send('GET', expired);
      assert.equal(late.statusCode, 400, 'the link expired after 24 hours');
      assert.match(late.body, /already been used or has expired/);
      await v.submit(SIGN_UP, SIGN_UP, { name: 'Carol', email: 'carol@example.org' });
      const [second] = await mailed();
      assert.equal(second?.subject, 'Confirm your e-mail address for Solar Interconnection', 'not "you already have an account"');
      await v.submit(SIGN_UP, SIGN_UP, { name: 'Carol', email: 'carol@example.org' });
      const [third] = await mailed();
      const replaced = linkIn(second!, '/MvcProjects/SignUp/Confirm');
      assert.equal((await v.send('GET', replaced)).statusCode, 400, 'a newer link replaces it');
      const link = linkIn(third!, '/MvcProjects/SignUp/Confirm');
      assert.equal((await v.submit(link, '/MvcProjects/SignUp/Confirm', { token: new URL(link, 'http://x').searchParams.get('token')!, password: 'carol chose this one' })).statusCode, 200);
      assert.equal((await new Visitor(h).signIn('carol@example.org', 'carol chose this one')).statusCode, 303);
      // Confirmed: a further sign-up is one of an existing account.
      await v.submit(SIGN_UP, SIGN_UP, { name: 'Carol', email: 'carol@example.org' });
      assert.deepEqual((await mailed()).map((m) => m.subject), ['You already have an account']);
    });

    it('the confirmation mail repeats nothing the sign-up form took: a name with links goes to nobody', async () => {
      // Sent to an address nobody has verified yet: the name would be a channel for spam and phishing in the agency's name.
      const name = 'Your refund is waiting: claim it at https://evil.example/refund before Friday'.padEnd(200, '!');
      await new Visitor(h).submit(SIGN_UP, SIGN_UP, { name, email: 'spam-target@example.org' });
      const [first] = await mailed();
      assert.equal(first?.subject, 'Confirm your e-mail address for Solar Interconnection');
      assert.match(first!.text, /^Welcome\.\n/);
      assert.doesNotMatch(`${first!.text}${first!.html}`, /evil\.example|refund|!!!/);
      // Signing up again before confirming: the new link's mail leaves the (new) name out as well.
      await new Visitor(h).submit(SIGN_UP, SIGN_UP, { name: 'Visit https://evil.example/two', email: 'spam-target@example.org' });
      const [again] = await mailed();
      assert.equal(again?.subject, 'Confirm your e-mail address for Solar Interconnection');
      assert.doesNotMatch(`${again!.text}${again!.html}`, /evil\.example/);
      assert.equal((await h.store.accounts.findUserByEmail('spam-target@example.org'))?.name, name.trim(), 'the name is kept on the account');
    });

    it('an unconfirmed sign-up whose link expired asks for a new link and gets a confirmation link, behind the same answer', async () => {
      const v = new Visitor(h);
      await v.submit(SIGN_UP, SIGN_UP, { name: 'Gina', email: 'gina@example.org' });
      const [first] = await mailed();
      h.clock.advance(25 * 3_600_000);
      const late = await v.send('GET', linkIn(first!, '/MvcProjects/SignUp/Confirm'));
      assert.equal(late.statusCode, 400);
      assert.match(late.body, /<a href="\/MvcProjects\/ForgotPassword">Ask for a new link<\/a>/);
      const auditBefore = (await h.store.audit.list({ action: 'account.confirm.again' })).length;
      const asked = await v.submit('/MvcProjects/ForgotPassword', '/MvcProjects/ForgotPassword', { email: 'Gina@Example.org' });
      const unknown = await new Visitor(h).submit('/MvcProjects/ForgotPassword', '/MvcProjects/ForgotPassword', { email: 'nobody-else@example.org' });
      assert.equal(asked.statusCode, 200);
      assert.equal(stable(asked.body), stable(unknown.body), 'the answers do not tell an unconfirmed address from an unknown one');
      const mails = await mailed();
      assert.deepEqual(mails.map((m) => [m.to, m.subject]), [['gina@example.org', 'Confirm your e-mail address for Solar Interconnection']]);
      assert.equal((await h.store.audit.list({ action: 'account.confirm.again' })).length, auditBefore + 1);
      const link = linkIn(mails[0]!, '/MvcProjects/SignUp/Confirm');
      const done = await v.submit(link, '/MvcProjects/SignUp/Confirm', { token: new URL(link, 'http://x').searchParams.get('token')!, password: 'gina chose this one' });
      assert.equal(done.statusCode, 200, done.body);
      assert.equal((await new Visitor(h).signIn('gina@example.org', 'gina chose this one')).statusCode, 303);
      // Confirmed now: asking again is a password reset.
      await v.submit('/MvcProjects/ForgotPassword', '/MvcProjects/ForgotPassword', { email: 'gina@example.org' });
      assert.deepEqual((await mailed()).map((m) => m.subject), ['Reset your password']);
    });

    it('a second sign-up with an unconfirmed address cannot choose the password: whoever confirms by the mailed link chooses it', async () => {
      // The owner signs up; someone else signs up with the same address and another password before the owner confirms.
      // (Forms of the time before the fix sent a password with the sign-up; it is ignored now.)
      await new Visitor(h).submit(SIGN_UP, SIGN_UP, { name: 'Erin', email: 'erin@example.org', password: 'erin own password' });
      await mailed();
      await new Visitor(h).submit(SIGN_UP, SIGN_UP, { name: 'Mallory', email: 'erin@example.org', password: 'mallory knows this one' });
      const [latest] = await mailed();
      // The owner uses the latest link (the only one that works): the confirmation page asks for the password.
      const v = new Visitor(h);
      const link = linkIn(latest!, '/MvcProjects/SignUp/Confirm');
      const token = new URL(link, 'http://x').searchParams.get('token')!;
      const page = await v.send('GET', link);
      assert.match(page.body, /<label class="usa-label" for="password">/, 'the confirmation page asks for the password');
      const weak = await v.submit(link, '/MvcProjects/SignUp/Confirm', { token, password: 'short' });
      assert.equal(weak.statusCode, 400);
      assert.match(weak.body, /at least 12 characters/);
      assert.equal((await h.store.accounts.findUserByEmail('erin@example.org'))?.disabled, true, 'a refused confirmation activates nothing');
      const done = await v.submit(link, '/MvcProjects/SignUp/Confirm', { token, password: 'erin chose at confirmation' });
      assert.equal(done.statusCode, 200, done.body);
      assert.equal((await new Visitor(h).signIn('erin@example.org', 'mallory knows this one')).statusCode, 401, 'the other sign-up\'s password does not work');
      assert.equal((await new Visitor(h).signIn('erin@example.org', 'erin own password')).statusCode, 401, 'nor does any sign-up\'s: a link carries none');
      assert.equal((await new Visitor(h).signIn('erin@example.org', 'erin chose at confirmation')).statusCode, 303);
    });

    it('an account an operator disables before it is confirmed stays disabled: neither its mailed link nor a new sign-up brings it back', async () => {
      const v = new Visitor(h);
      await v.submit(SIGN_UP, SIGN_UP, { name: 'Dora', email: 'dora@example.org' });
      const [mail] = await mailed();
      const link = linkIn(mail!, '/MvcProjects/SignUp/Confirm');
      const opened = await v.send('GET', link);
      await new AccountService({ store: h.store, clock: h.clock, ids: new RandomIdGenerator() }).setDisabled('dora@example.org', true);
      const csrf = /name="_csrf" value="([^"]+)"/.exec(opened.body)?.[1] ?? '';
      const res = await v.send('POST', '/MvcProjects/SignUp/Confirm', { _csrf: csrf, token: new URL(link, 'http://x').searchParams.get('token')!, password: 'dora long password' });
      assert.equal(res.statusCode, 400);
      // Nor does signing up again: the owner is told the address has an account, and it stays disabled.
      await v.submit(SIGN_UP, SIGN_UP, { name: 'Dora', email: 'dora@example.org' });
      assert.deepEqual((await mailed()).map((m) => m.subject), ['You already have an account']);
      // Nor does asking for a new link: it mails nothing.
      await v.submit('/MvcProjects/ForgotPassword', '/MvcProjects/ForgotPassword', { email: 'dora@example.org' });
      assert.deepEqual(await mailed(), []);
      assert.equal((await h.store.accounts.findUserByEmail('dora@example.org'))?.disabled, true);
    });

    it('a refused sign-up creates nothing and mails nothing', async () => {
      const before = { audit: await h.store.audit.list({}), mail: await h.store.mail.listMail() };
      const v = new Visitor(h);
      const bad = await v.submit(SIGN_UP, SIGN_UP, { name: 'Bob', email: 'bob@example' });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /is not an e-mail address/);
      assert.match(bad.body, /value="bob@example"/);
      const noCsrf = await v.send('POST', SIGN_UP, { name: 'Bob', email: 'bob@example.org' });
      assert.equal(noCsrf.statusCode, 403);
      assert.equal(await h.store.accounts.findUserByEmail('bob@example.org'), null);
      assert.deepEqual(await h.store.audit.list({}), before.audit);
      assert.deepEqual(await h.store.mail.listMail(), before.mail);
    });

    it('a client over its sign-up limit is refused before anything it sent is looked at', async () => {
      const v = new Visitor(h, '203.0.113.28');
      for (let i = 0; i < 20; i += 1) {
        assert.equal((await v.submit(SIGN_UP, SIGN_UP, { name: 'Flood', email: `flood${i}@example.org` })).statusCode, 200);
      }
      const before = { audit: await h.store.audit.list({}), mail: await h.store.mail.listMail() };
      // Over the limit, even a form that would be refused for its contents is refused for the address, unchecked.
      const refused = await v.submit(SIGN_UP, SIGN_UP, { name: 'Flood', email: 'not an address' });
      assert.equal(refused.statusCode, 429, refused.body);
      assert.equal(await h.store.accounts.findUserByEmail('flood-more@example.org'), null);
      assert.deepEqual(await h.store.audit.list({}), before.audit);
      assert.deepEqual(await h.store.mail.listMail(), before.mail);
      await mailed();
    });

    it('a reset link sets a new password once, ends other sessions, and expires', async () => {
      const old = new Visitor(h);
      assert.equal((await old.signIn(h.who.applicant.email, h.who.applicant.password)).statusCode, 303);
      assert.equal((await old.send('GET', '/MvcProjects/')).statusCode, 200);

      const v = new Visitor(h);
      const known = await v.submit('/MvcProjects/ForgotPassword', '/MvcProjects/ForgotPassword', { email: h.who.applicant.email });
      const unknown = await v.submit('/MvcProjects/ForgotPassword', '/MvcProjects/ForgotPassword', { email: 'nobody@example.org' });
      assert.equal(known.statusCode, 200);
      assert.equal(stable(known.body), stable(unknown.body), 'the answers do not tell known from unknown addresses');
      const mails = await mailed();
      assert.deepEqual(mails.map((m) => [m.to, m.subject]), [[h.who.applicant.email, 'Reset your password']]);
      const link = linkIn(mails[0]!, '/MvcProjects/ResetPassword');
      const token = new URL(link, 'http://x').searchParams.get('token')!;

      const weak = await v.submit(link, '/MvcProjects/ResetPassword', { token, password: 'short' });
      assert.equal(weak.statusCode, 400);
      assert.match(weak.body, /at least 12 characters/);
      const done = await v.submit(link, '/MvcProjects/ResetPassword', { token, password: NEW_PASSWORD });
      assert.equal(done.statusCode, 200, done.body);
      assert.notEqual((await old.send('GET', '/MvcProjects/')).statusCode, 200, 'the earlier session ended');
      assert.equal((await new Visitor(h).signIn(h.who.applicant.email, h.who.applicant.password)).statusCode, 401);
      assert.equal((await new Visitor(h).signIn(h.who.applicant.email, NEW_PASSWORD)).statusCode, 303);
      const reused = await v.send('GET', link);
      assert.equal(reused.statusCode, 400);
      assert.match(reused.body, /already been used or has expired/);

      await v.submit('/MvcProjects/ForgotPassword', '/MvcProjects/ForgotPassword', { email: h.who.applicant.email });
      const [late] = await mailed();
      h.clock.advance(61 * 60_000);
      const expired = await v.send('GET', linkIn(late!, '/MvcProjects/ResetPassword'));
      assert.equal(expired.statusCode, 400);
      assert.match(expired.body, /already been used or has expired/);
    });
  });
});
