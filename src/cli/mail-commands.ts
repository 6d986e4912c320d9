import { MAIL_STATUSES, MailQueueService, type MailSummary } from '../domain/mail/mail-queue-service.ts';
import { isoTimestamp } from '../model/clock.ts';
import { type CliCommand, optionalText } from './cli-command.ts';
import { withContext } from './cli-context.ts';
import { UsageError } from './cli-error.ts';

function line(m: MailSummary): string {
  const when = m.status === 'sent' && m.sentAt !== null ? `sent ${isoTimestamp(m.sentAt)}` : m.status === 'pending' ? `next ${isoTimestamp(m.nextAttemptAt)}` : 'gave up';
  const error = m.lastError === null ? '' : `  last error: ${m.lastError}`;
  return `${m.id}  ${m.status.padEnd(7)}  ${m.kind.padEnd(13)}  ${m.to}  queued ${isoTimestamp(m.createdAt)}  attempts=${m.attempts}  ${when}${error}`;
}

/** `apas mail list|retry`: the queue of notification and account mails (docs/operations.md, E-mail). */
export const mailCommands: CliCommand[] = [
  {
    name: 'mail list',
    summary: 'List queued mails, oldest first: id, status, kind, recipient, times, attempts and the last error (never the text).',
    options: {
      status: { type: 'string', value: 'STATUS', description: `Only mails in this state: ${MAIL_STATUSES.join(', ')}` },
      limit: { type: 'string', value: 'N', description: 'The newest N mails (default 100, at most 10000)' },
    },
    async run(input, io) {
      const raw = optionalText(input, 'limit') ?? '100';
      const limit = Number(raw);
      if (!/^\d+$/.test(raw) || limit < 1 || limit > 10_000) throw new UsageError('--limit must be a whole number from 1 to 10000', 'mail list');
      const status = optionalText(input, 'status');
      if (status !== undefined && !(MAIL_STATUSES as readonly string[]).includes(status)) {
        throw new UsageError(`--status must be one of ${MAIL_STATUSES.join(', ')}`, 'mail list');
      }
      const mails = await withContext(io, (ctx) => new MailQueueService(ctx).list(status, limit));
      for (const m of mails) io.out(line(m));
      if (mails.length === 0) io.err(status === undefined ? 'No mail is queued.' : `No mail is ${status}.`);
      return 0;
    },
  },
  {
    name: 'mail retry',
    summary: 'Queue failed mail again, due at once with a fresh round of attempts: one mail (--id) or every failed mail (--all-failed).',
    notes: ['A running server sends it within APAS_MAIL_INTERVAL_MS; "apas mail list --status failed" shows what failed and why.'],
    options: {
      id: { type: 'string', value: 'MAIL_ID', description: 'The failed mail to send again' },
      'all-failed': { type: 'boolean', description: 'Send every failed mail again' },
    },
    async run(input, io) {
      const id = optionalText(input, 'id');
      const all = input.options['all-failed'] === true;
      if ((id === undefined) === !all) throw new UsageError('give either --id MAIL_ID or --all-failed', 'mail retry');
      const queued = await withContext(io, (ctx) => new MailQueueService(ctx).retry(id ?? null));
      io.out(queued.length === 0 ? 'No failed notification mail to send again (a given-up account mail is never sent again).' : `Queued ${queued.length} failed mail${queued.length === 1 ? '' : 's'} again: ${queued.join(', ')}`);
      return 0;
    },
  },
];
