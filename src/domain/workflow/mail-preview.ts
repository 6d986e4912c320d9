import type { Program, Project, Status } from '../../model/model.ts';
import { ApiError } from '../api-error.ts';
import { type RenderedMail, renderMail } from '../mail-template.ts';
import { resolveProgramFile } from '../programs/program-check.ts';
import type { ProgramFile, StatusSpec } from '../programs/program-file.ts';
import type { ProgramChecker } from '../programs/program-parts.ts';
import { formatProjectNumber } from '../projects/submit-service.ts';
import { namedTemplate, projectMailValues, statusChangedTemplate } from './named-mail.ts';

/** Which mail of a program file to preview: a status's status-changed mail, or a named template (customId). */
export type PreviewChoice = { status: string } | { template: string };

/** A preview: which template was used (in words) and the mail as an applicant would get it. */
export interface MailPreview { source: string; mail: RenderedMail }

/** The address sample links start with. */
export const SAMPLE_PUBLIC_URL = 'https://apas.example.org';

/** The sample of {{deadlines}}: a running deadline the applicant is shown. */
export const SAMPLE_DEADLINES = 'Answer due by 18 May 2026.';

/** The message of a preview: what a reviewer might type on the review page. */
export const SAMPLE_MESSAGE = 'A message from the reviewer, as typed on the review page.';

/**
 * Renders a mail of a program file with sample values (project number 42, the status's first reason, a sample
 * message), after the checks an import makes (`checkers`, those the capabilities add); throws ApiError for a file with problems or an unknown status or template.
 */
export function previewMail(file: ProgramFile, choice: PreviewChoice, checkers: readonly ProgramChecker[], source = 'program file'): MailPreview {
  resolveProgramFile(file, checkers, source);
  const program: Program = {
    id: file.customId, agencyId: 'SAMPLEAGENCY', customId: file.customId, name: file.name, numberPrefix: file.numberPrefix,
    numberDigits: file.numberDigits, updatedAt: 0, notifications: file.notifications, mailTemplates: file.mailTemplates,
  };
  const spec = 'status' in choice ? findStatus(file, choice.status) : file.statuses.find((s) => s.initial) ?? file.statuses[0]!;
  const status: Status = {
    id: 'SAMPLESTATUS', customId: spec.customId, publicId: spec.customId ?? 'sample', name: spec.name, isInitial: spec.initial,
    position: 0, next: [], reasons: spec.reasons, mailTemplate: spec.mailTemplate,
  };
  const project: Project = {
    id: 'SAMPLEPROJCT', programId: program.id, number: formatProjectNumber(program, 42), statusId: status.id, statusAt: 0,
    createdAt: 0, createdBy: '', updatedAt: 0, updatedBy: '', ownerId: '', assigneeId: null, version: 1,
  };
  const context = { reasonId: spec.reasons[0]?.customId ?? null, message: SAMPLE_MESSAGE, deadlines: SAMPLE_DEADLINES };
  const values = projectMailValues(program, project, status, SAMPLE_PUBLIC_URL, context);
  if ('template' in choice) {
    return { source: `mail template "${choice.template}"`, mail: renderMail(namedTemplate(program, choice.template), values) };
  }
  const from = spec.mailTemplate ? `the mailTemplate of status "${spec.name}"` : file.notifications?.statusChanged ? 'notifications.statusChanged' : 'the default statusChanged wording';
  return { source: from, mail: renderMail(statusChangedTemplate(program, status), values) };
}

function findStatus(file: ProgramFile, ref: string): StatusSpec {
  const status = file.statuses.find((s) => s.customId === ref) ?? file.statuses.find((s) => s.name === ref);
  if (!status) throw new ApiError('NOT_FOUND', `Program ${file.customId} has no status "${ref}"; its statuses are ${file.statuses.map((s) => s.customId ?? s.name).join(', ')}.`);
  return status;
}
