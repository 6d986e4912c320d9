import type { Program, Project, Status } from '../../model/model.ts';
import type { MailTemplate } from '../../model/notification.ts';
import type { StoreReader } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import { DEFAULT_TEMPLATES, type PlaceholderValues, type RenderedMail, renderMail } from '../mail-template.ts';
import { landingUrl, statusById } from '../projects/project-context.ts';
import { reasonName } from './status-reasons.ts';

/**
 * What a mail about a project says besides the project: the reason and message of a status move, if any, and the
 * deadlines the applicant has running (src/domain/deadlines/applicant-deadlines-text.ts).
 */
export interface MailContext { reasonId?: string | null; message?: string | null; deadlines?: string | null }

/**
 * The placeholder values of a mail about `project` in `status` (its current one, or the one a move entered): the
 * reason by its name in that status's list, the message as given; empty where there is none.
 */
export function projectMailValues(program: Program, project: Project, status: Status, publicUrl: string, context: MailContext = {}): PlaceholderValues {
  return {
    projectNumber: project.number ?? '(not yet submitted)',
    status: status.name,
    link: landingUrl(publicUrl, project),
    programName: program.name,
    reason: reasonName(status, context.reasonId) ?? '',
    message: context.message ?? '',
    deadlines: context.deadlines ?? '',
  };
}

/** The template of the status-changed mail of a move into `status`: the status's own, else the program's, else the default. */
export function statusChangedTemplate(program: Pick<Program, 'notifications'>, status: Pick<Status, 'mailTemplate'>): MailTemplate {
  return status.mailTemplate ?? program.notifications?.statusChanged ?? DEFAULT_TEMPLATES.statusChanged;
}

/** The program's named mail template `customId` (`mailTemplates:`); NOT_FOUND naming the ones it has. */
export function namedTemplate(program: Program, customId: string): MailTemplate {
  const templates = program.mailTemplates ?? [];
  const template = templates.find((t) => t.customId === customId);
  if (!template) {
    const known = templates.map((t) => t.customId).join(', ');
    throw new ApiError('NOT_FOUND', `Program ${program.customId} has no mail template "${customId}"${known ? `; its templates are ${known}` : ' (mailTemplates is empty)'}.`);
  }
  return template;
}

/**
 * Renders the program's named mail template `customId` about a project as it is (its number, current status and
 * link), with a status move's reason and message where given: what an automation's "send a mail" queues. Works on a
 * transaction's repositories as on the store's.
 */
export async function renderNamedMail(
  reader: Pick<StoreReader, 'programs'>, program: Program, project: Project, customId: string, options: MailContext & { publicUrl: string },
): Promise<RenderedMail> {
  const template = namedTemplate(program, customId);
  const model = await reader.programs.loadProgramModel(program);
  return renderMail(template, projectMailValues(program, project, statusById(model, project.statusId), options.publicUrl, options));
}
