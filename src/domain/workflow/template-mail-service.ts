import { requirePrivilege } from '../roles/access.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { applicantDeadlinesText } from '../deadlines/applicant-deadlines-text.ts';
import { changeProject } from '../projects/change-project.ts';
import { loadProgram, loadReadableProject, versionOf } from '../projects/project-context.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { ReactingDeps } from '../projects/change-reaction.ts';
import type { ProjectVersion } from '../views.ts';
import { namedTemplate, renderNamedMail } from './named-mail.ts';

/** The mail queue's kind of a named template sent by staff to a project's owner. */
export const TEMPLATE_MAIL_KIND = 'template';

/**
 * Sends one of the program's named mail templates (`mailTemplates:`) to a project's owner, as staff with the privilege
 * `inquiries` (who write to applicants) may: a change of the project, so it is locked, audited
 * (`project.mail.sent`, naming the template and the recipient's user id) and the mail queued in its transaction.
 */
export class TemplateMailService {
  readonly #deps: ServiceDeps<'programs' | 'projects' | 'accounts' | 'deadlines'> & ReactingDeps;
  constructor(deps: ServiceDeps<'programs' | 'projects' | 'accounts' | 'deadlines'> & ReactingDeps) {
    this.#deps = deps;
  }

  /** Queues the template `templateId` rendered about the project as it is (number, status, link, deadlines) to its owner. */
  async send(caller: Caller, programRef: string, projectId: string, templateId: string): Promise<ProjectVersion> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const seen = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    requirePrivilege(ctx.role, 'inquiries', 'SendTemplateMail');
    namedTemplate(ctx.program, templateId);
    const { ids, publicUrl } = this.#deps;
    return changeProject(this.#deps, caller, ctx, seen.id, {
      action: 'project.mail.sent', access: 'read',
      act: async ({ tx, project, now }) => {
        const owner = await tx.accounts.findUserById(project.ownerId);
        if (!owner || owner.disabled) throw new ApiError('CONFLICT', `The owner of project ${project.number ?? project.id} is no longer an active user; no mail was sent.`);
        const mail = await renderNamedMail(tx, ctx.program, project, templateId, { publicUrl, deadlines: await applicantDeadlinesText(tx, ctx.program, project.id) });
        await tx.mail.enqueueMail({ id: ids.next(), kind: TEMPLATE_MAIL_KIND, eventId: null, to: owner.email, ...mail, createdAt: now, projectId: project.id, toUserId: owner.id });
        // The recipient by id only: the address is the user's, and the text may name people.
        return { detail: { template: templateId, to: owner.id }, result: versionOf };
      },
    });
  }
}
