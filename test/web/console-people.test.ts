import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { totpCode } from '../../src/domain/accounts/mfa.ts';
import { type BackgroundWork, startBackgroundWork } from '../../src/domain/events/background-work.ts';
import { smtpMailer } from '../../src/domain/mail/smtp-mailer.ts';
import { changeReactions } from '../../src/domain/wiring/change-reactions.ts';
import { eventTasks } from '../../src/domain/wiring/event-tasks.ts';
import { systemClock } from '../../src/model/clock.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { mailTo, type SmtpCapture, startSmtpCapture } from '../support/smtp-capture.ts';

// The console's People area in a real browser, with mail through a real SMTP server: the agency admin invites a
// colleague, the mailed link sets the password, the colleague enrols in MFA with the QR code's secret and signs in with
// a code; then the admin gives them a role and an API key (shown once), and disables them.

const NAME = 'Ada Lovelace';
const EMAIL = 'ada@example.org';
const PASSWORD = 'analytical engine passphrase';
const CONSOLE = '/MvcProjects/Console';

describe('web: the console\'s people, organizations and credentials', () => {
  let smtp: SmtpCapture;
  let server: WebServer;
  let browser: Browser;
  let work: BackgroundWork;
  before(async () => {
    smtp = await startSmtpCapture();
    server = await startWebServer('sqlite', { APAS_SMTP_URL: smtp.url, APAS_MAIL_FROM: 'APAS <apas@example.org>' });
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

  async function admin(): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    await signIn(page, server.baseUrl, DEMO.admin, `${CONSOLE}/People`);
    await page.getByRole('heading', { name: 'People', level: 1 }).waitFor();
    return page;
  }

  it('invites by e-mail; the link sets the password; MFA enrolment with the QR code; sign-in with a code', async () => {
    const page = await admin();
    await assertAccessible(page);
    await page.getByLabel('Name', { exact: true }).fill(NAME);
    await page.getByLabel('E-mail address', { exact: true }).fill(EMAIL);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('The invitation was sent.').waitFor();
    await page.getByRole('heading', { name: NAME }).waitFor();
    await assertAccessible(page);
    await screenshot(page, 'console-person');

    const mail = await mailTo(smtp, EMAIL, /You are invited to/);
    const link = new RegExp(`${server.baseUrl.replaceAll('.', '\\.')}/MvcProjects/Welcome\\?token=[A-Za-z0-9_-]+`).exec(mail.text)?.[0];
    assert.ok(link, mail.text);
    const ada = await (await browser.newContext()).newPage();
    await ada.goto(link);
    await assertAccessible(ada);
    await ada.getByLabel('Password').fill(PASSWORD);
    await ada.getByRole('button', { name: 'Set my password' }).click();
    // On to sign-in, and from there to the enrolment page.
    await ada.getByLabel('E-mail address').fill(EMAIL);
    await ada.getByLabel('Password').fill(PASSWORD);
    await ada.getByRole('button', { name: 'Sign in' }).click();
    await ada.getByRole('heading', { name: 'Set up multi-factor authentication' }).waitFor();
    await assertAccessible(ada);
    await screenshot(ada, 'mfa-enrolment');
    const qr = ada.getByRole('img', { name: 'QR code of your multi-factor authentication secret' });
    assert.ok((await qr.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))) > 0, 'the QR code is shown (the CSP allows it)');
    const secret = (await ada.locator('#mfa-secret').innerText()).trim();
    await ada.getByLabel('6-digit code').fill('000000' === totpCode(secret, Date.now()) ? '111111' : '000000');
    await ada.getByRole('button', { name: 'Turn on multi-factor authentication' }).click();
    await ada.getByText('The code is not the current one').waitFor();
    await ada.getByLabel('6-digit code').fill(totpCode(secret, Date.now()));
    await ada.getByRole('button', { name: 'Turn on multi-factor authentication' }).click();
    await ada.getByRole('heading', { name: 'Multi-factor authentication is on' }).waitFor();

    // Enrolling ended the session: sign in again, with the password and then a code.
    await signIn(ada, server.baseUrl, { email: EMAIL, password: PASSWORD });
    await ada.getByLabel('One-time code').fill(totpCode(secret, Date.now() + 30_000));
    await ada.getByRole('button', { name: 'Continue' }).click();
    await ada.getByRole('heading', { name: `Welcome, ${NAME}` }).waitFor();

    // The link worked once.
    const again = await (await browser.newContext()).newPage();
    await again.goto(link);
    await again.getByRole('heading', { name: 'This link cannot be used' }).waitFor();

    await page.goto(`${server.baseUrl}${CONSOLE}/People?q=lovelace`);
    const row = page.getByRole('row', { name: new RegExp(NAME) });
    await row.getByText('Enrolled', { exact: true }).waitFor();
    assert.doesNotMatch(await row.innerText(), /Never/, 'the last sign-in is shown');
  });

  it('gives a role with sensitive data, creates an API key shown once, lists organizations, and disables', async () => {
    const page = await admin();
    await page.getByRole('searchbox', { name: 'Search by name or e-mail address' }).fill('ada@');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: NAME }).click();
    const program = (await server.store.programs.findProgram(server.programId))!;
    await page.getByLabel(`Role in ${program.name}`).selectOption('reader');
    await page.getByLabel(`May see sensitive data in ${program.name}`).check();
    await page.getByRole('button', { name: `Grant access to ${program.name}` }).click();
    await page.getByText('The grant was saved.').waitFor();
    await page.getByText('reader, with sensitive data').waitFor();
    const user = (await server.store.accounts.findUserByEmail(EMAIL))!;
    assert.deepEqual(await server.store.accounts.findGrant(user.id, program.id), { userId: user.id, programId: program.id, role: 'reader', sensitive: true });

    await page.goto(`${server.baseUrl}${CONSOLE}/Credentials/${user.id}`);
    await assertAccessible(page);
    await page.getByLabel('Name of a new API key').fill('reporting');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const key = await page.getByLabel('API key', { exact: true }).inputValue();
    assert.match(key, /^apas_/);
    await assertAccessible(page);
    await screenshot(page, 'console-credentials');
    await page.goto(`${server.baseUrl}${CONSOLE}/Credentials/${user.id}`);
    assert.ok(!(await page.content()).includes(key), 'never shown again');
    await page.getByRole('row', { name: /reporting/ }).getByText('Never').waitFor();

    await page.goto(`${server.baseUrl}${CONSOLE}/Organizations`);
    await assertAccessible(page);

    await page.goto(`${server.baseUrl}${CONSOLE}/People/${user.id}`);
    await page.getByRole('button', { name: 'Disable this user' }).click();
    await page.getByText('The user was disabled').waitFor();
    assert.equal((await server.store.accounts.findUserById(user.id))?.disabled, true);
  });
});
