import { ApiError } from '../../domain/api-error.ts';
import type { DataFieldInput, DataFieldValueView, FormDataView, ProjectDataInput } from '../../domain/views.ts';
import { isoTimestamp } from '../../model/clock.ts';
import {
  boolean, complex, dateTime, type DocumentValue, enumeration, many, maybe, nonNegativeInteger, one, optional, requestDocument, required, responseDocument, restrict, string,
} from '../wire-type.ts';
import { CurrentStatus, currentStatusValue, PROJECT_ATTRIBUTES, withProjectHeader } from './common-types.ts';
import { TableRows, tableRowsInput, tableRowsValue } from './table-rows.ts';

const Values = complex({ children: { Value: many(string) } });

const LOOKUP_STATES = ['verified', 'notFound', 'unavailable'] as const;

/** `<Lookup State Message CheckedAt/>`: what the agency's system said of a looked-up field's value at its last save. */
const FieldLookup = complex({
  name: 'FieldLookup',
  doc: '(apas) What the last lookup at save said of the field\'s value (a connection\'s lookup:, docs/programs.md "Connections"); '
    + 'absent when none was made or the value is empty.',
  attributes: {
    State: required(enumeration('LookupState', [...LOOKUP_STATES], 'verified: the agency\'s system knows the value; notFound: it does not; unavailable: it could not be asked, so the value is kept unverified.')),
    Message: required(string, { doc: 'What the person is told beside the field.' }),
    CheckedAt: required(dateTime),
  },
});

const DataField = complex({
  name: 'DataField',
  doc: 'A single-value field carries Value (absent when empty); a multi-value field carries the Values child instead, '
    + 'a table field the Rows child (absent when it has no rows); a looked-up field the Lookup child.',
  attributes: { DataFieldId: required(string), CustomId: optional(string), Name: required(string), Value: optional(string) },
  children: { Values: maybe(Values), Rows: maybe(TableRows), Lookup: maybe(FieldLookup) },
});

/** A lookup's state as the wire writes it (the stored states are these; any other is left out). */
function lookupValue(lookup: NonNullable<DataFieldValueView['lookup']>) {
  const state = LOOKUP_STATES.find((s) => s === lookup.state);
  return state ? { State: state, Message: lookup.message, CheckedAt: isoTimestamp(lookup.checkedAt) } : null;
}

// One DataField of the answer. Each shape is written out as one literal, its keys in the order JSON answers have
// always had: spreading a shared head into each (`{ ...head, Value, ...lookup }`) took V8's slow path, about 1 µs a
// field, most of building a GetProjectData answer.
function dataFieldValue(f: DataFieldValueView) {
  if (f.rows !== undefined) return { DataFieldId: f.dataFieldId, CustomId: f.customId, Name: f.name, Rows: tableRowsValue(f.rows) };
  if (!f.multiValue) {
    const lookup = f.lookup ? lookupValue(f.lookup) : null;
    if (lookup === null) return { DataFieldId: f.dataFieldId, CustomId: f.customId, Name: f.name, Value: f.value };
    return { DataFieldId: f.dataFieldId, CustomId: f.customId, Name: f.name, Value: f.value, Lookup: lookup };
  }
  if (f.values === null) return { DataFieldId: f.dataFieldId, CustomId: f.customId, Name: f.name };
  return { DataFieldId: f.dataFieldId, CustomId: f.customId, Name: f.name, Values: { Value: f.values } };
}

/** `<Attachment AttachmentId [CustomId] Name [FileName]/>`: an attachment definition and its active file's name. */
export const Attachment = complex({
  name: 'Attachment',
  attributes: { AttachmentId: required(string), CustomId: optional(string), Name: required(string), FileName: optional(string) },
});

const FormDataProject = complex({
  name: 'FormDataProject',
  attributes: {
    ...PROJECT_ATTRIBUTES,
    FormId: required(string),
    CanSubmit: required(boolean),
    DataView: required(enumeration('DataView', ['Draft', 'Submitted'])),
  },
  children: {
    CurrentStatus: one(CurrentStatus),
    DataFields: one(complex({ children: { DataField: many(DataField) } })),
    Attachments: one(complex({ children: { Attachment: many(Attachment) } })),
  },
});

const formDataBody = complex({ children: { Project: one(FormDataProject) } });

/** GetProjectData: the draft or submitted data of one form of a project. */
export const ProjectDataGetResponse = responseDocument('ProjectDataGetResponse', formDataBody,
  'GetProjectData: the draft or submitted data of one form of a project.');

/** SetProjectData: the data of the form after the change (same body as ProjectDataGetResponse). */
export const ProjectDataSetResponse = responseDocument('ProjectDataSetResponse', formDataBody,
  'SetProjectData: the data of the form after the change (same body as ProjectDataGetResponse).');

const RequestDataField = complex({
  name: 'DataField',
  children: { Values: maybe(Values), Rows: maybe(TableRows) },
  attributes: {
    DataFieldId: required(restrict(string, { name: 'DataFieldId', minLength: 1 })),
    Name: optional(string),
    Value: optional(string),
    Instance: optional(nonNegativeInteger),
  },
});

/** SetProjectData's request body. */
export const ProjectDataRequest = requestDocument('ProjectDataRequest', complex({
  children: {
    Project: one(complex({
      attributes: { ProjectId: optional(string), FormId: optional(string) },
      children: { DataFields: maybe(complex({ children: { DataField: many(RequestDataField) } })) },
    })),
  },
}), 'SetProjectData request. A DataField with neither Value nor Values clears the field; Values (even empty) sets a '
  + 'multi-value field; Rows replaces the whole value of a table field (Rows without a Row clears it). The legacy form repeats one DataFieldId with Instance="0", "1", ... and one Value each. '
  + 'Rules XSD 1.0 cannot express (Value and Values together, repeated fields) are checked by the service.');

/** The value of GetProjectData's and SetProjectData's answer for one form's data. */
export function formDataValue(view: FormDataView): DocumentValue<typeof ProjectDataGetResponse> {
  return {
    Project: withProjectHeader(view, {
      FormId: view.formId,
      CanSubmit: view.canSubmit,
      DataView: view.draft ? 'Draft' as const : 'Submitted' as const,
      CurrentStatus: currentStatusValue(view.currentStatus),
      DataFields: { DataField: view.dataFields.map(dataFieldValue) },
      Attachments: {
        Attachment: view.attachments.map((a) => ({ AttachmentId: a.attachmentId, CustomId: a.customId, Name: a.name, FileName: a.fileName })),
      },
    }),
  };
}

interface Instance { index: number; value: string }
interface Pending { dataFieldId: string; single: DataFieldInput | null; instances: Instance[] }
type RequestField = DocumentValue<typeof ProjectDataRequest>['Project']['DataFields'] extends infer L
  ? L extends { DataField: (infer F)[] } ? F : never : never;

/**
 * What a ProjectDataRequest asks for: the optional Project@ProjectId and @FormId, and one input per data field, in
 * order of first appearance. Repeated DataFieldIds with Instance 0, 1, … (the legacy multi-value form) merge into one
 * `values` list ordered by Instance. Throws ApiError (INVALID_REQUEST) for what the schemas cannot express.
 */
export function projectDataInput(value: DocumentValue<typeof ProjectDataRequest>): ProjectDataInput {
  const project = value.Project;
  const byId = new Map<string, Pending>();
  for (const field of project.DataFields?.DataField ?? []) {
    const dataFieldId = field.DataFieldId;
    let pending = byId.get(dataFieldId);
    if (!pending) byId.set(dataFieldId, (pending = { dataFieldId, single: null, instances: [] }));
    if (field.Instance === undefined || field.Instance === null) {
      if (pending.single || pending.instances.length > 0) throw duplicate(dataFieldId);
      pending.single = readField(field, dataFieldId);
    } else {
      if (pending.single) throw duplicate(dataFieldId);
      pending.instances.push(readInstance(field, dataFieldId, field.Instance));
    }
  }
  return {
    projectId: project.ProjectId ?? null,
    formId: project.FormId ?? null,
    fields: [...byId.values()].map((p) => p.single ?? mergeInstances(p)),
  };
}

function readField(field: RequestField, dataFieldId: string): DataFieldInput {
  const value = field.Value ?? undefined;
  if (value !== undefined && field.Values) {
    throw new ApiError('INVALID_REQUEST', `DataField ${dataFieldId} has both a Value attribute and a Values element`);
  }
  if (field.Rows) {
    if (value !== undefined || field.Values) throw new ApiError('INVALID_REQUEST', `DataField ${dataFieldId} has Rows and also a Value or Values`);
    return { dataFieldId, value: null, values: null, rows: tableRowsInput(field.Rows) };
  }
  if (field.Values) return { dataFieldId, value: null, values: field.Values.Value };
  return { dataFieldId, value: value ?? null, values: null };
}

function readInstance(field: RequestField, dataFieldId: string, index: number): Instance {
  if (field.Values || field.Rows || field.Value === undefined || field.Value === null) {
    throw new ApiError('INVALID_REQUEST', `DataField ${dataFieldId} Instance ${index} must carry exactly one Value attribute`);
  }
  return { index, value: field.Value };
}

function mergeInstances(pending: Pending): DataFieldInput {
  const sorted = [...pending.instances].sort((a, b) => a.index - b.index);
  sorted.forEach((entry, i) => {
    if (i > 0 && sorted[i - 1]!.index === entry.index) {
      throw new ApiError('INVALID_REQUEST', `DataField ${pending.dataFieldId} repeats Instance ${entry.index}`);
    }
  });
  return { dataFieldId: pending.dataFieldId, value: null, values: sorted.map((e) => e.value) };
}

function duplicate(dataFieldId: string): ApiError {
  return new ApiError('INVALID_REQUEST', `DataField ${dataFieldId} appears more than once (repeat it only with distinct Instance attributes)`);
}
