import { ApiError } from '../../domain/api-error.ts';
import type { AssigneeView, HistoryEntryView, ReportAsInput, StatusHistoryView, StatusSetView } from '../../domain/views.ts';
import type { MoveReason } from '../../domain/workflow/status-reasons.ts';
import { isoTimestamp, parseTimestamp } from '../../model/clock.ts';
import {
  complex, type DocumentValue, dateTime, enumeration, enumValue, many, maybe, one, optional, requestDocument, required, responseDocument, restrict,
  string, token,
} from '../wire-type.ts';
import { CurrentStatus, currentStatusValue } from './common-types.ts';

const ReportAs = enumeration('ReportAs', ['normal', 'suppress'], 'normal: the entry counts in reports; suppress: it is left out of them.');

/** The most characters of SetProjectStatus's Message (the domain checks the same bound). */
const MESSAGE_CHARS = 4000;

const HistoryEntry = complex({
  name: 'HistoryEntry',
  doc: 'ChangedBy is the e-mail address of the user who set the status; Timestamp when it was set. (apas) ReasonId, Reason and '
    + 'Message: what the move gave, when it gave them.',
  attributes: {
    StatusId: required(string), CustomId: optional(string), Name: required(string), ChangedBy: required(string),
    Timestamp: required(dateTime), ReportAs: required(ReportAs),
    ReasonId: optional(string, { doc: '(apas) The customId of the reason the move gave, from the status\'s list.' }),
    Reason: optional(string, { doc: '(apas) The reason\'s name as the status lists it now (its customId once the list no longer has it).' }),
  },
  children: { Message: maybe(string, '(apas) The message the move gave, as written.') },
});

/** A status or data field named by its id or custom id in a request. */
const Reference = restrict(token, { name: 'Reference', minLength: 1, maxLength: 200 });

/** GetProjectStatusHistory: every status the project has had, newest first. */
export const ProjectStatusHistoryResponse = responseDocument('ProjectStatusHistoryResponse', complex({
  children: {
    Project: one(complex({
      attributes: { ProjectId: required(string), ProgramId: required(string), ProjectNumber: optional(string) },
      children: { StatusHistory: one(complex({ children: { Status: many(HistoryEntry) } })) },
    })),
  },
}), 'GetProjectStatusHistory: every status the project has had, newest first.');

/** SetProjectStatus's request body: the status the project moves to, by its id or custom id; (apas) a reason and a message. */
export const SetProjectStatusRequest = requestDocument('SetProjectStatusRequest', complex({
  attributes: {
    StatusId: required(Reference),
    ReasonId: optional(Reference, { doc: '(apas) The customId of a reason from the target status\'s list (GetStatusList); required where the status requires one.' }),
  },
  children: { Message: maybe(restrict(string, { maxLength: MESSAGE_CHARS }), '(apas) A message to go with the move: kept in the history, mailed to the applicant.') },
}), 'SetProjectStatus request: the status the project moves to, by its id or custom id; (apas) ReasonId and Message optional.');

/** SetProjectStatus: the project's new current status and the address of the project. */
export const StatusSetResponse = responseDocument('StatusSetResponse', complex({
  children: {
    Status: one(CurrentStatus),
    Url: one(complex({ attributes: { Value: required(string) } })),
  },
}), 'SetProjectStatus: the project\'s new current status and the address of the project.');

/** SetProjectStatusReportAs's request body (the commercial system's root element name). */
export const SetProjectStatusHistoryReportAs = requestDocument('SetProjectStatusHistoryReportAs', complex({
  attributes: {
    StatusId: required(Reference),
    Timestamp: required(dateTime),
    ReportAs: required(restrict(token, {
      name: 'ReportAs', pattern: '[Nn][Oo][Rr][Mm][Aa][Ll]|[Ss][Uu][Pp][Pp][Rr][Ee][Ss][Ss]', doc: 'normal or suppress, in any letter case.',
    })),
  },
}), 'SetProjectStatusReportAs request: the status-history entry, by its status and the time it was set (UTC when Timestamp '
  + 'has no offset; without milliseconds it matches the entry set within that second), and how reports show it.');

/** SetProjectStatusReportAs: the status-history entry after the change. */
export const StatusHistoryReportAsResponse = responseDocument('StatusHistoryReportAsResponse', complex({
  children: { Status: one(HistoryEntry) },
}), 'SetProjectStatusReportAs: the status-history entry after the change.');

/** SetAssignee's request body: the new assignee's e-mail address; absent or empty clears the assignment. */
export const SetAssigneeRequest = requestDocument('SetAssigneeRequest', complex({
  children: { AssigneeEmail: maybe(restrict(token, { maxLength: 320 })) },
}), 'SetAssignee request: the e-mail address of the user who becomes the assignee; absent or empty to clear the assignment.');

/** SetAssignee: the user now assigned to the project; no Assignee when the assignment was cleared. */
export const SetAssigneeResponse = responseDocument('SetAssigneeResponse', complex({
  children: { Assignee: maybe(complex({ attributes: { Name: required(string), Email: required(string) } })) },
}), 'SetAssignee: the user now assigned to the project; no Assignee element when the assignment was cleared.');

function historyEntryValue(entry: HistoryEntryView) {
  return {
    StatusId: entry.statusId, CustomId: entry.customId, Name: entry.name, ChangedBy: entry.changedBy,
    Timestamp: isoTimestamp(entry.timestamp), ReportAs: enumValue(ReportAs, entry.reportAs),
    ReasonId: entry.reasonId, Reason: entry.reason, Message: entry.message,
  };
}

/** The GetProjectStatusHistory answer: the project and its entries in the view's order (newest first). */
export function statusHistoryValue(view: StatusHistoryView): DocumentValue<typeof ProjectStatusHistoryResponse> {
  return {
    Project: {
      ProjectId: view.projectId, ProgramId: view.programId, ProjectNumber: view.projectNumber,
      StatusHistory: { Status: view.entries.map(historyEntryValue) },
    },
  };
}

/** The SetProjectStatus answer. */
export function statusSetValue(view: StatusSetView): DocumentValue<typeof StatusSetResponse> {
  return { Status: currentStatusValue(view.status), Url: { Value: view.url } };
}

/** The SetProjectStatusReportAs answer: the entry after the change. */
export function reportAsValue(view: HistoryEntryView): DocumentValue<typeof StatusHistoryReportAsResponse> {
  return { Status: historyEntryValue(view) };
}

/** The SetAssignee answer. */
export function assigneeValue(view: AssigneeView): DocumentValue<typeof SetAssigneeResponse> {
  return { Assignee: view.assignee === null ? null : { Name: view.assignee.name, Email: view.assignee.email } };
}

/**
 * What a SetProjectStatusHistoryReportAs asks for: precisionMs is 1 when Timestamp has at least millisecond digits,
 * else the span its digits cover (1000 for whole seconds). Throws ApiError for a time the service cannot read.
 */
export function reportAsInput(value: DocumentValue<typeof SetProjectStatusHistoryReportAs>): ReportAsInput {
  const text = value.Timestamp;
  const timestamp = parseTimestamp(text);
  if (timestamp === null) {
    throw new ApiError('INVALID_REQUEST', `Timestamp "${text}" is not a date and time such as 2021-04-29T16:50:08-07:00`);
  }
  return {
    statusRef: value.StatusId,
    timestamp,
    precisionMs: fractionPrecision(text),
    reportAs: value.ReportAs.toLowerCase() === 'suppress' ? 'suppress' : 'normal',
  };
}

// A time sent with fewer fraction digits than milliseconds stands for the whole span those digits cover.
function fractionPrecision(text: string): number {
  const digits = /\.(\d+)/.exec(text)?.[1]?.length ?? 0;
  return digits >= 3 ? 1 : 10 ** (3 - digits);
}

/** The reason and message a SetProjectStatusRequest gives (null where it gives none). */
export function moveReasonOf(value: DocumentValue<typeof SetProjectStatusRequest>): MoveReason {
  return { reasonId: value.ReasonId ?? null, message: value.Message ?? null };
}

/** The e-mail address a SetAssigneeRequest names, or null (absent or empty) to clear the assignment. */
export function assigneeEmailOf(value: DocumentValue<typeof SetAssigneeRequest>): string | null {
  return value.AssigneeEmail ? value.AssigneeEmail : null;
}
