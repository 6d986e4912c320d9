import type { MailStatus } from '../../store/mail-queries.ts';
import type { Caller } from '../caller.ts';
import { loadProgram, loadReadableProject } from '../projects/project-context.ts';
import { redactLinks } from '../redact-secrets.ts';
import type { ServiceDeps } from '../service-deps.ts';

/** A mail the project's owner was sent about the project, as the project and review pages list it (never its text). */
export interface OwnerMailView { at: number; kind: string; subject: string; status: string; sentAt: number | null }

/** The owner's mails about a project, and whether the owner is the caller (the page then says "you"). */
export interface OwnerMailsView { toCaller: boolean; mails: OwnerMailView[] }

/** The most mails a page lists, newest first (the queue keeps sent mail APAS_MAIL_RETENTION_DAYS anyway). */
export const OWNER_MAILS_SHOWN = 50;

// What each kind of mail is, in words; the kinds are those the mail notifier, named templates and automations queue.
const KIND_WORDS: Readonly<Record<string, string>> = {
  statusChanged: 'Status change', question: 'Question from the agency', template: 'Message from the agency', automation: 'Automatic message',
};

const STATUS_WORDS: Readonly<Record<MailStatus, string>> = {
  pending: 'Waiting to be sent', sent: 'Sent', failed: 'Could not be delivered', test: 'Not sent: test program',
};

/**
 * The mails a project's owner was sent about it: status changes, questions, the program's named templates (sent in bulk
 * or one by one) and automations' mails, read from the mail queue (mails to the owner of the moment about this project
 * only). Anyone who may read the project sees the list: date, kind, subject and whether it went out; never a mail's
 * text, and any link in a subject with its secret redacted.
 */
export class ProjectMailService {
  readonly #deps: ServiceDeps<'programs' | 'projects' | 'mail'>;
  constructor(deps: ServiceDeps<'programs' | 'projects' | 'mail'>) {
    this.#deps = deps;
  }

  /** The owner's mails about a project the caller may read, newest first (NOT_FOUND as for any page of the project). */
  async ownerMails(caller: Caller, programRef: string, projectId: string): Promise<OwnerMailsView> {
    const { store } = this.#deps;
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const project = await loadReadableProject(store, caller, ctx, projectId);
    const rows = await store.mail.listProjectMail(project.id, project.ownerId, OWNER_MAILS_SHOWN);
    const mails = rows.map((r) => ({ at: r.createdAt, kind: KIND_WORDS[r.kind] ?? 'Message', subject: redactLinks(r.subject), status: STATUS_WORDS[r.status], sentAt: r.sentAt }));
    return { toCaller: project.ownerId === caller.user.id, mails };
  }
}
