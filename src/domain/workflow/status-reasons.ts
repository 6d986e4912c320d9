import type { HistoryEntry, NamedMailTemplate, Program, ProgramModel, Status, StatusReason } from '../../model/model.ts';
import type { MailTemplate } from '../../model/notification.ts';
import { ApiError } from '../api-error.ts';
import { mailTemplateProblems } from '../mail-template.ts';
import type { ProgramChecker, Resolve, ResolvedProgram } from '../programs/program-parts.ts';
import type { ProgramFile, StatusSpec } from '../programs/program-file.ts';
import { atLine, placeholderAt } from '../programs/program-lines.ts';
import { statusById } from '../projects/project-context.ts';
import type { PageHistoryLine } from '../views.ts';

/** The most characters of a status move's message (the review page's textarea, SetProjectStatus's Message). */
export const MAX_REASON_MESSAGE_CHARS = 4000;

/** What a status move gives besides its target: a reason (a customId of the target's list) and a message, or null. */
export interface MoveReason { reasonId: string | null; message: string | null }

/** The reason and message of a move as the history keeps them: the reason also by name, as the status lists it now. */
export interface GivenReason { reasonId: string | null; reason: string | null; message: string | null }

/** The status messages' part of checking a program file at import: the reasons and who must give one. */
export const statusMessagesChecker: ProgramChecker = { part: 'reasonRequired', check: (file, resolve, problems) => checkStatusMessages(file, resolve.statuses, problems) };

/** Per status of a checked file: whether a move into it must give a reason, or from which statuses (indexes) it must. */
export function reasonsRequiredOf(resolved: ResolvedProgram): (boolean | number[])[] {
  return resolved.parts[statusMessagesChecker.part] as (boolean | number[])[];
}

/**
 * Checks the statuses' reasons (keys and names unique within their status, a required reason that can be given, no
 * form leading by submission into a status that requires one, nor a withdrawal status that does), the statuses' mail templates and the named templates
 * (unique keys, known placeholders); each problem names the YAML line.
 */
export function checkStatusMessages(file: ProgramFile, statuses: Resolve, problems: string[]): (boolean | number[])[] {
  const required = file.statuses.map((s, i) => requiredFrom(file, s, i, statuses, problems));
  file.statuses.forEach((s, i) => {
    const where = `status "${s.customId ?? s.name}"${atLine(file, ['statuses', i])}`;
    s.reasons.forEach((r, j) => {
      for (const key of ['customId', 'name'] as const) {
        if (s.reasons.slice(0, j).some((x) => x[key] === r[key])) {
          problems.push(`status "${s.customId ?? s.name}"${atLine(file, ['statuses', i, 'reasons', j])}: reasons: two reasons have the ${key} "${r[key]}"`);
        }
      }
    });
    if (s.reasonRequired !== false && s.reasons.length === 0) problems.push(`${where}: reasonRequired needs a list of reasons to choose from`);
    // An owner withdraws with one click and gives no reason (src/domain/portal), so such a status could never be reached.
    if (s.withdrawal && (s.reasonRequired === true || (Array.isArray(s.reasonRequired) && s.reasonRequired.length > 0))) {
      problems.push(`status "${s.customId ?? s.name}"${atLine(file, ['statuses', i, 'reasonRequired'])}: a withdrawal status cannot require a reason: the owner withdraws without giving one, so could never withdraw`);
    }
    if (s.mailTemplate) {
      const at = placeholderAt(file, ['statuses', i, 'mailTemplate']);
      problems.push(...mailTemplateProblems(s.mailTemplate, 'mailTemplate', at).map((p) => `status "${s.customId ?? s.name}": ${p}`));
    }
  });
  file.forms.forEach((f, i) => {
    const find = (ref: string) => file.statuses.findIndex((s) => s.customId === ref || s.name === ref);
    const rule = f.leadsTo === null ? false : required[find(f.leadsTo)] ?? false;
    // A submission gives no reason, so it could never make that move.
    if (rule === true || (Array.isArray(rule) && f.availableIn.some((ref) => rule.includes(find(ref))))) {
      problems.push(`form "${f.customId ?? f.name}"${atLine(file, ['forms', i, 'leadsTo'])}: leadsTo "${f.leadsTo}" requires a reason, which a submission cannot give`);
    }
  });
  file.mailTemplates.forEach((t, i) => {
    const where = `mail template "${t.customId}"${atLine(file, ['mailTemplates', i])}`;
    if (file.mailTemplates.slice(0, i).some((x) => x.customId === t.customId)) problems.push(`${where}: another mail template has the customId "${t.customId}"`);
    const at = placeholderAt(file, ['mailTemplates', i]);
    problems.push(...mailTemplateProblems(t, 'mailTemplates', at).map((p) => `mail template "${t.customId}": ${p.replace(/^mailTemplates\./, '')}`));
  });
  return required;
}

// `reasonRequired` as a list: statuses with a transition into this one, by index.
function requiredFrom(file: ProgramFile, s: StatusSpec, i: number, statuses: Resolve, problems: string[]): boolean | number[] {
  if (!Array.isArray(s.reasonRequired)) return s.reasonRequired;
  const from: number[] = [];
  s.reasonRequired.forEach((ref, j) => {
    const where = `status "${s.customId ?? s.name}"${atLine(file, ['statuses', i, 'reasonRequired', j])}: reasonRequired`;
    const index = statuses(ref, where);
    if (index === null) return;
    const source = file.statuses[index]!;
    if (from.includes(index)) problems.push(`${where}: "${ref}" is listed twice`);
    else if (!source.next.some((n) => n === s.customId || n === s.name)) problems.push(`${where}: the workflow has no transition from "${ref}" to "${s.customId ?? s.name}"`);
    else from.push(index);
  });
  return from;
}

/**
 * A status of a program file as stored: its reasons (a required reason's statuses by the ids in `ids`) and template,
 * each only when it has them (as the store loads them).
 */
export function statusMessagesOfFile(s: StatusSpec, required: boolean | number[], ids: string[]): Pick<Status, 'reasons' | 'reasonRequired' | 'mailTemplate'> {
  const reasonRequired = Array.isArray(required) ? required.map((n) => ids[n]!) : required;
  return {
    ...(s.reasons.length > 0 || reasonRequired !== false ? { reasons: s.reasons, reasonRequired } : {}),
    ...(s.mailTemplate ? { mailTemplate: s.mailTemplate } : {}),
  };
}

/** A stored status's reasons and template with every default filled in, for comparing two definitions. */
export function statusMessagesOf(s: Status): { reasons: StatusReason[]; reasonRequired: boolean | string[]; mailTemplate: MailTemplate | null } {
  const required = s.reasonRequired ?? false;
  return { reasons: s.reasons ?? [], reasonRequired: Array.isArray(required) ? [...required].sort() : required, mailTemplate: s.mailTemplate ?? null };
}

/** Whether a move from the status `fromId` into `target` must give a reason. */
export function requiresReason(target: Pick<Status, 'reasonRequired'>, fromId: string): boolean {
  const required = target.reasonRequired ?? false;
  return Array.isArray(required) ? required.includes(fromId) : required;
}

/** A program's named mail templates (none when absent), for comparing two definitions. */
export function namedTemplatesOf(program: Program): NamedMailTemplate[] {
  return program.mailTemplates ?? [];
}

/**
 * The reason and message a move into `target` gives, checked against the target's list: an unknown reason, or none
 * where the status requires one, is refused with INVALID_REQUEST (400). A blank message counts as none.
 */
export function checkMoveReason(target: Status, fromId: string, input: MoveReason): MoveReason {
  const reasons = target.reasons ?? [];
  const listed = reasons.map((r) => `${r.customId} (${r.name})`).join(', ');
  // Browsers send a textarea's line breaks as CRLF; the history keeps them as the API's LF.
  const message = input.message === null || input.message.trim() === '' ? null : input.message.replace(/\r\n?/g, '\n');
  if (message !== null && message.length > MAX_REASON_MESSAGE_CHARS) {
    throw new ApiError('INVALID_REQUEST', `The message of a status change may have at most ${MAX_REASON_MESSAGE_CHARS} characters; it has ${message.length}.`);
  }
  const reasonId = input.reasonId === null || input.reasonId.trim() === '' ? null : input.reasonId.trim();
  if (reasonId === null) {
    if (requiresReason(target, fromId)) throw new ApiError('INVALID_REQUEST', `A move to "${target.name}" needs a reason (ReasonId): one of ${listed}.`);
    return { reasonId: null, message };
  }
  if (!reasons.some((r) => r.customId === reasonId)) {
    throw new ApiError('INVALID_REQUEST', reasons.length === 0
      ? `Status "${target.name}" lists no reasons; send the move without ReasonId.`
      : `"${reasonId}" is not a reason of status "${target.name}"; its reasons are ${listed}.`);
  }
  return { reasonId, message };
}

/** The reason's name as the status lists it now (the customId when the list no longer has it), or null for none. */
export function reasonName(status: Pick<Status, 'reasons'>, reasonId: string | null | undefined): string | null {
  if (!reasonId) return null;
  return status.reasons?.find((r) => r.customId === reasonId)?.name ?? reasonId;
}

/** A project's history as the web pages show it: status names, people by `nameOf`, and each move's reason and message. */
export function pageHistory(model: ProgramModel, entries: HistoryEntry[], nameOf: (userId: string) => string): PageHistoryLine[] {
  return entries.map((h) => {
    const status = statusById(model, h.statusId);
    return { status: status.name, at: h.changedAt, by: nameOf(h.changedBy), reason: reasonName(status, h.reasonId), message: h.message ?? null };
  });
}
