import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { MailStatus, OutboxScope } from '../../store/mail-queries.ts';
import type { Store } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { MAIL_STATUSES, MailQueueService, type MailSummary } from '../mail/mail-queue-service.ts';
import { consolePage, decodeConsoleCursor } from './console-cursor.ts';
import type { ConsoleScope } from './console-scope.ts';
import type { ConsoleService } from './console-service.ts';

/** Mails per page of the outbox in the console. */
export const OUTBOX_PAGE_SIZE = 50;

const OUTBOX_LIST = 'mail';

/** A page of the outbox, newest first, and the cursor of the next (older) page. */
export interface OutboxPage { mails: MailSummary[]; nextCursor: string | null }

/** What the outbox needs. */
export interface MailOutboxDeps { console: ConsoleService; store: Pick<Store, 'mail' | 'transaction'>; clock: Clock; ids: IdGenerator }

function outboxScope(scope: ConsoleScope): OutboxScope {
  return { agencyId: scope.agencyId, programIds: scope.agencyAdmin ? null : scope.programs.map((p) => p.id) };
}

/**
 * The console's Mail area: the queued, sent and failed mails an admin may see — an agency admin those about the
 * agency's projects and those about no project addressed to one of its users; a program admin those about the
 * projects of their programs (each mail row carries its project since migration 042) — and sending a failed one
 * again, as `apas mail retry --id` does.
 */
export class MailOutboxService {
  readonly #deps: MailOutboxDeps;

  constructor(deps: MailOutboxDeps) {
    this.#deps = deps;
  }

  /** A page of the outbox after `cursor`, newest first, of one status when given (`pending`, `sent`, `failed`). */
  async page(caller: Caller, status: string | undefined, cursor: string | undefined): Promise<OutboxPage> {
    const scope = outboxScope(await this.#deps.console.scope(caller));
    if (status !== undefined && !(MAIL_STATUSES as readonly string[]).includes(status)) {
      throw new ApiError('INVALID_PARAMETER', `The status must be one of ${MAIL_STATUSES.join(', ')}.`);
    }
    const after = decodeConsoleCursor(OUTBOX_LIST, cursor);
    const rows = await this.#deps.store.mail.pageOutbox(scope, (status as MailStatus | undefined) ?? null, after, OUTBOX_PAGE_SIZE + 1);
    const page = consolePage(OUTBOX_LIST, rows, OUTBOX_PAGE_SIZE, (m) => ({ at: m.createdAt, id: m.id }));
    return { mails: page.rows.map(({ text: _text, html: _html, ...summary }) => summary), nextCursor: page.nextCursor };
  }

  /**
   * Sends a failed mail again with a fresh round of attempts (MailQueueService.retry, with its audit row in the
   * caller's name). NOT_FOUND for a mail the caller may not see; CONFLICT for one that has not failed or is an
   * account mail.
   */
  async retry(caller: Caller, id: string): Promise<void> {
    const scope = outboxScope(await this.#deps.console.scope(caller));
    if (!(await this.#deps.store.mail.findOutboxMail(scope, id))) throw new ApiError('NOT_FOUND', `No mail of yours has the id ${id}.`);
    await new MailQueueService({ ...this.#deps, actorId: caller.user.id, agencyId: scope.agencyId }).retry(id);
  }
}
