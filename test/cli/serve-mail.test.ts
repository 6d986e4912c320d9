import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { freePort, type ServerProcess, startServer } from '../../scripts/faults/server-process.ts';
import { DEMO_CREDENTIALS } from '../../src/domain/programs/demo.ts';
import { type SmtpCapture, startSmtpCapture } from '../support/smtp-capture.ts';

// `apas serve` as operators run it: the log says whether mail is on, and the server's own background work turns a
// change into a mail on the SMTP server of APAS_SMTP_URL.

const NS = 'http://service.powerclerk.com/api/v1/';
const who = (role: string) => DEMO_CREDENTIALS.find((c) => c.role === role)!;
const headers = (role: string) => ({
  authorization: `Basic ${Buffer.from(`${who(role).email}:${who(role).password}`).toString('base64')}`, 'x-apikey': who(role).apiKey,
});

let dir: string;
let smtp: SmtpCapture;
const servers: ServerProcess[] = [];

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'apas-serve-mail-'));
  smtp = await startSmtpCapture();
});
after(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await smtp.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('without APAS_SMTP_URL the log says mail is off', async () => {
  const server = await startServer({ databaseUrl: path.join(dir, 'off.db'), env: { APAS_LOG_LEVEL: 'info' }, name: 'mail off' });
  servers.push(server);
  await server.stop();
  assert.match(server.log(), /mail is off \(APAS_SMTP_URL is not set\)/);
});

test('with APAS_SMTP_URL the server mails a staff member the project assigned to them, at once after the change', async () => {
  // The interval is ten minutes: only the wake-up after the change can send the mail within the test's time.
  const server = await startServer({
    databaseUrl: path.join(dir, 'on.db'), name: 'mail on',
    env: { APAS_LOG_LEVEL: 'info', APAS_SMTP_URL: smtp.url, APAS_MAIL_FROM: 'APAS <apas@example.org>', APAS_MAIL_INTERVAL_MS: '600000' },
  });
  servers.push(server);
  const api = `${server.origin}/services/v2/Programs/RES-SOLAR`;
  const created = await fetch(`${api}/NewProject`, { method: 'POST', headers: headers('applicant') });
  assert.equal(created.status, 200, await created.clone().text());
  const projectId = /ProjectId="([^"]+)"/.exec(await created.text())?.[1];
  assert.ok(projectId);
  const assigned = await fetch(`${api}/Projects/${projectId}/Assignee`, {
    method: 'POST', headers: { ...headers('admin'), 'content-type': 'application/xml' },
    body: `<SetAssigneeRequest xmlns="${NS}"><AssigneeEmail>${who('reviewer').email}</AssigneeEmail></SetAssigneeRequest>`,
  });
  assert.equal(assigned.status, 200, await assigned.text());
  await smtp.waitFor(1, 15_000);
  const [mail] = smtp.messages;
  assert.equal(mail?.to, who('reviewer').email);
  assert.equal(mail?.from, 'apas@example.org');
  assert.match(mail?.subject ?? '', /was assigned to you$/);
  assert.ok(mail?.text.includes(`${server.origin}/MvcProjects/LandingPage?`), mail?.text);
  assert.match(server.log(), /mail is on/);
});

test('a mail that cannot be sent is logged at warn with its id and cause, and counted on /metrics', async () => {
  // A mail server that refuses connections: a port that was free a moment ago, now closed.
  const port = await freePort();
  const server = await startServer({
    databaseUrl: path.join(dir, 'refused.db'), name: 'mail refused',
    env: { APAS_LOG_LEVEL: 'info', APAS_SMTP_URL: `smtp://127.0.0.1:${port}`, APAS_MAIL_INTERVAL_MS: '600000' },
  });
  servers.push(server);
  const api = `${server.origin}/services/v2/Programs/RES-SOLAR`;
  const created = await fetch(`${api}/NewProject`, { method: 'POST', headers: headers('applicant') });
  const projectId = /ProjectId="([^"]+)"/.exec(await created.text())?.[1];
  assert.ok(projectId);
  const assigned = await fetch(`${api}/Projects/${projectId}/Assignee`, {
    method: 'POST', headers: { ...headers('admin'), 'content-type': 'application/xml' },
    body: `<SetAssigneeRequest xmlns="${NS}"><AssigneeEmail>${who('reviewer').email}</AssigneeEmail></SetAssigneeRequest>`,
  });
  assert.equal(assigned.status, 200, await assigned.text());
  const end = Date.now() + 20_000;
  let warning: Record<string, unknown> | undefined;
  while (!warning && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    warning = server.log().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => typeof l.mailId === 'string');
  }
  assert.ok(warning, `no failed mail in the log:\n${server.log()}`);
  assert.equal(warning.level, 40, 'logged at warn');
  assert.match(String(warning.error), /ECONNREFUSED|connect/i);
  assert.equal(warning.attempts, 1);
  const metrics = await (await fetch(`${server.origin}/metrics`)).text();
  assert.match(metrics, /^apas_mail_pending 1$/m);
  assert.match(metrics, /^apas_mail_failing 1$/m);
  assert.match(metrics, /^apas_mail_failed 0$/m);
  assert.match(metrics, /^apas_backlog_read_ok 1$/m);
  assert.match(metrics, /^apas_webhook_deliveries_pending 0$/m);
});

