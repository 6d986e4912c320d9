import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { hashSecret } from '../../src/domain/accounts/secrets.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS, programRows, user } from '../support/fixtures.ts';
import { assertValidXml, type HttpHarness, type Identity, type Who } from '../support/http-harness.ts';
import { seedProgramRoles } from '../support/program-roles.ts';
import { formToken, WebVisitor } from '../support/web-visitor.ts';
import { createProject, PROGRAM, sharedHarness } from './http-helpers.ts';

// The console's Webhooks, Audit trail and Mail areas over HTTP (src/web/console, src/domain/administration): who may
// open and post what, on both databases, every refused POST read back to show it changed nothing; the audit trail's
// filters and keyset cursor under concurrent inserts; the outbox's scope and retry.

const CONSOLE = '/MvcProjects/Console';
const OTHER = { id: 'USER0000OTHR', email: 'other.admin@example.org', password: 'other-agency-admin-password' };
const REFUSED: readonly (Who | 'otherAgencyAdmin')[] = ['editor', 'reader', 'applicant', 'outsider', 'otherAgencyAdmin'];

async function seedOtherAgency(h: HttpHarness): Promise<void> {
  const hash = await hashSecret(OTHER.password);
  await h.store.transaction(async (tx) => {
    await tx.accounts.insertAgency({ id: 'AGENCY000002', customId: 'other', name: 'Other Agency' }, 0);
    await tx.accounts.insertUser(user(OTHER.id, { agencyId: 'AGENCY000002', email: OTHER.email, agencyAdmin: true }), hash, 0);
  });
}

async function visitor(h: HttpHarness, who: Who | 'otherAgencyAdmin' | Identity): Promise<WebVisitor> {
  const v = new WebVisitor(h);
  const id = typeof who !== 'string' ? who : who === 'otherAgencyAdmin' ? OTHER : h.who[who];
  const res = await v.signIn(id.email, id.password);
  assert.equal(res.statusCode, 303, res.body.slice(0, 300));
  return v;
}

// Posts a form with a CSRF token of the visitor's session (from the start page, which everyone may open).
async function post(v: WebVisitor, path: string, form: Record<string, string | string[]>) {
  const token = formToken((await v.send('GET', '/MvcProjects/')).body);
  return v.send('POST', path, { _csrf: token, ...form });
}

forEachDialect('console operations', ({ dialect }) => {
  describe('webhooks', () => {
    const harness = sharedHarness(dialect, { APAS_WEBHOOK_ALLOW_INSECURE: 'true' });
    before(async () => seedOtherAgency(harness()));

    async function state(h: HttpHarness) {
      const subs = await h.store.webhooks.listSubscriptions(IDS.program);
      const deliveries = await Promise.all(subs.map((s) => h.store.webhooks.listAllDeliveries(s.id)));
      return { subs: subs.map((s) => ({ id: s.id, url: s.url, types: s.eventTypes, enabled: s.enabled, secret: s.secret })), deliveries: deliveries.flat().map((d) => `${d.eventType}:${d.status}`).sort() };
    }

    it('lets agency and program admins manage subscriptions; everyone else is refused and changes nothing', async () => {
      const h = harness();
      const admin = await visitor(h, 'admin');
      const created = await post(admin, `${CONSOLE}/Webhooks/Create`, { ProgramId: IDS.program, Url: 'http://127.0.0.1:9/hook', EventType: ['project.submitted', 'project.status_changed'] });
      assert.equal(created.statusCode, 200, created.body.slice(0, 500));
      const [sub] = (await state(h)).subs;
      assert.ok(sub);
      assert.deepEqual(sub.types, ['project.submitted', 'project.status_changed']);
      assert.ok(created.body.includes(sub.secret), 'the secret is shown once, on the answer of the creation');
      const page = await admin.send('GET', `${CONSOLE}/Webhooks?ProgramId=${IDS.program}`);
      assert.equal(page.statusCode, 200);
      assert.ok(!page.body.includes(sub.secret), 'and never again');

      // A failed delivery in the log, so that a redelivery let through would show.
      await h.store.transaction((tx) => tx.webhooks.insertDeliveries([{
        id: 'DELIVFAILED1', subscriptionId: sub.id, eventId: 'EVENTFAILED1', eventSeq: 1, eventType: 'project.submitted', projectId: 'PROJECTFAIL1', payload: '{}',
        status: 'failed', attempts: 11, createdAt: h.clock.now(), nextAttemptAt: 1, firstAttemptAt: 1, lastAttemptAt: 2, lastStatusCode: 500, lastError: 'HTTP 500', deliveredAt: null, redeliveryOf: null,
      }]));
      const ids = { ProgramId: IDS.program, SubscriptionId: sub.id };
      const actions: [string, Record<string, string | string[]>][] = [
        ['Create', { ProgramId: IDS.program, Url: 'http://127.0.0.1:9/other' }], ['EventTypes', { ...ids, EventType: 'project.created' }],
        ['Disable', ids], ['Enable', ids], ['Test', ids], ['RotateSecret', { ...ids, GraceHours: '1' }], ['Redeliver', { ...ids, DeliveryId: 'DELIVFAILED1' }],
        ['RedeliverFailed', ids], ['Delete', ids],
      ];
      const before = await state(h);
      for (const who of REFUSED) {
        const v = await visitor(h, who);
        assert.equal((await v.send('GET', `${CONSOLE}/Webhooks`)).statusCode, who === 'otherAgencyAdmin' ? 200 : 403, who);
        assert.equal((await v.send('GET', `${CONSOLE}/Webhooks/Subscription?ProgramId=${IDS.program}&SubscriptionId=${sub.id}`)).statusCode, 403, who);
        for (const [action, form] of actions) {
          const res = await post(v, `${CONSOLE}/Webhooks/${action}`, form);
          assert.equal(res.statusCode, 403, `${who} ${action}: ${res.body.slice(0, 200)}`);
        }
        assert.deepEqual(await state(h), before, `${who}: nothing changed`);
      }

      // A program admin (the built-in admin role) may do each; each is read back.
      const programAdmin = await visitor(h, 'programAdmin');
      const done = async (action: string, form: Record<string, string | string[]>, status = 303) => {
        const res = await post(programAdmin, `${CONSOLE}/Webhooks/${action}`, form);
        assert.equal(res.statusCode, status, `${action}: ${res.body.slice(0, 300)}`);
        return res;
      };
      await done('Test', ids);
      assert.deepEqual((await state(h)).deliveries, ['project.submitted:failed', 'webhook.test:pending']);
      const api = await h.request({ method: 'GET', url: `${PROGRAM}/Webhooks/${sub.id}/Deliveries`, as: 'admin' });
      assert.equal(api.statusCode, 200, api.body);
      assertValidXml(h, api);
      const element = /<WebhookDelivery [^>]*EventType="webhook\.test"[^>]*>/.exec(api.body)?.[0] ?? '';
      assert.ok(element, api.body);
      assert.doesNotMatch(element, /Sequence=|ProjectId=/, 'a test delivery has no sequence and no project');
      await done('EventTypes', { ...ids, EventType: 'project.created' });
      assert.deepEqual((await state(h)).subs[0]?.types, ['project.created']);
      await done('EventTypes', ids);
      assert.deepEqual((await state(h)).subs[0]?.types, [], 'none ticked: every type');
      await done('Disable', ids);
      assert.equal((await state(h)).subs[0]?.enabled, false);
      const refused = await done('Test', ids, 409);
      assert.match(refused.body, /disabled/);
      assert.deepEqual((await state(h)).deliveries, ['project.submitted:failed', 'webhook.test:pending'], 'no test is queued for a disabled subscription');
      await done('Enable', ids);
      assert.equal((await state(h)).subs[0]?.enabled, true);
      const oldSecret = (await state(h)).subs[0]!.secret;
      const rotated = await done('RotateSecret', { ...ids, GraceHours: '2' }, 200);
      const stored = (await h.store.webhooks.listSubscriptions(IDS.program))[0]!;
      assert.notEqual(stored.secret, oldSecret);
      assert.equal(stored.previousSecret, oldSecret, 'the old secret signs too during the grace period');
      assert.equal(stored.previousSecretUntil, h.clock.now() + 2 * 3_600_000);
      assert.ok(rotated.body.includes(stored.secret), 'the new secret is shown once');
      const refusedGrace = await done('RotateSecret', { ...ids, GraceHours: '500' }, 400);
      assert.match(refusedGrace.body, /168/);
      assert.equal((await h.store.webhooks.listSubscriptions(IDS.program))[0]?.secret, stored.secret, 'a refused rotation keeps the secret');
      const test = (await h.store.webhooks.listAllDeliveries(sub.id)).find((d) => d.eventType === 'webhook.test');
      await done('Redeliver', { ...ids, DeliveryId: test!.id });
      assert.deepEqual((await state(h)).deliveries, ['project.submitted:failed', 'webhook.test:pending', 'webhook.test:pending']);
      await done('RedeliverFailed', ids);
      assert.deepEqual((await state(h)).deliveries, ['project.submitted:failed', 'project.submitted:pending', 'webhook.test:pending', 'webhook.test:pending']);
      const missing = await done('Redeliver', { ...ids, DeliveryId: 'NOSUCHDELIVR' }, 404);
      assert.match(missing.body, /Page not found/);
      const log = await programAdmin.send('GET', `${CONSOLE}/Webhooks/Subscription?ProgramId=${IDS.program}&SubscriptionId=${sub.id}`);
      assert.equal(log.statusCode, 200);
      assert.equal(log.body.match(/webhook\.test/g)?.length, 2, 'the delivery log lists the test and its redelivery');
      const audit = (await h.store.audit.list({ limit: 100 })).filter((r) => r.action.startsWith('webhook.')).map((r) => `${r.action}:${r.actorId}`);
      assert.ok(audit.includes(`webhook.test:${h.who.programAdmin.id}`), audit.join());
      await done('Delete', ids);
      assert.deepEqual((await state(h)).subs, []);
    });

    it('refuses a target that is not http(s) on the page, creating nothing', async () => {
      const h = harness();
      const admin = await visitor(h, 'admin');
      const res = await post(admin, `${CONSOLE}/Webhooks/Create`, { ProgramId: IDS.program, Url: 'ftp://example.org/hook' });
      assert.equal(res.statusCode, 400, res.body.slice(0, 300));
      assert.match(res.body, /role="alert"/);
      assert.equal((await h.store.webhooks.listSubscriptions(IDS.program)).length, 0);
    });
  });

  describe('webhooks for roles of the program file', () => {
    const harness = sharedHarness(dialect, { APAS_WEBHOOK_ALLOW_INSECURE: 'true' });

    it('needs both administerProgram and manageWebhooks: either alone is refused and changes nothing', async () => {
      const h = harness();
      const roles = await seedProgramRoles(h.store, programRows(), [
        { customId: 'hooks', privileges: ['readProjects', 'manageWebhooks'] },
        { customId: 'steward', privileges: ['readProjects', 'administerProgram'] },
      ]);
      const admin = await visitor(h, 'admin');
      assert.equal((await post(admin, `${CONSOLE}/Webhooks/Create`, { ProgramId: IDS.program, Url: 'http://127.0.0.1:9/hook' })).statusCode, 200);
      const [sub] = await h.store.webhooks.listSubscriptions(IDS.program);
      const ids = { ProgramId: IDS.program, SubscriptionId: sub!.id };
      // The API lets the hooks role manage the program's webhooks; the console is for those who administer it.
      const api = await h.request({ method: 'GET', url: `${PROGRAM}/Webhooks`, as: null, headers: { authorization: `Basic ${Buffer.from(`${roles.hooks!.email}:${roles.hooks!.password}`).toString('base64')}`, 'x-apikey': roles.hooks!.apiKey } });
      assert.equal(api.statusCode, 200, api.body);
      const hooks = await visitor(h, roles.hooks!);
      assert.equal((await hooks.send('GET', `${CONSOLE}/Webhooks`)).statusCode, 403);
      assert.equal((await post(hooks, `${CONSOLE}/Webhooks/Test`, ids)).statusCode, 403);
      const steward = await visitor(h, roles.steward!);
      const page = await steward.send('GET', `${CONSOLE}/Webhooks`);
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /You manage the webhooks of no program/);
      assert.doesNotMatch(page.body, /Create subscription/);
      assert.equal((await post(steward, `${CONSOLE}/Webhooks/Test`, ids)).statusCode, 403);
      assert.equal((await post(steward, `${CONSOLE}/Webhooks/Delete`, ids)).statusCode, 403);
      assert.deepEqual(await h.store.webhooks.listAllDeliveries(sub!.id), [], 'no test was queued');
      assert.equal((await h.store.webhooks.listSubscriptions(IDS.program)).length, 1, 'nothing was deleted');
    });
  });

  describe('the header link for roles of the program file', () => {
    const harness = sharedHarness(dialect);

    it('links a role that holds administerProgram alone to the console, and not one without it', async () => {
      const h = harness();
      const roles = await seedProgramRoles(h.store, programRows(), [
        { customId: 'keeper', privileges: ['administerProgram'] },
        { customId: 'looker', privileges: ['readProjects'] },
      ]);
      const keeper = await visitor(h, roles.keeper!);
      assert.equal((await keeper.send('GET', CONSOLE)).statusCode, 200);
      assert.match((await keeper.send('GET', '/MvcProjects/')).body, /href="\/MvcProjects\/Console"><span>Administration</);
      const looker = await visitor(h, roles.looker!);
      assert.equal((await looker.send('GET', CONSOLE)).statusCode, 403);
      assert.doesNotMatch((await looker.send('GET', '/MvcProjects/')).body, /MvcProjects\/Console/);
    });
  });

  describe('audit trail', () => {
    const harness = sharedHarness(dialect);
    before(async () => seedOtherAgency(harness()));

    // Rows of the fixture program (n = 0…129, every third sharing its time with the next), one of the agency with no
    // program, and one of the other agency.
    const T = Date.UTC(2026, 2, 10, 12);
    before(async () => {
      const h = harness();
      await h.store.transaction(async (tx) => {
        for (let n = 0; n < 130; n++) {
          const actorId = n % 2 === 0 ? h.who.admin.id : h.who.programAdmin.id;
          await tx.audit.write({ action: n % 5 === 0 ? 'trail.special' : 'trail.plain', actorId, agencyId: IDS.agency, programId: IDS.program, projectId: n === 7 ? 'PROJECTSEVEN' : null, detail: { n } }, T + Math.floor(n / 2) * 60_000, `TRAIL${String(n).padStart(7, '0')}`);
        }
        await tx.audit.write({ action: 'trail.agency', actorId: h.who.admin.id, agencyId: IDS.agency, detail: { n: 1000 } }, T, 'TRAILAGENCY1');
        await tx.audit.write({ action: 'trail.other', actorId: OTHER.id, agencyId: 'AGENCY000002', detail: { n: 2000 } }, T, 'TRAILOTHER01');
      });
    });

    function ns(body: string): number[] {
      return [...body.matchAll(/\{&quot;n&quot;:(\d+)\}/g)].map((m) => Number(m[1]));
    }
    function next(body: string): string | null {
      const m = /href="([^"]*cursor=[^"]+)"[^>]*>Older changes/.exec(body);
      return m ? m[1]!.replace(/&amp;/g, '&') : null;
    }
    async function all(v: WebVisitor, query: string, meanwhile?: () => Promise<void>): Promise<number[]> {
      const seen: number[] = [];
      let url: string | null = `${CONSOLE}/Audit?${query}`;
      while (url) {
        const res = await v.send('GET', url);
        assert.equal(res.statusCode, 200, res.body.slice(0, 300));
        seen.push(...ns(res.body));
        url = next(res.body);
        await meanwhile?.();
      }
      return seen;
    }
    const expected = (keep: (n: number) => boolean) => Array.from({ length: 130 }, (_, n) => n).filter(keep)
      .sort((a, b) => Math.floor(b / 2) - Math.floor(a / 2) || b - a);

    it('pages newest first by cursor, every row once, while rows are added', async () => {
      const h = harness();
      const admin = await visitor(h, 'admin');
      let added = 0;
      const seen = await all(admin, 'Action=trail.plain', async () => {
        // A newer row written between pages neither shifts nor repeats the rows of the next page.
        added++;
        await h.store.transaction((tx) => tx.audit.write({ action: 'trail.plain', actorId: null, agencyId: IDS.agency, programId: IDS.program, detail: { n: 5000 + added } }, T + 10_000_000 + added, `TRAILNEW${String(added).padStart(4, '0')}`));
      });
      assert.ok(added >= 2, 'more than one page');
      assert.deepEqual(seen, expected((n) => n % 5 !== 0));
    });

    it('filters by user, project, action family and days; scopes program admins and other agencies', async () => {
      const h = harness();
      const admin = await visitor(h, 'admin');
      const filtered = (await all(admin, `User=${encodeURIComponent(h.who.programAdmin.email)}&Action=trail.special`)).filter((n) => n < 5000);
      assert.deepEqual(filtered, expected((n) => n % 2 === 1 && n % 5 === 0));
      assert.deepEqual(await all(admin, 'Project=PROJECTSEVEN'), [7]);
      assert.deepEqual((await all(admin, 'Action=trail')).filter((n) => n < 5000).length, 131, 'the family: every trail.* row of the agency');
      assert.deepEqual(await all(admin, 'Action=trail.agency'), [1000]);
      assert.deepEqual(await all(admin, 'From=2026-03-12&To=2026-03-12'), [], 'days after the rows: none');
      assert.equal((await all(admin, 'Action=trail&From=2026-03-10&To=2026-03-10')).filter((n) => n < 5000).length, 131);
      const programAdmin = await visitor(h, 'programAdmin');
      const theirs = await all(programAdmin, 'Action=trail');
      assert.ok(!theirs.includes(1000) && !theirs.includes(2000), 'no agency row without the program, no other agency');
      assert.equal(theirs.filter((n) => n < 5000).length, 130);
      const other = await visitor(h, 'otherAgencyAdmin');
      assert.deepEqual(await all(other, 'Action=trail'), [2000]);
      for (const who of ['editor', 'reader', 'applicant', 'outsider'] as const) {
        const v = await visitor(h, who);
        assert.equal((await v.send('GET', `${CONSOLE}/Audit`)).statusCode, 403, who);
        assert.equal((await v.send('GET', `${CONSOLE}/Audit?format=csv`)).statusCode, 403, who);
      }
      assert.equal((await admin.send('GET', `${CONSOLE}/Audit?cursor=bogus`)).statusCode, 400);
      assert.equal((await admin.send('GET', `${CONSOLE}/Audit?From=2026-02-30`)).statusCode, 400);
      assert.equal((await admin.send('GET', `${CONSOLE}/Audit?From=2026-03-11&To=2026-03-10`)).statusCode, 400);
    });

    it('downloads the filtered trail as CSV, newest first', async () => {
      const h = harness();
      const admin = await visitor(h, 'admin');
      const res = await admin.send('GET', `${CONSOLE}/Audit?Action=trail.special&format=csv`);
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/csv/);
      assert.match(String(res.headers['content-disposition']), /audit-trail\.csv/);
      const lines = res.body.trimEnd().split('\r\n');
      assert.equal(lines[0], 'Time,User,Action,Program,Project,Request,Id,Detail');
      assert.deepEqual(lines.slice(1).map((l) => Number(/n"":(\d+)/.exec(l)?.[1])), expected((n) => n % 5 === 0));
      assert.match(lines[1]!, new RegExp(`^2026-03-1\\d[^,]*,${h.who.admin.email}|,${h.who.programAdmin.email},`));
    });
  });

  describe('mail outbox', () => {
    const harness = sharedHarness(dialect);
    before(async () => seedOtherAgency(harness()));

    async function queue(h: HttpHarness, id: string, fields: { to: string; eventId: string | null; projectId?: string; failed: boolean }) {
      await h.store.transaction(async (tx) => {
        await tx.mail.enqueueMail({ id, kind: 'statusChanged', eventId: fields.eventId, to: fields.to, subject: `Subject ${id}`, text: 't', html: '<p>t</p>', createdAt: h.clock.advance(), projectId: fields.projectId ?? null });
        if (fields.failed) await tx.mail.markMailFailed(id, 40, `550 mailbox of ${id} unavailable`, null);
      });
    }
    const status = async (h: HttpHarness, id: string) => (await h.store.mail.findMail(id))?.status;

    it('shows each admin the mails in their scope, and only an admin of the mail retries it', async () => {
      const h = harness();
      const projectId = await createProject(h);
      await queue(h, 'MAILPROJECT1', { to: h.who.applicant.email, eventId: 'EVENTPROJ001', projectId, failed: true });
      await queue(h, 'MAILACCOUNT1', { to: h.who.applicant.email, eventId: null, failed: true });
      await queue(h, 'MAILSTRANGER', { to: 'nobody@example.net', eventId: null, failed: false });
      await queue(h, 'MAILOTHERAG1', { to: OTHER.email, eventId: 'EVENTOTHER01', failed: true });
      const listed = async (v: WebVisitor, query = '') => {
        const res = await v.send('GET', `${CONSOLE}/Mail${query}`);
        assert.equal(res.statusCode, 200, res.body.slice(0, 300));
        return [...res.body.matchAll(/<td data-label="Subject">Subject (MAIL\w+)/g)].map((m) => m[1]);
      };
      const admin = await visitor(h, 'admin');
      assert.deepEqual(await listed(admin), ['MAILACCOUNT1', 'MAILPROJECT1']);
      assert.deepEqual(await listed(admin, '?Status=sent'), []);
      assert.deepEqual(await listed(admin, '?Status=failed'), ['MAILACCOUNT1', 'MAILPROJECT1']);
      assert.equal((await admin.send('GET', `${CONSOLE}/Mail?Status=lost`)).statusCode, 400);
      const programAdmin = await visitor(h, 'programAdmin');
      assert.deepEqual(await listed(programAdmin), ['MAILPROJECT1']);
      const other = await visitor(h, 'otherAgencyAdmin');
      assert.deepEqual(await listed(other), ['MAILOTHERAG1']);

      for (const who of ['editor', 'reader', 'applicant', 'outsider'] as const) {
        const v = await visitor(h, who);
        assert.equal((await v.send('GET', `${CONSOLE}/Mail`)).statusCode, 403, who);
        assert.equal((await post(v, `${CONSOLE}/Mail/Retry`, { MailId: 'MAILPROJECT1' })).statusCode, 403, who);
      }
      assert.equal((await post(other, `${CONSOLE}/Mail/Retry`, { MailId: 'MAILPROJECT1' })).statusCode, 404);
      assert.equal((await post(programAdmin, `${CONSOLE}/Mail/Retry`, { MailId: 'MAILACCOUNT1' })).statusCode, 404, 'not a mail of their programs');
      const account = await post(admin, `${CONSOLE}/Mail/Retry`, { MailId: 'MAILACCOUNT1' });
      assert.equal(account.statusCode, 409, 'an account mail is not sent again');
      assert.match(account.body, /account mail/);
      assert.equal(await status(h, 'MAILPROJECT1'), 'failed');
      assert.equal(await status(h, 'MAILACCOUNT1'), 'failed');
      assert.equal((await h.store.audit.list({ action: 'mail.retry' })).length, 0, 'refusals write no audit row');

      const retried = await post(programAdmin, `${CONSOLE}/Mail/Retry`, { MailId: 'MAILPROJECT1' });
      assert.equal(retried.statusCode, 303);
      const mail = await h.store.mail.findMail('MAILPROJECT1');
      assert.equal(mail?.status, 'pending');
      assert.equal(mail?.attempts, 0);
      const [row] = await h.store.audit.list({ action: 'mail.retry' });
      assert.equal(row?.actorId, h.who.programAdmin.id);
      assert.equal(row?.agencyId, IDS.agency);
      assert.equal((await post(programAdmin, `${CONSOLE}/Mail/Retry`, { MailId: 'MAILPROJECT1' })).statusCode, 409, 'no longer failed');
    });
  });
});
