import { ApiError } from '../../domain/api-error.ts';
import type {
  NewProjectView, OwnerView, ProgramView, ProjectByDataQuery, ProjectSummaryView, ProjectsView, SubmitView,
} from '../../domain/views.ts';
import { isoTimestamp, parseTimestamp } from '../../model/clock.ts';
import {
  complex, type DocumentValue, dateTime, float, many, maybe, one, optional, requestDocument, required, responseDocument, restrict, type SimpleType,
  string, token,
} from '../wire-type.ts';
import { CurrentStatus, currentStatusValue, FormSummary, formSummaryValue, PROJECT_ATTRIBUTES, withProjectHeader } from './common-types.ts';

/** GetPrograms: one Program element per program of the agency. */
export const ProgramsResponse = responseDocument('ProgramsResponse', complex({
  attributes: { RequestTimestamp: optional(dateTime) },
  children: {
    Program: many(complex({
      attributes: {
        ProgramId: required(string), ProgramName: required(string),
        TestOf: optional(string, { doc: 'apas: present only on a test copy of a program, the id of the live program it copies; its answers carry Apas-Test-Program: true.' }),
      },
    })),
  },
}), 'GetPrograms: one Program element per program of the agency.');

/** The GetPrograms answer, stamped with the time of the request. */
export function programsValue(programs: readonly ProgramView[], requestTimestamp: number): DocumentValue<typeof ProgramsResponse> {
  return {
    RequestTimestamp: isoTimestamp(requestTimestamp),
    Program: programs.map((p) => ({ ProgramId: p.programId, ProgramName: p.programName, TestOf: p.testOf })),
  };
}

const PROJECT_SUMMARY_ATTRIBUTES = {
  ProjectId: required(string),
  ProgramId: required(string),
  ProjectNumber: optional(string),
  Status: required(string),
  StatusTimestamp: required(dateTime),
  LastChangeTimestamp: required(dateTime),
} as const;

const ProjectSummary = complex({ attributes: PROJECT_SUMMARY_ATTRIBUTES });

const ExtendedProjectSummary = complex({
  attributes: {
    ...PROJECT_SUMMARY_ATTRIBUTES,
    StatusCustomId: optional(string, {
      doc: 'The interface specification declares StatusCustomId required in the extended variant, yet says it is omitted for '
        + 'some projects (statuses without a custom identifier) and that readers must tolerate its absence. This schema '
        + 'describes what the service actually sends, so the attribute is optional.',
    }),
    StatusPublicId: required(string),
  },
});

/** GetProjects, GetProjectsByNumber and GetProjectsByData, base variant (SchemaVersion 1): six attributes per project. */
export const ProjectsResponse = responseDocument('ProjectsResponse', complex({
  attributes: { SchemaVersion: optional(float), RequestTimestamp: optional(dateTime) },
  children: { Projects: one(complex({ children: { Project: many(ProjectSummary) } })) },
}), 'GetProjects and GetProjectsByNumber, base variant (SchemaVersion 1): six attributes per project.');

/** The extended variant (version 2): root element ProjectsResponse, the base attributes plus the status's ids. */
export const ProjectsResponseExtended = responseDocument('ProjectsResponseExtended', complex({
  attributes: { SchemaVersion: optional(float), RequestTimestamp: optional(dateTime) },
  children: { Projects: one(complex({ children: { Project: many(ExtendedProjectSummary) } })) },
}), 'GetProjects and GetProjectsByNumber, extended variant: the base attributes plus StatusCustomId and StatusPublicId.', 'ProjectsResponse');

function summaryValue(p: ProjectSummaryView) {
  return {
    ProjectId: p.projectId,
    ProgramId: p.programId,
    ProjectNumber: p.projectNumber,
    Status: p.status,
    StatusTimestamp: isoTimestamp(p.statusTimestamp),
    LastChangeTimestamp: isoTimestamp(p.lastChangeTimestamp),
  };
}

/** The base ProjectsResponse of a list of projects (the view's `extended` is not looked at). */
export function projectsValue(view: ProjectsView): DocumentValue<typeof ProjectsResponse> {
  return {
    SchemaVersion: view.schemaVersion,
    RequestTimestamp: isoTimestamp(view.requestTimestamp),
    Projects: { Project: view.projects.map(summaryValue) },
  };
}

/** The extended ProjectsResponse of a list of projects: each also names its status's custom and public ids. */
export function extendedProjectsValue(view: ProjectsView): DocumentValue<typeof ProjectsResponseExtended> {
  return {
    SchemaVersion: view.schemaVersion,
    RequestTimestamp: isoTimestamp(view.requestTimestamp),
    // Added to summaryValue's own new object, as withProjectHeader does: `{ ...summaryValue(p), StatusCustomId, … }`
    // took V8's slow path, 2.3 µs a listed project (five times the rest of its value).
    Projects: { Project: view.projects.map((p) => Object.assign(summaryValue(p), { StatusCustomId: p.statusCustomId, StatusPublicId: p.statusPublicId })) },
  };
}

/** CreateNewProject: the new project, its current status and the forms of its program. */
export const NewProjectResponse = responseDocument('NewProjectResponse', complex({
  children: {
    Project: one(complex({
      attributes: PROJECT_ATTRIBUTES,
      children: { CurrentStatus: one(CurrentStatus), Forms: one(complex({ children: { Form: many(FormSummary) } })) },
    })),
  },
}), 'CreateNewProject: the new project, its current status and the forms of its program.');

/** The CreateNewProject answer. */
export function newProjectValue(view: NewProjectView): DocumentValue<typeof NewProjectResponse> {
  return {
    Project: withProjectHeader(view, {
      CurrentStatus: currentStatusValue(view.currentStatus),
      Forms: { Form: view.forms.map(formSummaryValue) },
    }),
  };
}

/** SubmitProject: the project with its current status (interface specification part 2). */
export const ProjectSubmitResponse = responseDocument('ProjectSubmitResponse', complex({
  children: {
    // A submitted project always has its number, so ProjectNumber is required here.
    Project: one(complex({ attributes: { ...PROJECT_ATTRIBUTES, ProjectNumber: required(string) }, children: { CurrentStatus: one(CurrentStatus) } })),
  },
}), 'SubmitProject: the project with its current status (interface specification part 2).');

/** The SubmitProject answer. */
export function submitValue(view: SubmitView): DocumentValue<typeof ProjectSubmitResponse> {
  return { Project: withProjectHeader(view, { ProjectNumber: view.projectNumber, CurrentStatus: currentStatusValue(view.currentStatus) }) };
}

/** SetProjectOwner's request body: the e-mail address of the user who becomes the owner. */
export const SetProjectOwnerRequest = requestDocument('SetProjectOwnerRequest', complex({
  children: { OwnerEmail: one(restrict(token, { minLength: 1, maxLength: 320 })) },
}), 'SetProjectOwner request: the e-mail address of the user who becomes the owner.');

/** SetProjectOwner: the new owner of the project. */
export const SetProjectOwnerResponse = responseDocument('SetProjectOwnerResponse', complex({
  children: { Owner: one(complex({ attributes: { Name: required(string), Email: required(string) } })) },
}), 'SetProjectOwner: the new owner of the project.');

/** The SetProjectOwner answer. */
export function ownerValue(view: OwnerView): DocumentValue<typeof SetProjectOwnerResponse> {
  return { Owner: { Name: view.name, Email: view.email } };
}

/** GetProjectsByNumber's request body: zero or more project numbers to look up. */
export const ProjectByNumberRequest = requestDocument('ProjectByNumberRequest', complex({
  children: {
    Project: many(complex({
      attributes: {
        ProjectNumber: required(restrict(token, {
          name: 'ProjectNumber', minLength: 1, maxLength: 100, doc: 'xs:token so that a number made only of spaces counts as empty.',
        })),
      },
    })),
  },
}), 'GetProjectsByNumber request: zero or more project numbers to look up.');

/** The project numbers a ProjectByNumberRequest asks for, in document order (duplicates kept, whitespace collapsed). */
export function projectNumbersInput(value: DocumentValue<typeof ProjectByNumberRequest>): string[] {
  return value.Project.map((p) => p.ProjectNumber);
}

/** At most this many FilterByStatusDate elements per GetProjectsByData request. */
export const MAX_STATUS_DATE_FILTERS = 20;
/** At most this many DataFields/Field elements per GetProjectsByData request. */
export const MAX_FIELD_FILTERS = 100;

type StatusDateFilter = ProjectByDataQuery['statusDates'][number];
type FieldFilter = ProjectByDataQuery['fields'][number];

/** A named enumeration over xs:token (its values compared after whitespace is collapsed). */
function tokenEnumeration<const V extends string>(name: string, values: readonly V[]): SimpleType<V> {
  return restrict(token as SimpleType<V>, { name, enumeration: values });
}

const Reference = restrict(token, { name: 'Reference', minLength: 1, maxLength: 200, doc: 'The id or custom id of a status or data field.' });
const Operation = restrict(token, {
  name: 'Operation', pattern: '[Ii][Nn][Cc][Ll][Uu][Dd][Ee]|[Ee][Xx][Cc][Ll][Uu][Dd][Ee]', doc: 'Include or Exclude, in any letter case.',
});
const DateOperator = tokenEnumeration<StatusDateFilter['operator']>('DateOperator', ['lt', 'le', 'gt', 'ge', 'eq']);
const FieldOperator = tokenEnumeration<FieldFilter['operator']>('FieldOperator', ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'contains', 'empty', 'notempty']);

/** GetProjectsByData's request body: filters on the current status, on status times and on data-field values. */
export const ProjectByDataRequest = requestDocument('ProjectByDataRequest', complex({
  children: {
    FilterByCurrentStatuses: maybe(complex({
      attributes: { Operation: required(Operation) },
      children: { Status: many(complex({ attributes: { Id: required(Reference) } }), 1) },
    }), 'Include: projects in one of the statuses; Exclude: projects in none of them.'),
    FilterByStatusDate: many(complex({
      attributes: { Id: required(Reference), DateTime: required(dateTime), Operator: required(DateOperator) },
    }), 0, Number.POSITIVE_INFINITY,
    'Projects whose status Id was set at a time that compares to DateTime by Operator (UTC when DateTime has no offset).'),
    DataFields: maybe(complex({
      children: {
        Field: many(complex({
          attributes: { Id: required(Reference), Content: optional(string), Operator: optional(FieldOperator, { default: 'eq' }) },
        }), 0, Number.POSITIVE_INFINITY, 'Projects whose data field Id compares to Content by Operator (default eq).'),
      },
    })),
  },
}), 'GetProjectsByData request: filters on the current status, on when statuses were set and on data-field values, all '
  + 'combined with AND. Rules XSD 1.0 cannot express are checked by the service: Content is required for every Field '
  + 'operator except empty and notempty (and ignored for those); at most 20 FilterByStatusDate and 100 Field elements.');

type ByDataValue = DocumentValue<typeof ProjectByDataRequest>;

/**
 * The filters a ProjectByDataRequest asks for, in document order. Throws ApiError (INVALID_REQUEST) for what the
 * schemas cannot express: too many filters, a missing Content, or a DateTime that is not a time.
 */
export function projectByDataInput(value: ByDataValue): ProjectByDataQuery {
  const current = value.FilterByCurrentStatuses;
  const dates = value.FilterByStatusDate;
  const fields = value.DataFields?.Field ?? [];
  if (dates.length > MAX_STATUS_DATE_FILTERS) {
    throw new ApiError('INVALID_REQUEST', `at most ${MAX_STATUS_DATE_FILTERS} FilterByStatusDate elements are accepted, got ${dates.length}`);
  }
  if (fields.length > MAX_FIELD_FILTERS) {
    throw new ApiError('INVALID_REQUEST', `at most ${MAX_FIELD_FILTERS} DataFields/Field elements are accepted, got ${fields.length}`);
  }
  return {
    statuses: current ? {
      operation: current.Operation.toLowerCase() === 'exclude' ? 'exclude' : 'include',
      refs: current.Status.map((s) => s.Id),
    } : null,
    statusDates: dates.map(statusDateInput),
    fields: fields.map(fieldInput),
  };
}

function statusDateInput(filter: ByDataValue['FilterByStatusDate'][number]): StatusDateFilter {
  const at = parseTimestamp(filter.DateTime);
  if (at === null) {
    throw new ApiError('INVALID_REQUEST',
      `FilterByStatusDate ${filter.Id}: DateTime "${filter.DateTime}" is not a date and time such as 2017-06-08T18:10:01`);
  }
  return { statusRef: filter.Id, at, operator: filter.Operator };
}

function fieldInput(filter: NonNullable<ByDataValue['DataFields']>['Field'][number]): FieldFilter {
  const operator = filter.Operator ?? 'eq';
  if (operator === 'empty' || operator === 'notempty') return { fieldRef: filter.Id, operator, content: null };
  if (filter.Content === undefined || filter.Content === null) {
    const reason = `Content is required with Operator "${operator}" (only empty and notempty go without it)`;
    throw new ApiError('INVALID_REQUEST', `DataFields/Field ${filter.Id}: ${reason}`);
  }
  return { fieldRef: filter.Id, operator, content: filter.Content };
}
