import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { ApiError, ERROR_STATUS, type ErrorCode } from '../../src/domain/api-error.ts';
import type { CurrentStatusView, FormDataView, NewProjectView, OwnerView, ProgramView, SubmitView } from '../../src/domain/views.ts';
import { isoTimestamp } from '../../src/model/clock.ts';
import { ErrorResponse, errorValue } from '../../src/wire/documents/error-response.ts';
import { formDataValue, ProjectDataGetResponse, ProjectDataSetResponse } from '../../src/wire/documents/project-data.ts';
import {
  NewProjectResponse, newProjectValue, ownerValue, ProgramsResponse, ProjectSubmitResponse, programsValue, SetProjectOwnerResponse, submitValue,
} from '../../src/wire/documents/projects.ts';
import { writeXmlDocument } from '../../src/wire/wire-xml-writer.ts';
import { SchemaRegistry } from '../../src/xml/schema-registry.ts';
import { kid, kids, NASTY, NS, type ReadElement, readBack, xmlSafe } from './xml-test-helpers.ts';

const schemas = new SchemaRegistry(NS);
const encodeErrorResponse = (error: ApiError, ns: string, requestId?: string) => writeXmlDocument(ErrorResponse, errorValue(error, requestId), ns);
const encodeProjectDataGetResponse = (view: FormDataView, ns: string) => writeXmlDocument(ProjectDataGetResponse, formDataValue(view), ns);
const encodeProjectDataSetResponse = (view: FormDataView, ns: string) => writeXmlDocument(ProjectDataSetResponse, formDataValue(view), ns);
const encodeProgramsResponse = (programs: ProgramView[], at: number, ns: string) => writeXmlDocument(ProgramsResponse, programsValue(programs, at), ns);
const encodeNewProjectResponse = (view: NewProjectView, ns: string) => writeXmlDocument(NewProjectResponse, newProjectValue(view), ns);
const encodeSetProjectOwnerResponse = (view: OwnerView, ns: string) => writeXmlDocument(SetProjectOwnerResponse, ownerValue(view), ns);
const encodeProjectSubmitResponse = (view: SubmitView, ns: string) => writeXmlDocument(ProjectSubmitResponse, submitValue(view), ns);
after(() => schemas.dispose());

const T1 = Date.UTC(2026, 10, 22, 3, 8, 22, 507);
const T2 = Date.UTC(2027, 0, 1, 0, 0, 0, 0);

const status: CurrentStatusView = { statusId: 'st-1', customId: null, name: `Under review ${NASTY}`, timestamp: T1 };
const header = {
  projectId: 'p-1', programId: 'prog-1', projectNumber: null, url: 'https://example.com/projects/p-1?x=1&y=<2>',
  lastChangeTimestamp: T2, currentStatus: status,
};

function valid(name: string, xml: string): ReadElement {
  assert.deepEqual(schemas.validate(name, xml), [], `${name} must validate:\n${xml}`);
  const root = readBack(xml);
  assert.equal(root.name, name.replace(/Extended$/, ''));
  assert.equal(root.namespace, NS);
  return root;
}

function assertStatus(el: ReadElement, s: CurrentStatusView): void {
  assert.equal(el.attrs['StatusId'], s.statusId);
  assert.equal(el.attrs['CustomId'], s.customId === null ? undefined : xmlSafe(s.customId));
  assert.equal(el.attrs['Name'], xmlSafe(s.name));
  assert.equal(el.attrs['Timestamp'], isoTimestamp(s.timestamp));
}

test('ProgramsResponse validates and reads back', () => {
  const programs = [
    { programId: 'a', programName: 'Solar <rebates> & "more"', testOf: null },
    { programId: 'b', programName: NASTY, testOf: 'a' },
  ];
  const root = valid('ProgramsResponse', encodeProgramsResponse(programs, T1, NS));
  assert.equal(root.attrs['RequestTimestamp'], '2026-11-22T03:08:22.507+00:00');
  assert.deepEqual(kids(root, 'Program').map((p) => p.attrs), programs.map((p) => ({ ProgramId: p.programId, ProgramName: xmlSafe(p.programName), ...(p.testOf ? { TestOf: p.testOf } : {}) })));
  valid('ProgramsResponse', encodeProgramsResponse([], T1, NS));
});

test('NewProjectResponse validates and reads back, optional parts omitted when null', () => {
  const view: NewProjectView = {
    ...header,
    forms: [
      {
        formId: 'f-1', customId: 'intake', programId: 'prog-1', name: 'Intake & "eligibility"',
        availableInStatuses: [{ statusId: 'st-1', customId: null, name: 'Unsubmitted' }, { statusId: 'st-2', customId: 'REV', name: NASTY }],
        leadsToStatus: { statusId: 'st-2', customId: 'REV', name: 'Review' },
      },
      { formId: 'f-2', customId: null, programId: 'prog-1', name: 'Notes', availableInStatuses: [], leadsToStatus: null },
    ],
  };
  const root = valid('NewProjectResponse', encodeNewProjectResponse(view, NS));
  const project = kid(root, 'Project');
  assert.deepEqual(project.attrs, { ProjectId: 'p-1', ProgramId: 'prog-1', Url: header.url, LastChangeTimestamp: isoTimestamp(T2) });
  assertStatus(kid(project, 'CurrentStatus'), status);
  const forms = kids(kid(project, 'Forms'), 'Form');
  assert.deepEqual(forms.map((f) => f.attrs), [
    { FormId: 'f-1', CustomId: 'intake', ProgramId: 'prog-1', Name: 'Intake & "eligibility"' },
    { FormId: 'f-2', ProgramId: 'prog-1', Name: 'Notes' },
  ]);
  assert.deepEqual(kids(kid(forms[0]!, 'AvailableInStatuses'), 'Status').map((s) => s.attrs), [
    { StatusId: 'st-1', Name: 'Unsubmitted' },
    { StatusId: 'st-2', CustomId: 'REV', Name: xmlSafe(NASTY) },
  ]);
  assert.deepEqual(kid(forms[0]!, 'LeadsToStatus').attrs, { StatusId: 'st-2', CustomId: 'REV', Name: 'Review' });
  assert.equal(kids(forms[1]!, 'LeadsToStatus').length, 0);
  assert.equal(kids(kid(forms[1]!, 'AvailableInStatuses'), 'Status').length, 0);
  valid('NewProjectResponse', encodeNewProjectResponse({ ...view, projectNumber: 'APP-0001', forms: [] }, NS));
});

const formData: FormDataView = {
  ...header,
  projectNumber: 'APP-0042',
  currentStatus: { ...status, customId: 'UR' },
  formId: 'f-1', draft: true, canSubmit: false,
  dataFields: [
    { dataFieldId: 'd-1', customId: 'name', name: 'Applicant name', multiValue: false, value: NASTY, values: null },
    { dataFieldId: 'd-2', customId: null, name: 'Empty single', multiValue: false, value: null, values: null },
    { dataFieldId: 'd-3', customId: 'colors', name: 'Colours', multiValue: true, value: null, values: ['red', '', ' padded ', NASTY, '007'] },
    { dataFieldId: 'd-4', customId: null, name: 'Empty multi', multiValue: true, value: null, values: null },
    { dataFieldId: 'd-5', customId: null, name: 'Zero multi', multiValue: true, value: null, values: [] },
    { dataFieldId: 'd-6', customId: null, name: 'Blank', multiValue: false, value: '', values: null },
  ],
  attachments: [
    { attachmentId: 'a-1', customId: 'plan', name: 'Site plan', fileName: 'plan <v2>.pdf' },
    { attachmentId: 'a-2', customId: null, name: 'Photo', fileName: null },
  ],
};

function assertFormData(root: ReadElement, view: FormDataView): void {
  const project = kid(root, 'Project');
  assert.deepEqual(project.attrs, {
    ProjectId: view.projectId, ProgramId: view.programId, ...(view.projectNumber === null ? {} : { ProjectNumber: view.projectNumber }),
    Url: view.url, LastChangeTimestamp: isoTimestamp(view.lastChangeTimestamp), FormId: view.formId,
    CanSubmit: String(view.canSubmit), DataView: view.draft ? 'Draft' : 'Submitted',
  });
  assertStatus(kid(project, 'CurrentStatus'), view.currentStatus);
  const fields = kids(kid(project, 'DataFields'), 'DataField');
  assert.equal(fields.length, view.dataFields.length);
  view.dataFields.forEach((f, i) => {
    const el = fields[i]!;
    assert.equal(el.attrs['DataFieldId'], f.dataFieldId);
    assert.equal(el.attrs['CustomId'], f.customId ?? undefined);
    assert.equal(el.attrs['Name'], f.name);
    if (f.multiValue) {
      assert.equal(el.attrs['Value'], undefined);
      const values = kids(el, 'Values');
      if (f.values === null) assert.equal(values.length, 0);
      else assert.deepEqual(kids(values[0]!, 'Value').map((v) => v.text), f.values.map(xmlSafe));
    } else {
      assert.equal(el.attrs['Value'], f.value === null ? undefined : xmlSafe(f.value));
      assert.equal(el.children.length, 0);
    }
  });
  const attachments = kids(kid(project, 'Attachments'), 'Attachment');
  assert.deepEqual(attachments.map((a) => a.attrs), view.attachments.map((a) => ({
    AttachmentId: a.attachmentId, ...(a.customId === null ? {} : { CustomId: a.customId }), Name: a.name,
    ...(a.fileName === null ? {} : { FileName: a.fileName }),
  })));
}

test('ProjectDataGetResponse and ProjectDataSetResponse validate and read back', () => {
  assertFormData(valid('ProjectDataGetResponse', encodeProjectDataGetResponse(formData, NS)), formData);
  const submitted = { ...formData, draft: false, canSubmit: true, projectNumber: null };
  assertFormData(valid('ProjectDataSetResponse', encodeProjectDataSetResponse(submitted, NS)), submitted);
});

test('ProjectData responses keep empty DataFields and Attachments', () => {
  const empty = { ...formData, dataFields: [], attachments: [] };
  const xml = encodeProjectDataGetResponse(empty, NS);
  assert.match(xml, /<DataFields\/>/);
  assert.match(xml, /<Attachments\/>/);
  assertFormData(valid('ProjectDataGetResponse', xml), empty);
  assert.notDeepEqual(schemas.validate('ProjectDataGetResponse', xml.replace('<DataFields/>', '')), []);
});

test('the two ProjectData roots are not interchangeable', () => {
  assert.notDeepEqual(schemas.validate('ProjectDataSetResponse', encodeProjectDataGetResponse(formData, NS)), []);
});

test('SetProjectOwnerResponse validates and reads back', () => {
  const root = valid('SetProjectOwnerResponse', encodeSetProjectOwnerResponse({ name: `O'Brien & <Sons>`, email: 'o@example.com' }, NS));
  assert.deepEqual(kid(root, 'Owner').attrs, { Name: `O'Brien & <Sons>`, Email: 'o@example.com' });
});

test('ProjectSubmitResponse validates and reads back; ProjectNumber is required by its schema', () => {
  const view: SubmitView = { ...header, projectNumber: 'APP-0042', currentStatus: { ...status, customId: 'SUB' } };
  const xml = encodeProjectSubmitResponse(view, NS);
  const project = kid(valid('ProjectSubmitResponse', xml), 'Project');
  assert.deepEqual(project.attrs, { ProjectId: 'p-1', ProgramId: 'prog-1', ProjectNumber: 'APP-0042', Url: header.url, LastChangeTimestamp: isoTimestamp(T2) });
  assertStatus(kid(project, 'CurrentStatus'), view.currentStatus);
  assert.notDeepEqual(schemas.validate('ProjectSubmitResponse', xml.replace(' ProjectNumber="APP-0042"', '')), []);
});

test('ErrorResponse validates with field problems and a request id, and without them', () => {
  const error = new ApiError('VALIDATION_FAILED', `bad data: ${NASTY}`, {
    fields: [
      { dataFieldId: 'd-1', customId: 'name', name: 'Applicant name', code: 'REQUIRED', message: 'is required' },
      { dataFieldId: 'x<y', code: 'UNKNOWN_FIELD', message: 'no such field' },
      { dataFieldId: 'd-2', customId: null, code: 'TOO_LONG', message: 'too long' },
    ],
  });
  const root = valid('ErrorResponse', encodeErrorResponse(error, NS, 'req-7'));
  assert.deepEqual(root.attrs, { Code: 'VALIDATION_FAILED', Status: '422', Message: xmlSafe(error.message), RequestId: 'req-7' });
  assert.deepEqual(kids(root, 'FieldError').map((f) => f.attrs), [
    { DataFieldId: 'd-1', CustomId: 'name', Name: 'Applicant name', Code: 'REQUIRED', Message: 'is required' },
    { DataFieldId: 'x<y', Code: 'UNKNOWN_FIELD', Message: 'no such field' },
    { DataFieldId: 'd-2', Code: 'TOO_LONG', Message: 'too long' },
  ]);
  for (const code of Object.keys(ERROR_STATUS) as ErrorCode[]) {
    const r = valid('ErrorResponse', encodeErrorResponse(new ApiError(code, 'x'), NS));
    assert.deepEqual(r.attrs, { Code: code, Status: String(ERROR_STATUS[code]), Message: 'x' });
  }
});

test('the ErrorResponse Code enumeration lists exactly the keys of ERROR_STATUS', () => {
  const source = schemas.source('ErrorResponse');
  const type = /<xs:simpleType name="ErrorCode">([\s\S]*?)<\/xs:simpleType>/.exec(source)?.[1] ?? '';
  const listed = [...type.matchAll(/<xs:enumeration value="([^"]+)"\/>/g)].map((m) => m[1]);
  assert.deepEqual([...listed].sort(), Object.keys(ERROR_STATUS).sort());
  assert.equal(new Set(listed).size, listed.length);
  const bogus = encodeErrorResponse(new ApiError('NOT_FOUND', 'x'), NS).replace('Code="NOT_FOUND"', 'Code="NOPE"');
  assert.notDeepEqual(schemas.validate('ErrorResponse', bogus), []);
});
