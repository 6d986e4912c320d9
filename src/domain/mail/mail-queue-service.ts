import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { MailMessage, MailStatus } from '../../store/mail-queries.ts';
import type { Store } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';

/** The states a listing can ask for. */
export const MAIL_STATUSES: readonly MailStatus[] = ['pending', 'sent', 'failed', 'test'];

/** A queued mail as an operator sees it: its state and to whom, never its text (which may hold a live link). */
export type MailSummary = Omit<MailMessage, 'text' | 'html'>;

/** What the mail queue service needs; `actorId` and `agencyId` go into audit rows (null for the command line). */
export interface MailQueueDeps { store: Pick<Store, 'mail' | 'transaction'>; clock: Clock; ids: IdGenerator; actorId?: string | null; agencyId?: string | null }

/** The operator's view of the mail queue: what waits, went out or failed, and sending failed mail again. */
export class MailQueueService {
  readonly #deps: MailQueueDeps;

  constructor(deps: MailQueueDeps) {
    this.#deps = deps;
  }

  /** The newest `limit` queued mails, oldest of them first, optionally of one status. */
  async list(status: string | undefined, limit: number): Promise<MailSummary[]> {
    if (status !== undefined && !(MAIL_STATUSES as readonly string[]).includes(status)) {
      throw new ApiError('INVALID_PARAMETER', `the status must be one of ${MAIL_STATUSES.join(', ')}; got "${status}"`);
    }
    const mails = await this.#deps.store.mail.listMail(status as MailStatus | undefined, limit);
    return mails.map(({ text: _text, html: _html, ...summary }) => summary);
  }

  /**
   * Queues failed mail again, due at once with a fresh round of attempts: the mail `id`, or every failed mail when
   * `id` is null. A running server sends it within APAS_MAIL_INTERVAL_MS. One audit row names the mails (the first 100).
   * NOT_FOUND for an unknown id, CONFLICT for a mail that has not failed (it is pending or was sent).
   */
  async retry(id: string | null): Promise<string[]> {
    const { store, clock, ids, actorId, agencyId } = this.#deps;
    return store.transaction(async (tx) => {
      const now = clock.now();
      if (id !== null) {
        const mail = await tx.mail.findMail(id);
        if (!mail) throw new ApiError('NOT_FOUND', `no mail has the id ${id}`);
        if (mail.status !== 'failed') throw new ApiError('CONFLICT', `mail ${id} has not failed: it is ${mail.status}; only failed mail is sent again`);
        if (mail.eventId === null) {
          throw new ApiError('CONFLICT', `mail ${id} is an account mail (${mail.kind}): its link was withdrawn when it was given up, so it is not sent again; the person asks for a new one`);
        }
      }
      const queued = await tx.mail.requeueFailedMail(id, now);
      if (queued.length > 0) await tx.audit.write({ action: 'mail.retry', actorId: actorId ?? null, agencyId: agencyId ?? null, detail: { count: queued.length, mailIds: queued.slice(0, 100) } }, now, ids.next());
      return queued;
    });
  }
}
