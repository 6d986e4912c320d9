import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { sendDueMail } from '../../src/domain/mail/mail-sender.ts';
import { smtpMailer } from '../../src/domain/mail/smtp-mailer.ts';
import { systemClock } from '../../src/model/clock.ts';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';
import { type SmtpCapture, startSmtpCapture } from '../support/smtp-capture.ts';

// The console's Mail area in a real browser: a notification mail whose mail server refuses connections fails (a real
// SMTP attempt, one attempt allowed here), the admin finds it among the failed mails with its error, sends it again,
// and once the server is back the next round delivers it.

describe('Console: mail outbox in the browser', () => {
  let server: WebServer;
  let browser: Browser;
  let smtp: SmtpCapture;
  before(async () => {
    server = await startWebServer('sqlite');
    browser = await launchBrowser();
    smtp = await startSmtpCapture();
  });
  after(async () => {
    await browser?.close();
    await smtp?.stop().catch(() => undefined);
    await server?.close();
  });

  it('shows a failed mail with its error and sends it again', async () => {
    await server.store.transaction((tx) => tx.mail.enqueueMail({
      id: 'MAILOUTAGE01', kind: 'statusChanged', eventId: 'EVENTOUTAGE1', to: DEMO.applicant.email, subject: 'Your application moved on',
      text: 'Moved.', html: '<p>Moved.</p>', createdAt: Date.now(),
    }));
    await smtp.stop();
    const mailer = smtpMailer(smtp.url, 'apas@demo.apas.local');
    const policy = { batch: 20, leaseMs: 60_000, maxAttempts: 1, firstDelayMs: 1000, maxDelayMs: 1000 };
    await sendDueMail({ store: server.store, clock: systemClock, mailer }, policy);
    assert.equal((await server.store.mail.findMail('MAILOUTAGE01'))?.status, 'failed');

    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, server.baseUrl, DEMO.admin);
    await page.goto(`${server.baseUrl}/MvcProjects/Console/Mail`);
    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('button', { name: 'Show' }).click();
    const table = page.getByRole('table', { name: 'Mails, newest first' });
    const row = await table.textContent() ?? '';
    assert.match(row, /applicant@demo\.apas\.local.*Your application moved on.*failed.*1.*ECONNREFUSED/s);
    await assertAccessible(page);
    await screenshot(page, 'console-mail');
    await page.getByRole('button', { name: `Send again: Your application moved on to ${DEMO.applicant.email}` }).click();
    assert.match(await page.getByRole('status').textContent() ?? '', /queued again/);
    assert.equal((await server.store.mail.findMail('MAILOUTAGE01'))?.status, 'pending');

    await smtp.start();
    await sendDueMail({ store: server.store, clock: systemClock, mailer }, policy);
    mailer.close();
    assert.equal(smtp.mailbox(DEMO.applicant.email).length, 1);
    await page.goto(`${server.baseUrl}/MvcProjects/Console/Mail?Status=sent`);
    assert.match(await page.getByRole('table', { name: 'Mails, newest first' }).textContent() ?? '', /Your application moved on.*sent/s);
    await assertAccessible(page);
  });
});
