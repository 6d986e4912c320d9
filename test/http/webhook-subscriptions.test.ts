import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpWebhookSender } from '../../src/domain/webhooks/webhook-sender.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, authHeaders, type HttpHarness, NS } from '../support/http-harness.ts';
import { ADMIN_ONLY, assertRow, createProject, rowLabel, send, sharedHarness } from './http-helpers.ts';
import { createRequest, INSECURE, manualWorker, startReceiver, subscribe, WEBHOOKS } from './webhook-helpers.ts';


/** Everything a refused webhook request could have changed: the subscriptions (secrets included), their deliveries, the audit log. */
async function webhookState(h: HttpHarness) {
  const subscriptions = await h.store.webhooks.listSubscriptions(IDS.program);
  const deliveries = await Promise.all(subscriptions.map((s) => h.store.webhooks.listAllDeliveries(s.id)));
  return { subscriptions, deliveries, audit: await h.store.audit.list({ limit: 1000 }) };
}

function setRequest(attrsText: string, types?: string[]): string {
  const list = types === undefined ? '' : `<EventTypes>${types.map((t) => `<EventType>${t}</EventType>`).join('')}</EventTypes>`;
  return `<SetWebhookSubscriptionRequest xmlns="${NS}" ${attrsText}>${list}</SetWebhookSubscriptionRequest>`;
}

forEachDialect('webhook subscriptions', ({ dialect }) => {
  describe('managed by the program\'s admins only', () => {
    const harness = sharedHarness(dialect, INSECURE);

    it('CreateWebhookSubscription answers the secret once; no other answer, JSON or XML, nor the audit log shows it', async () => {
      const h = harness();
      const res = await h.request({ method: 'POST', url: WEBHOOKS, as: 'programAdmin', body: createRequest('http://127.0.0.1:9/hook', ['project.created', 'project.submitted']) });
      assertValidXml(h, res, 'CreateWebhookSubscriptionResponse');
      const secret = attr(res.body, 'CreateWebhookSubscriptionResponse', 'Secret')!;
      assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      const id = attr(res.body, 'WebhookSubscription', 'SubscriptionId')!;
      assert.deepEqual([attr(res.body, 'WebhookSubscription', 'Enabled'), attr(res.body, 'WebhookSubscription', 'CreatedBy')], ['true', h.who.programAdmin.email]);
      assert.deepEqual([...res.body.matchAll(/<EventType>([^<]+)<\/EventType>/g)].map((m) => m[1]), ['project.created', 'project.submitted']);
      for (const url of [WEBHOOKS, `${WEBHOOKS}/${id}`]) {
        for (const accept of ['application/xml', 'application/json']) {
          const got = await h.app.inject({ method: 'GET', url, headers: { ...authHeaders(h.who.admin), accept } });
          assert.equal(got.statusCode, 200, got.body);
          assert.ok(got.body.includes(id));
          assert.ok(!got.body.includes(secret) && !/secret/i.test(got.body), `${url} (${accept}) shows no secret`);
        }
      }
      const audit = await h.store.audit.list({ action: 'webhook.create' });
      assert.equal(audit.length, 1);
      assert.ok(!JSON.stringify(audit).includes(secret), 'the audit row holds no secret');
      assert.equal(audit[0]!.actorId, h.who.programAdmin.id);
    });

    it('takes and answers JSON too', async () => {
      const h = harness();
      const res = await h.app.inject({
        method: 'POST', url: WEBHOOKS, payload: JSON.stringify({ Url: 'http://127.0.0.1:9/json', EventTypes: { EventType: ['attachment.uploaded'] } }),
        headers: { ...authHeaders(h.who.admin), 'content-type': 'application/json', accept: 'application/json' },
      });
      assert.equal(res.statusCode, 200, res.body);
      const body = JSON.parse(res.body) as { Secret: string; WebhookSubscription: { Url: string; EventTypes: { EventType: string[] } } };
      assert.match(body.Secret, /^whsec_/);
      assert.deepEqual([body.WebhookSubscription.Url, body.WebhookSubscription.EventTypes.EventType], ['http://127.0.0.1:9/json', ['attachment.uploaded']]);
    });

    for (const row of ADMIN_ONLY) {
      it(`every webhook operation: ${rowLabel(row)}; a refused one changes nothing`, async () => {
        const h = harness();
        const { id } = await subscribe(h, 'http://127.0.0.1:9/matrix');
        await h.store.transaction((tx) => tx.webhooks.insertDeliveries([{
          id: `DLV${id.slice(3)}`, subscriptionId: id, eventId: 'EVENT0000001', eventSeq: 1, eventType: 'project.created', projectId: 'PROJECT00001', payload: '{}',
          status: 'delivered', attempts: 1, createdAt: 1, nextAttemptAt: 1, firstAttemptAt: 1, lastAttemptAt: 1, lastStatusCode: 200, lastError: null,
          deliveredAt: 1, redeliveryOf: null,
        }]));
        const before = await webhookState(h);
        const ops = [
          { method: 'POST', url: WEBHOOKS, body: createRequest('http://127.0.0.1:9/other'), schema: 'CreateWebhookSubscriptionResponse' },
          { method: 'GET', url: WEBHOOKS, schema: 'WebhookSubscriptionsResponse' },
          { method: 'GET', url: `${WEBHOOKS}/${id}`, schema: 'WebhookSubscriptionResponse' },
          { method: 'POST', url: `${WEBHOOKS}/${id}`, body: setRequest('Enabled="false"'), schema: 'WebhookSubscriptionResponse' },
          { method: 'GET', url: `${WEBHOOKS}/${id}/Deliveries`, schema: 'WebhookDeliveriesResponse' },
          { method: 'POST', url: `${WEBHOOKS}/${id}/Deliveries/DLV${id.slice(3)}/Redeliver`, schema: 'WebhookDeliveryResponse' },
        ];
        for (const op of ops) {
          const res = await send(h, row.who, op);
          if (row.status === 200) assert.equal(res.statusCode, 200, `${op.method} ${op.url}: ${res.body}`);
          else assertRow(h, res, row, op.schema);
        }
        const del = await send(h, row.who, { method: 'DELETE', url: `${WEBHOOKS}/${id}` });
        if (row.status === 200) assert.equal(del.statusCode, 204, del.body);
        else {
          assertRow(h, del, row);
          assert.deepEqual(await webhookState(h), before, 'refused requests changed nothing');
        }
      });
    }

    it('SetWebhookSubscription changes only what it is given; DeleteWebhookSubscription removes it and its log', async () => {
      const h = harness();
      const { id } = await subscribe(h, 'http://127.0.0.1:9/a', ['project.created']);
      h.clock.advance();
      let res = await h.request({ method: 'POST', url: `${WEBHOOKS}/${id}`, body: setRequest('Url="http://127.0.0.1:9/b"') });
      assertValidXml(h, res, 'WebhookSubscriptionResponse');
      assert.equal(attr(res.body, 'WebhookSubscription', 'Url'), 'http://127.0.0.1:9/b');
      assert.ok(res.body.includes('<EventType>project.created</EventType>'), 'the types stay');
      h.clock.advance();
      res = await h.request({ method: 'POST', url: `${WEBHOOKS}/${id}`, body: setRequest('Enabled="false"', []) });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual([attr(res.body, 'WebhookSubscription', 'Enabled'), attr(res.body, 'WebhookSubscription', 'Url')], ['false', 'http://127.0.0.1:9/b']);
      assert.match(attr(res.body, 'WebhookSubscription', 'DisabledReason')!, new RegExp(`Disabled by ${h.who.admin.email}`));
      assert.ok(!res.body.includes('<EventType>'), 'an empty EventTypes means every type');
      const before = await webhookState(h);
      assertError(h, await h.request({ method: 'POST', url: `${WEBHOOKS}/${id}`, body: setRequest('Enabled="maybe"') }), 400, 'INVALID_REQUEST');
      assertError(h, await h.request({ method: 'POST', url: `${WEBHOOKS}/${id}`, body: setRequest('', ['project.nonsense']) }), 400, 'INVALID_REQUEST');
      assertError(h, await h.request({ method: 'POST', url: `${WEBHOOKS}/${id}`, body: setRequest('Url="ftp://127.0.0.1/x"') }), 400, 'INVALID_REQUEST');
      assertError(h, await h.request({ method: 'POST', url: `${WEBHOOKS}/NOSUCHSUBSCR`, body: setRequest('Enabled="true"') }), 404, 'NOT_FOUND');
      assert.deepEqual(await webhookState(h), before, 'refused changes changed nothing');
      h.clock.advance();
      const del = await h.request({ method: 'DELETE', url: `${WEBHOOKS}/${id}` });
      assert.equal(del.statusCode, 204, del.body);
      assertError(h, await h.request({ method: 'GET', url: `${WEBHOOKS}/${id}` }), 404, 'NOT_FOUND');
      assertError(h, await h.request({ method: 'GET', url: `${WEBHOOKS}/${id}/Deliveries` }), 404, 'NOT_FOUND');
      assert.deepEqual((await h.store.audit.list({ limit: 1000 })).filter((a) => a.action.startsWith('webhook.') && a.detail?.subscriptionId === id).map((a) => a.action),
        ['webhook.delete', 'webhook.update', 'webhook.update', 'webhook.create']);
    });

    it('fans out only to enabled subscriptions of the event\'s program whose types match', async () => {
      const h = harness();
      for (const s of await h.store.webhooks.listSubscriptions(IDS.program)) await h.request({ method: 'DELETE', url: `${WEBHOOKS}/${s.id}` });
      const r = await startReceiver();
      try {
        const all = await subscribe(h, r.url);
        const created = await subscribe(h, r.url, ['project.created']);
        const submitted = await subscribe(h, r.url, ['project.submitted']);
        const off = await subscribe(h, r.url);
        await h.request({ method: 'POST', url: `${WEBHOOKS}/${off.id}`, body: setRequest('Enabled="false"') });
        await createProject(h);
        await manualWorker(h).round();
        const count = async (id: string) => (await h.store.webhooks.listAllDeliveries(id)).length;
        assert.deepEqual([await count(all.id), await count(created.id), await count(submitted.id), await count(off.id)], [1, 1, 0, 0]);
        assert.equal(r.received.length, 2);
      } finally {
        await r.close();
      }
    });
  });

  describe('targets: https to public addresses only, unless APAS_WEBHOOK_ALLOW_INSECURE', () => {
    const harness = sharedHarness(dialect);

    const refused: [string, number, string][] = [
      ['http://example.org/hook', 422, 'WEBHOOK_TARGET_NOT_ALLOWED'],
      ['https://127.0.0.1/hook', 422, 'WEBHOOK_TARGET_NOT_ALLOWED'],
      ['https://localhost/hook', 422, 'WEBHOOK_TARGET_NOT_ALLOWED'],
      ['https://10.1.2.3/hook', 422, 'WEBHOOK_TARGET_NOT_ALLOWED'],
      ['https://172.16.0.1/hook', 422, 'WEBHOOK_TARGET_NOT_ALLOWED'],
      ['https://192.168.1.1/hook', 422, 'WEBHOOK_TARGET_NOT_ALLOWED'],
      ['https://169.254.169.254/latest/meta-data', 422, 'WEBHOOK_TARGET_NOT_ALLOWED'],
      ['https://100.64.0.1/hook', 422, 'WEBHOOK_TARGET_NOT_ALLOWED'],
      ['https://0.0.0.0/hook', 422, 'WEBHOOK_TARGET_NOT_ALLOWED'],
      ['https://[::1]/hook', 422, 'WEBHOOK_TARGET_NOT_ALLOWED'],
      ['https://[fd00::1]/hook', 422, 'WEBHOOK_TARGET_NOT_ALLOWED'],
      ['https://[fe80::1]/hook', 422, 'WEBHOOK_TARGET_NOT_ALLOWED'],
      ['https://[::ffff:127.0.0.1]/hook', 422, 'WEBHOOK_TARGET_NOT_ALLOWED'],
      ['https://2130706433/hook', 422, 'WEBHOOK_TARGET_NOT_ALLOWED'],
      ['ftp://example.org/hook', 400, 'INVALID_REQUEST'],
      ['https://user:pass@example.org/hook', 400, 'INVALID_REQUEST'],
      ['not a url', 400, 'INVALID_REQUEST'],
    ];
    for (const [url, status, code] of refused) {
      it(`refuses ${url}: ${status} ${code}, and stores nothing`, async () => {
        const h = harness();
        const before = await webhookState(h);
        assertError(h, await h.request({ method: 'POST', url: WEBHOOKS, body: createRequest(url) }), status, code);
        assert.deepEqual(await webhookState(h), before);
      });
    }

    it('checks again at every attempt: a delivery to a loopback address is refused without connecting', async () => {
      const r = await startReceiver();
      try {
        const strict = new HttpWebhookSender({ allowInsecure: false }, 1000);
        const https = `https://127.0.0.1:${r.port}/hook`;
        for (const url of [r.url, https, `https://localhost:${r.port}/hook`, `https://[::ffff:7f00:1]:${r.port}/hook`]) {
          const answer = await strict.post({ url, headers: {}, body: '{}' });
          assert.equal(answer.status, null, url);
          assert.match(answer.error ?? '', /not allowed|private, loopback/, url);
        }
        assert.equal(r.received.length, 0, 'the receiver was never reached');
        // DNS rebinding: the name is public when checked and loopback a moment later, at the connection. The
        // connection resolves through the same guard, so it is refused instead of reaching the receiver.
        const answers = ['93.184.216.34', '127.0.0.1'];
        const rebinding = new HttpWebhookSender({ allowInsecure: false }, 1000, async () => [{ address: answers.shift() ?? '127.0.0.1', family: 4 }]);
        const rebound = await rebinding.post({ url: `https://rebind.example:${r.port}/hook`, headers: {}, body: '{}' });
        assert.equal(answers.length, 0, 'resolved twice: at the check and at the connection');
        assert.deepEqual([rebound.status, rebound.error], [null, 'rebind.example resolves to a private, loopback, link-local or reserved address']);
        assert.equal(r.received.length, 0, 'the receiver was never reached');
        // The same receiver is reached when the operator allows it.
        const open = await new HttpWebhookSender({ allowInsecure: true }, 1000).post({ url: r.url, headers: {}, body: '{}' });
        assert.equal(open.status, 200);
      } finally {
        await r.close();
      }
    });
  });
});
