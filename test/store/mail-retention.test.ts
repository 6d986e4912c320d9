import assert from 'node:assert/strict';
import { it } from 'node:test';
import { DEFAULT_MAIL_POLICY, sendDueMail } from '../../src/domain/mail/mail-sender.ts';
import type { OutgoingMail } from '../../src/domain/mail/mailer.ts';
import { forEachDialect } from '../support/databases.ts';

// A sent mail keeps no live secret: its stored bodies lose their links' tokens once it went out (or was given up),
// and sent and given-up mail is deleted after APAS_MAIL_RETENTION_DAYS (docs/operations.md, E-mail).

const T = Date.UTC(2026, 0, 1);
const SECRET = 'resetSECRETresetSECRETresetSECRET0123456789';
const clockAt = (time: number) => ({ now: () => time });

function resetMail(n: number, createdAt = T) {
  const link = `http://apas.test/MvcProjects/ResetPassword?token=${SECRET}${n}`;
  return {
    id: `MAIL${String(n).padStart(8, '0')}`, kind: 'account.reset', eventId: null, to: `u${n}@example.org`, subject: 'Reset your password',
    text: `Open this link:\n${link}\n`, html: `<p>Open this link: <a href="${link}&amp;lang=en">${link}</a></p>`, createdAt,
  };
}

forEachDialect('store: sent mail keeps no secrets and is deleted after its retention', ({ open }) => {
  it('a sent or given-up mail is stored without its links\' tokens; the mail itself went out whole', async () => {
    const { store } = await open();
    await store.transaction(async (tx) => {
      await tx.mail.enqueueMail(resetMail(1));
      await tx.mail.enqueueMail(resetMail(2));
    });
    const sent: OutgoingMail[] = [];
    const mailer = {
      async send(m: OutgoingMail) {
        if (m.to === 'u2@example.org') throw new Error('mailbox unavailable');
        sent.push(m);
      },
      close() {},
    };
    await sendDueMail({ store, clock: clockAt(T + 10), mailer }, { ...DEFAULT_MAIL_POLICY, maxAttempts: 1 });
    assert.equal(sent.length, 1);
    assert.ok(sent[0]!.text.includes(`${SECRET}1`), 'the recipient got the live link');
    const stored = await store.mail.listMail();
    assert.deepEqual(stored.map((m) => m.status), ['sent', 'failed']);
    for (const m of stored) {
      assert.ok(!m.text.includes(SECRET) && !m.html.includes(SECRET), `the ${m.status} mail keeps its token:\n${m.text}\n${m.html}`);
      assert.match(m.text, /ResetPassword\?token=\[redacted\]/);
      assert.match(m.html, /ResetPassword\?token=\[redacted\]&amp;lang=en/);
    }
  });

  it('sent and given-up mail older than the retention is deleted; waiting mail never', async () => {
    const { store } = await open();
    const day = 86_400_000;
    await store.transaction(async (tx) => {
      for (const n of [1, 2, 3, 4]) await tx.mail.enqueueMail(resetMail(n, T));
      await tx.mail.enqueueMail(resetMail(5, T + 20 * day));
    });
    await store.transaction(async (tx) => {
      await tx.mail.markMailSent('MAIL00000001', T + 1, 1);
      await tx.mail.markMailFailed('MAIL00000002', 40, 'gone', null);
      await tx.mail.markMailSent('MAIL00000005', T + 20 * day, 1);
    });
    // MAIL00000003 and 4 are still pending: a queue that waits is never pruned, however old.
    const removed = await store.transaction((tx) => tx.mail.pruneMail(T + 10 * day));
    assert.equal(removed, 2);
    assert.deepEqual((await store.mail.listMail()).map((m) => m.id), ['MAIL00000003', 'MAIL00000004', 'MAIL00000005']);
  });
});
