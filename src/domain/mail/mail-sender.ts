import { type Clock, isoTimestamp } from '../../model/clock.ts';
import type { Store } from '../../store/store.ts';
import type { WorkLog } from '../events/background-work.ts';
import { boundText } from '../bounded-text.ts';
import type { MailFile, Mailer } from './mailer.ts';
import type { MailAttachmentRef } from '../../store/mail-queries.ts';
import { redactLinks } from '../redact-secrets.ts';

/** How the queue is drained: claims per round, how long a claim lasts, and when to give up on a message. */
export interface MailSendPolicy {
  batch: number;
  /** Longer than one SMTP conversation may take (smtp-mailer's time limits), so a claim is not taken over mid-send. */
  leaseMs: number;
  /** Attempts before a message is marked failed. */
  maxAttempts: number;
  /** The wait after the first failure; it doubles with each further one, up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
}

/** Retries for about a day and a half: 30 s, 1, 2, 4 … minutes, then hourly, 40 attempts in all. */
export const DEFAULT_MAIL_POLICY: MailSendPolicy = { batch: 20, leaseMs: 120_000, maxAttempts: 40, firstDelayMs: 30_000, maxDelayMs: 3_600_000 };

/**
 * What the sender needs: the store, the time, the mail server, a source of randomness for the jitter, and where a
 * failed attempt is logged (the background work always passes its log; a test reading the queue may leave it out).
 */
export interface MailSenderDeps {
  store: Store; clock: Clock; mailer: Mailer; random?: () => number; log?: WorkLog;
  /** Reads the generated documents a mail carries; without it such a mail waits. */
  files?: MailFileSource;
}

/** What the files of a mail are now: ready, still being generated (the mail waits), or never to be (the mail fails). */
export type MailFiles = { ready: MailFile[] } | { wait: string } | { fail: string };

/** Resolves a mail's attachment references to their bytes (src/domain/documents gives one; the wiring passes it). */
export interface MailFileSource { files(refs: readonly MailAttachmentRef[]): Promise<MailFiles> }

/** How long a mail waits for a document still being generated before it looks again (not counted as an attempt). */
export const MAIL_FILE_WAIT_MS = 30_000;

/** The wait before attempt `attempts + 1`: exponential with up to 10% jitter, so retries of many messages spread out. */
export function retryDelay(policy: MailSendPolicy, attempts: number, random: () => number): number {
  const base = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (1 + 0.1 * random()));
}

/**
 * Sends one round of due messages: claims them in one short transaction, sends each outside any transaction, and
 * records each outcome (a settled message keeps its bodies with the links' tokens redacted). A failure waits for its
 * retry; nothing a request does waits for the mail server.
 * Returns true when the round was full (there may be more due now).
 */
export async function sendDueMail(deps: MailSenderDeps, policy: MailSendPolicy = DEFAULT_MAIL_POLICY): Promise<boolean> {
  const { store, clock, mailer } = deps;
  const random = deps.random ?? Math.random;
  const claimed = await store.transaction((tx) => tx.mail.claimDueMail(clock.now(), policy.leaseMs, policy.batch));
  for (const m of claimed) {
    const attempts = m.attempts + 1;
    // Once settled, a message keeps no live link: reset and confirmation tokens are secrets (only their hashes are
    // stored), and the queue is in every backup.
    const kept = { text: redactLinks(m.text), html: redactLinks(m.html) };
    // A test program's mail never reaches the mail server: it stays in the program's outbox for its admins to read.
    if (m.forTest) {
      await store.transaction((tx) => tx.mail.markMailKeptForTest(m.id, kept));
      continue;
    }
    let files: MailFile[] = [];
    if (m.attachments && m.attachments.length > 0) {
      const found: MailFiles = deps.files ? await deps.files.files(m.attachments) : { wait: 'no document store is configured' };
      if ('wait' in found) {
        await store.transaction((tx) => tx.mail.markMailFailed(m.id, m.attempts, boundText(`waiting: ${found.wait}`, 400), clock.now() + MAIL_FILE_WAIT_MS));
        continue;
      }
      if ('fail' in found) {
        await store.transaction((tx) => tx.mail.markMailFailed(m.id, attempts, boundText(found.fail, 400), null, kept));
        deps.log?.warn({ mailId: m.id, kind: m.kind, error: found.fail }, `mail ${m.id} is marked failed: a file it carries cannot be had`);
        continue;
      }
      files = found.ready;
    }
    try {
      await mailer.send({ to: m.to, subject: m.subject, text: m.text, html: m.html, ...(files.length > 0 ? { attachments: files } : {}) });
    } catch (error) {
      const next = attempts >= policy.maxAttempts ? null : clock.now() + retryDelay(policy, attempts, random);
      const cause = boundText((error as Error).message ?? String(error), 400);
      await store.transaction((tx) => tx.mail.markMailFailed(m.id, attempts, cause, next, kept));
      // The message's id and the cause, never its address or text: `apas mail list` shows the rest to an operator.
      deps.log?.warn({ mailId: m.id, kind: m.kind, attempts, error: cause, nextAttemptAt: next === null ? null : isoTimestamp(next) },
        next === null ? `sending mail ${m.id} failed for the last time; it is marked failed (apas mail retry sends it again)` : `sending mail ${m.id} failed; it is retried later`);
      continue;
    }
    await store.transaction((tx) => tx.mail.markMailSent(m.id, clock.now(), attempts, kept));
  }
  return claimed.length === policy.batch;
}

