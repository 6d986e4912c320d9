import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type BackgroundWork, startBackgroundWork } from '../../src/domain/events/background-work.ts';
import { DEMO_AGENCY, DEMO_PROGRAM_PATH } from '../../src/domain/programs/demo.ts';
import { eventTasks } from '../../src/domain/wiring/event-tasks.ts';
import { parseProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { smtpMailer } from '../../src/domain/mail/smtp-mailer.ts';
import { systemClock } from '../../src/model/clock.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { type CapturedMail, mailTo, type SmtpCapture, startSmtpCapture } from '../support/smtp-capture.ts';
import { changeReactions } from '../../src/domain/wiring/change-reactions.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';

// Self-service accounts in a real browser, with the mail going through a real SMTP server in this process and the
// service's own background work sending it: sign up, confirm by the mailed link, sign in, reset the password by mail.

const NAME = 'Grace Hopper';
const EMAIL = 'grace@example.org';
const FIRST_PASSWORD = 'first long passphrase';
const SECOND_PASSWORD = 'second long passphrase';

describe('web: self-service sign-up, confirmation and password reset', () => {
  let smtp: SmtpCapture;
  let server: WebServer;
  let browser: Browser;
  let work: BackgroundWork;
  let signUpUrl = '';
  before(async () => {
    smtp = await startSmtpCapture();
    server = await startWebServer('sqlite', { APAS_SMTP_URL: smtp.url, APAS_MAIL_FROM: 'APAS <apas@example.org>' });
    const file = parseProgramFile(await readFile(DEMO_PROGRAM_PATH, 'utf8'));
    await importProgram({ store: server.store, clock: systemClock, ids: new RandomIdGenerator(), checkers: programCheckers() }, DEMO_AGENCY.customId, { ...file, selfService: { signUp: true } });
    signUpUrl = `${server.baseUrl}/MvcProjects/SignUp?ProgramId=${encodeURIComponent(file.customId)}`;
    work = startBackgroundWork(eventTasks({
      store: server.store, clock: systemClock, ids: new RandomIdGenerator(), publicUrl: server.baseUrl, mailer: smtpMailer(smtp.url, 'APAS <apas@example.org>'), mailIntervalMs: 50, reactions: changeReactions(),
    }), { warn: () => {} });
    browser = await launchBrowser();
  });
  after(async () => {
    await work?.stop();
    await browser?.close();
    await server?.close();
    await smtp?.stop();
  });

  /** The next mail to `to` with `subject`, once the background work has sent it. */
  function linkOf(mail: CapturedMail, path: string): string {
    const m = new RegExp(`${server.baseUrl.replaceAll('.', '\\.')}${path}\\?token=[A-Za-z0-9_-]+`).exec(mail.text);
    assert.ok(m, `no ${path} link in ${mail.text}`);
    return m[0];
  }

  async function signUp(page: Page, email: string): Promise<string> {
    await page.goto(signUpUrl);
    await page.getByLabel('Full name').fill(NAME);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    return page.locator('main').innerText();
  }

  it('signs up, confirms by the mailed link and signs in; a known address gets the same answer', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(signUpUrl);
    await assertAccessible(page);
    await screenshot(page, 'sign-up');
    const answer = await signUp(page, EMAIL);
    await assertAccessible(page);
    const other = await browser.newContext();
    assert.equal(await signUp(await other.newPage(), DEMO.applicant.email), answer, 'known and unknown addresses get the same page');
    await other.close();
    await mailTo(smtp, DEMO.applicant.email, 'You already have an account');

    // Not yet confirmed: the account cannot sign in.
    await signIn(page, server.baseUrl, { email: EMAIL, password: FIRST_PASSWORD });
    await page.getByRole('alert').getByText('The e-mail address or password is not right.').waitFor();

    const confirm = linkOf(await mailTo(smtp, EMAIL, 'Confirm your e-mail address for Residential Solar Interconnection'), '/MvcProjects/SignUp/Confirm');
    await page.goto(confirm);
    await assertAccessible(page);
    // The password is chosen here, by whoever holds the mailbox, never at sign-up.
    await page.getByLabel('Password').fill(FIRST_PASSWORD);
    await page.getByRole('button', { name: 'Confirm and activate my account' }).click();
    await page.getByRole('heading', { name: 'Your account is active' }).waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('E-mail address').fill(EMAIL);
    await page.getByLabel('Password').fill(FIRST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: `Welcome, ${NAME}` }).waitFor();

    // The link works once.
    const again = await (await browser.newContext()).newPage();
    await again.goto(confirm);
    await again.getByRole('heading', { name: 'This link cannot be used' }).waitFor();
    await context.close();
  });

  it('resets the password by the mailed link; unknown addresses get the same answer; the link works once', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/MvcProjects/SignIn`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await assertAccessible(page);
    const ask = async (email: string) => {
      await page.goto(`${server.baseUrl}/MvcProjects/ForgotPassword`);
      await page.getByLabel('E-mail address').fill(email);
      await page.getByRole('button', { name: 'Send me a link' }).click();
      await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
      return page.locator('main').innerText();
    };
    const unknown = await ask('nobody-here@example.org');
    const known = await ask(EMAIL);
    assert.equal(known, unknown);

    const reset = linkOf(await mailTo(smtp, EMAIL, 'Reset your password'), '/MvcProjects/ResetPassword');
    await page.goto(reset);
    await assertAccessible(page);
    await page.getByLabel('New password').fill(SECOND_PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('heading', { name: 'Your password was changed' }).waitFor();

    await signIn(page, server.baseUrl, { email: EMAIL, password: FIRST_PASSWORD });
    await page.getByRole('alert').getByText('The e-mail address or password is not right.').waitFor();
    await signIn(page, server.baseUrl, { email: EMAIL, password: SECOND_PASSWORD });
    await page.getByRole('heading', { name: `Welcome, ${NAME}` }).waitFor();

    await page.goto(reset);
    await page.getByRole('heading', { name: 'This link cannot be used' }).waitFor();
    assert.equal(smtp.mailbox('nobody-here@example.org').length, 0);
    await context.close();
  });
});
