import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';

const T = Date.UTC(2026, 0, 1);
const LEASE = 120_000;

function message(n: number) {
  return { id: `MAIL${String(n).padStart(8, '0')}`, kind: 'statusChanged', eventId: null, to: `u${n}@example.org`, subject: `s${n}`, text: 't', html: '<p>t</p>', createdAt: T + n };
}

forEachDialect('store: mail queue claims', ({ dialect, open }) => {
  it('two instances claiming at once never get the same message; a claim holds until its lease ends', async () => {
    const db = await open();
    const other = await db.reopen();
    await db.store.transaction(async (tx) => {
      for (let n = 1; n <= 12; n++) await tx.mail.enqueueMail(message(n));
    });
    const now = T + 1000;
    const claim = (s: typeof other) => s.transaction((tx) => tx.mail.claimDueMail(now, LEASE, 5));
    // Two SQLite connections of one process cannot write at once (the second's wait would block the first), and
    // SQLite has one writer anyway; on PostgreSQL the claims really overlap.
    const claims = dialect === 'postgres'
      ? await Promise.all([db.store, other, db.store, other].map(claim))
      : [await claim(db.store), await claim(other), await claim(db.store), await claim(other)];
    const ids = claims.flat().map((m) => m.id);
    assert.equal(new Set(ids).size, ids.length, `a message was claimed twice: ${ids.join(', ')}`);
    assert.equal(ids.length, 12, 'every due message was claimed once');
    // While the leases run, nobody claims them again; once they end (a crashed sender), they are taken over.
    assert.deepEqual(await db.store.transaction((tx) => tx.mail.claimDueMail(now + LEASE - 1, LEASE, 50)), []);
    const taken = await other.transaction((tx) => tx.mail.claimDueMail(now + LEASE, LEASE, 50));
    assert.equal(taken.length, 12);
  });

  it('a failed attempt waits for its next time; a sent or given-up message is never claimed again', async () => {
    const { store } = await open();
    await store.transaction(async (tx) => {
      for (let n = 1; n <= 3; n++) await tx.mail.enqueueMail(message(n));
    });
    const [a, b, c] = await store.transaction((tx) => tx.mail.claimDueMail(T + 10, LEASE, 10));
    await store.transaction(async (tx) => {
      await tx.mail.markMailSent(a!.id, T + 20, 1);
      await tx.mail.markMailFailed(b!.id, 1, 'connection refused', T + 60_000);
      await tx.mail.markMailFailed(c!.id, 40, 'mailbox unavailable', null);
    });
    assert.deepEqual(await store.transaction((tx) => tx.mail.claimDueMail(T + 59_999, LEASE, 10)), []);
    const [again] = await store.transaction((tx) => tx.mail.claimDueMail(T + 60_000, LEASE, 10));
    assert.equal(again?.id, b!.id);
    assert.equal(again?.attempts, 1);
    assert.equal(again?.lastError, 'connection refused');
    assert.deepEqual((await store.mail.listMail('failed')).map((m) => [m.id, m.attempts, m.lastError]), [[c!.id, 40, 'mailbox unavailable']]);
    assert.deepEqual((await store.mail.listMail('sent')).map((m) => [m.id, m.sentAt]), [[a!.id, T + 20]]);
  });
});
