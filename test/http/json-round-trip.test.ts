import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InquiryNotesResponse } from '../../src/wire/documents/inquiries.ts';
import { WebhookSubscriptionResponse } from '../../src/wire/documents/webhooks.ts';
import { forEachDialect } from '../support/databases.ts';
import { assertJsonAnswer, assertJsonError, JSON_BODY } from '../support/json-answers.ts';
import { createProject, sharedHarness } from './http-helpers.ts';
import { inquiryState, inquiryUrls } from './inquiry-helpers.ts';
import { subscribe, WEBHOOKS } from './webhook-helpers.ts';

// What a JSON client reads it can send back: a boolean it reads as true/false it may write as true/false (and, as
// before, as the strings "true" and "false").

forEachDialect('HTTP JSON round trips', ({ dialect }) => {
  const harness = sharedHarness(dialect, { APAS_WEBHOOK_ALLOW_INSECURE: 'true' });

  describe('SetInquiryNote VisibleToApplicant', () => {
    it('takes the boolean a read gives, and the string form as before', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const send = (body: unknown) => {
        h.clock.advance();
        return h.request({ method: 'POST', url: inquiryUrls.addNote(projectId), as: 'admin', headers: JSON_BODY, body: JSON.stringify(body) });
      };
      const opened = assertJsonAnswer(await send({ Subject: 'Diagram', VisibleToApplicant: true, Text: 'Please send it.' }), InquiryNotesResponse);
      const note = opened.InquiryThread.Note[0]!;
      assert.equal(note.VisibleToApplicant, true);
      const threadId = opened.InquiryThread.ThreadId;
      // The note as read, sent back: its boolean is accepted.
      const hidden = assertJsonAnswer(await send({ ThreadId: threadId, VisibleToApplicant: false, Text: 'Internal.' }), InquiryNotesResponse);
      assert.equal(hidden.InquiryThread.Note.at(-1)?.VisibleToApplicant, false);
      const legacy = assertJsonAnswer(await send({ ThreadId: threadId, VisibleToApplicant: 'true', Text: 'Old client.' }), InquiryNotesResponse);
      assert.equal(legacy.InquiryThread.Note.at(-1)?.VisibleToApplicant, true);
      const notes = await h.request({ method: 'GET', url: inquiryUrls.notes(projectId, threadId), as: 'admin', headers: { accept: 'application/json' } });
      assert.deepEqual(assertJsonAnswer(notes, InquiryNotesResponse).InquiryThread.Note.map((n) => n.VisibleToApplicant), [true, false, true]);
      const before = await inquiryState(h, projectId);
      for (const bad of [1, 'yes', 'TRUE', []]) {
        const res = await send({ ThreadId: threadId, VisibleToApplicant: bad, Text: 'x' });
        assertJsonError(res, 400, 'INVALID_REQUEST');
      }
      assert.deepEqual(await inquiryState(h, projectId), before, 'a refused value changed nothing');
    });
  });

  describe('SetWebhookSubscription Enabled', () => {
    it('takes the subscription as read back, with Enabled a boolean or a string', async () => {
      const h = harness();
      const { id } = await subscribe(h, 'http://127.0.0.1:9/round-trip');
      const url = `${WEBHOOKS}/${id}`;
      const read = assertJsonAnswer(await h.request({ method: 'GET', url, headers: { accept: 'application/json' } }), WebhookSubscriptionResponse);
      assert.equal(read.WebhookSubscription.Enabled, true);
      const set = (body: unknown) => h.request({ method: 'POST', url, headers: JSON_BODY, body: JSON.stringify(body) });
      const off = assertJsonAnswer(await set({ Url: read.WebhookSubscription.Url, Enabled: false }), WebhookSubscriptionResponse);
      assert.equal(off.WebhookSubscription.Enabled, false);
      const on = assertJsonAnswer(await set({ Enabled: 'true' }), WebhookSubscriptionResponse);
      assert.equal(on.WebhookSubscription.Enabled, true);
      assertJsonError(await set({ Enabled: 0 }), 400, 'INVALID_REQUEST');
      const after = assertJsonAnswer(await h.request({ method: 'GET', url, headers: { accept: 'application/json' } }), WebhookSubscriptionResponse);
      assert.equal(after.WebhookSubscription.Enabled, true, 'the refused change changed nothing');
    });
  });
});
