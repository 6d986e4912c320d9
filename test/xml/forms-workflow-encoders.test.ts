import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type {
  AllProjectDataView, AssigneeView, CurrentStatusView, CustomListView, ExportView, FormSchemaView, FormsView, HistoryEntryView, StatusHistoryView,
  StatusListView,StatusSetView 
} from '../../src/domain/views.ts';
import { isoTimestamp } from '../../src/model/clock.ts';
import { AllProjectDataResponse, allProjectDataValue } from '../../src/wire/documents/all-project-data.ts';
import {
  CustomListChoicesResponse, customListValue, FormSchemaResponse, FormSchemaResponseV2, FormsResponse, formSchemaV2Value, formSchemaValue, formsValue,
  StatusListResponse, statusListValue,
} from '../../src/wire/documents/catalog.ts';
import {
  exportTime, exportValue, exportValueV2, ProjectExportDataGetResponse, ProjectExportDataGetResponseV2,
} from '../../src/wire/documents/project-export.ts';
import { NewProjectResponse, newProjectValue } from '../../src/wire/documents/projects.ts';
import {
  assigneeValue, ProjectStatusHistoryResponse, reportAsValue, SetAssigneeResponse, StatusHistoryReportAsResponse, StatusSetResponse, statusHistoryValue,
  statusSetValue,
} from '../../src/wire/documents/workflow.ts';
import { writeXmlDocument } from '../../src/wire/wire-xml-writer.ts';
import { SchemaRegistry } from '../../src/xml/schema-registry.ts';
import { kid, kids, NASTY, NS, type ReadElement, readBack, xmlSafe } from './xml-test-helpers.ts';

const schemas = new SchemaRegistry(NS);
after(() => schemas.dispose());
const encodeAllProjectDataResponse = (view: AllProjectDataView, ns: string) => writeXmlDocument(AllProjectDataResponse, allProjectDataValue(view), ns);
/** The export of `view.version` as the route writes it (version 1 or 2). */
function encodeProjectExportDataGetResponse(view: ExportView, ns: string): string {
  return view.version === 2
    ? writeXmlDocument(ProjectExportDataGetResponseV2, exportValueV2(view), ns)
    : writeXmlDocument(ProjectExportDataGetResponse, exportValue(view), ns);
}

// The documents described in src/wire, written as the encoders they replaced wrote them.
const encodeFormsResponse = (view: FormsView, ns: string) => writeXmlDocument(FormsResponse, formsValue(view), ns);
const encodeFormSchemaResponse = (view: FormSchemaView, ns: string) => (view.version === 2
  ? writeXmlDocument(FormSchemaResponseV2, formSchemaV2Value(view), ns) : writeXmlDocument(FormSchemaResponse, formSchemaValue(view), ns));
const encodeCustomListChoicesResponse = (view: CustomListView, ns: string) => writeXmlDocument(CustomListChoicesResponse, customListValue(view), ns);
const encodeStatusListResponse = (view: StatusListView, ns: string) => writeXmlDocument(StatusListResponse, statusListValue(view), ns);
const encodeProjectStatusHistoryResponse = (view: StatusHistoryView, ns: string) => writeXmlDocument(ProjectStatusHistoryResponse, statusHistoryValue(view), ns);
const encodeStatusSetResponse = (view: StatusSetView, ns: string) => writeXmlDocument(StatusSetResponse, statusSetValue(view), ns);
const encodeStatusHistoryReportAsResponse = (view: HistoryEntryView, ns: string) => writeXmlDocument(StatusHistoryReportAsResponse, reportAsValue(view), ns);
const encodeSetAssigneeResponse = (view: AssigneeView, ns: string) => writeXmlDocument(SetAssigneeResponse, assigneeValue(view), ns);
const encodeNewProjectResponse = (view: Parameters<typeof newProjectValue>[0], ns: string) => writeXmlDocument(NewProjectResponse, newProjectValue(view), ns);

const T1 = Date.UTC(2026, 10, 22, 3, 8, 22, 507);
const T2 = Date.UTC(2027, 0, 1, 0, 0, 0, 0);
const T3 = Date.UTC(2015, 3, 16, 23, 59, 45, 999);

/** Validates `xml` against schema `name` and reads it back; the root is `root` (default: the schema name). */
function valid(name: string, xml: string, root = name): ReadElement {
  assert.deepEqual(schemas.validate(name, xml), [], `${name} must validate:\n${xml}`);
  const el = readBack(xml);
  assert.equal(el.name, root);
  assert.equal(el.namespace, NS);
  return el;
}

/** The attributes expected on an element: null and undefined left out, strings as the writer makes them XML-safe. */
function expected(attrs: Record<string, string | null | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(attrs)) if (value !== null && value !== undefined) out[key] = xmlSafe(value);
  return out;
}

function rejected(name: string, xml: string, ...mentions: string[]): void {
  const errors = schemas.validate(name, xml);
  assert.notDeepEqual(errors, [], `${name} must reject:\n${xml}`);
  for (const m of mentions) assert.ok(errors.some((e) => e.includes(m)), `expected an error about ${m}:\n${errors.join('\n')}`);
}

const status: CurrentStatusView = { statusId: 'st-1', customId: null, name: `Under review ${NASTY}`, timestamp: T1 };
const header = {
  projectId: 'p-1', programId: 'prog-1', projectNumber: null, url: 'https://example.com/projects/p-1?x=1&y=<2>',
  lastChangeTimestamp: T2, currentStatus: status,
};

const forms: FormsView = {
  programId: 'prog-1',
  forms: [
    {
      formId: 'f-1', customId: 'intake', programId: 'prog-1', name: `Intake ${NASTY}`,
      availableInStatuses: [{ statusId: 'st-1', customId: null, name: 'Unsubmitted' }, { statusId: 'st-2', customId: 'REV', name: NASTY }],
      leadsToStatus: { statusId: 'st-2', customId: 'REV', name: 'Review' },
    },
    { formId: 'f-2', customId: null, programId: 'prog-1', name: 'Notes', availableInStatuses: [], leadsToStatus: null },
  ],
};

test('FormsResponse validates and reads back; its Form elements are those of NewProjectResponse', () => {
  const root = valid('FormsResponse', encodeFormsResponse(forms, NS));
  assert.deepEqual(root.attrs, { ProgramId: 'prog-1' });
  const els = kids(root, 'Form');
  assert.equal(els.length, 2);
  forms.forms.forEach((f, i) => {
    const el = els[i]!;
    assert.deepEqual(el.attrs, expected({ FormId: f.formId, CustomId: f.customId, ProgramId: f.programId, Name: f.name }));
    assert.deepEqual(kids(kid(el, 'AvailableInStatuses'), 'Status').map((s) => s.attrs),
      f.availableInStatuses.map((s) => expected({ StatusId: s.statusId, CustomId: s.customId, Name: s.name })));
    const leads = kids(el, 'LeadsToStatus');
    if (f.leadsToStatus === null) assert.equal(leads.length, 0);
    else assert.deepEqual(leads[0]!.attrs, expected({ StatusId: f.leadsToStatus.statusId, CustomId: f.leadsToStatus.customId, Name: f.leadsToStatus.name }));
  });
  const newProject = readBack(encodeNewProjectResponse({ ...header, forms: forms.forms }, NS));
  assert.deepEqual(kids(kid(kid(newProject, 'Project'), 'Forms'), 'Form'), els);
  const empty = encodeFormsResponse({ programId: 'prog-2', forms: [] }, NS);
  assert.deepEqual(valid('FormsResponse', empty).children, []);
  rejected('FormsResponse', empty.replace(' ProgramId="prog-2"', ''), 'ProgramId');
});

const list: CustomListView = {
  listId: 'l-1', customId: 'colours', name: 'Colours & <shades>',
  choices: [{ value: 'red', label: 'Red' }, { value: 'a&b', label: NASTY }, { value: '', label: 'None' }],
};

function schemaView(version: number): FormSchemaView {
  const base = { customId: null, required: false, multiValue: false, sensitive: false, maxLength: null, min: null, max: null, group: null, list: null, formula: null, rules: null };
  return {
    version,
    form: { formId: 'f-1', customId: 'intake', programId: 'prog-1', name: `Intake ${NASTY}` },
    dataFields: [
      { ...base, dataFieldId: 'd-1', customId: 'name', name: `Applicant ${NASTY}`, type: 'text', required: true, maxLength: 200, group: 'Applicant <info>' },
      { ...base, dataFieldId: 'd-2', name: 'Capacity', type: 'number', min: -2.5, max: 1e21, sensitive: true },
      { ...base, dataFieldId: 'd-3', name: 'Tiny', type: 'number', min: 1e-7, max: 0.1 },
      { ...base, dataFieldId: 'd-4', name: 'Panels', type: 'integer', min: 0, max: 500, group: 'Site' },
      { ...base, dataFieldId: 'd-5', name: 'Colours', type: 'choice', multiValue: true, list, group: 'Site' },
      { ...base, dataFieldId: 'd-6', name: 'Kind', type: 'choice', list: { listId: 'l-2', customId: null, name: 'Kinds', choices: [] } },
      { ...base, dataFieldId: 'd-7', name: 'Agreed', type: 'boolean' },
      { ...base, dataFieldId: 'd-8', name: 'Install date', type: 'date', maxLength: 0 },
      { ...base, dataFieldId: 'd-9', name: 'Ratio', type: 'number', formula: 'Panels < 3 && "<&>" != ""' },
      {
        ...base, dataFieldId: 'd-10', name: 'Battery', type: 'number',
        rules: { visibleIf: 'Agreed', requiredIf: null, readOnlyIf: 'role != "applicant"', validations: [{ rule: 'Battery > 0.0', message: `Positive ${NASTY}` }] },
      },
    ],
    attachments: [
      { attachmentId: 'a-1', customId: 'plan', name: 'Site plan', required: true, maxSizeBytes: 10_485_760, allowedTypes: ['application/pdf', 'image/png'] },
      { attachmentId: 'a-2', customId: null, name: `Photo ${NASTY}`, required: false, maxSizeBytes: 0, allowedTypes: [] },
    ],
  };
}

const DECIMALS: Record<string, string> = { '-2.5': '-2.5', '1e+21': '1000000000000000000000', '1e-7': '0.0000001', '0.1': '0.1', '0': '0', '500': '500' };

function assertFormSchema(root: ReadElement, view: FormSchemaView): void {
  const v2 = view.version === 2;
  assert.deepEqual(root.attrs, { SchemaVersion: v2 ? '2.0' : '1.0' });
  const form = kid(root, 'Form');
  assert.deepEqual(form.attrs, expected({ FormId: 'f-1', CustomId: 'intake', ProgramId: 'prog-1', Name: view.form.name }));
  const fields = kids(kid(form, 'DataFields'), 'DataField');
  assert.equal(fields.length, view.dataFields.length);
  view.dataFields.forEach((f, i) => {
    const el = fields[i]!;
    const decimal = (n: number | null) => (n === null ? null : DECIMALS[String(n)]);
    assert.deepEqual(el.attrs, expected({
      DataFieldId: f.dataFieldId, CustomId: f.customId, Name: f.name, Type: f.type,
      Required: String(f.required), MultiValue: String(f.multiValue), Sensitive: String(f.sensitive),
      MaxLength: f.maxLength === null ? null : String(f.maxLength), MinValue: decimal(f.min), MaxValue: decimal(f.max),
      CustomListId: f.list?.listId, CustomListCustomId: f.list?.customId, Group: v2 ? f.group : null,
    }));
    if (!v2) {
      assert.deepEqual(el.children, []);
      return;
    }
    const names = [f.list ? 'Choices' : null, f.formula ? 'Formula' : null, f.rules ? 'Rules' : null].filter((n) => n !== null);
    assert.deepEqual(el.children.map((c) => c.name), names);
    if (f.list) assert.deepEqual(kids(kid(el, 'Choices'), 'Choice').map((c) => c.attrs), f.list.choices.map((c) => expected({ Value: c.value, Label: c.label })));
    if (f.formula) assert.equal(kid(el, 'Formula').text, f.formula);
    if (f.rules) {
      const rules = kid(el, 'Rules');
      const texts = (name: string) => kids(rules, name).map((c) => c.text);
      assert.deepEqual(texts('VisibleIf'), f.rules.visibleIf === null ? [] : [f.rules.visibleIf]);
      assert.deepEqual(texts('RequiredIf'), f.rules.requiredIf === null ? [] : [f.rules.requiredIf]);
      assert.deepEqual(texts('ReadOnlyIf'), f.rules.readOnlyIf === null ? [] : [f.rules.readOnlyIf]);
      assert.deepEqual(kids(rules, 'Validation').map((c) => [c.attrs, kid(c, 'Rule').text]), f.rules.validations.map((v) => [expected({ Message: v.message }), v.rule]));
    }
  });
  const attachments = kids(kid(form, 'Attachments'), 'Attachment');
  assert.equal(attachments.length, view.attachments.length);
  view.attachments.forEach((a, i) => {
    assert.deepEqual(attachments[i]!.attrs, expected({
      AttachmentId: a.attachmentId, CustomId: a.customId, Name: a.name, Required: String(a.required), MaxSizeBytes: String(a.maxSizeBytes),
    }));
    assert.deepEqual(kids(kid(attachments[i]!, 'AllowedTypes'), 'Type').map((t) => t.text), a.allowedTypes);
  });
}

test('FormSchemaResponse version 1 validates against FormSchemaResponse.xsd and reads back without Group or Choices', () => {
  const view = schemaView(1);
  const xml = encodeFormSchemaResponse(view, NS);
  assertFormSchema(valid('FormSchemaResponse', xml), view);
  assert.doesNotMatch(xml, /Group=|<Choices/);
  rejected('FormSchemaResponseV2', xml, 'SchemaVersion');
});

test('FormSchemaResponse version 2 validates against FormSchemaResponseV2.xsd with groups and inline choices', () => {
  const view = schemaView(2);
  const xml = encodeFormSchemaResponse(view, NS);
  assertFormSchema(valid('FormSchemaResponseV2', xml, 'FormSchemaResponse'), view);
  assert.match(xml, /<Choices\/>/);
  const asV1 = xml.replace('SchemaVersion="2.0"', 'SchemaVersion="1.0"');
  rejected('FormSchemaResponse', asV1, 'Group');
  // Version 1 knows a table's Columns but not the inline Choices, Formula or Rules of version 2.
  rejected('FormSchemaResponse', asV1.replace(/ Group="[^"]*"/g, ''), 'Choices', 'not expected');
  rejected('FormSchemaResponse', asV1.replace(/ Group="[^"]*"/g, '').replace(/<Choices\/>|<Choices>.*?<\/Choices>/gs, ''), 'Formula', 'not expected');
  assert.deepEqual(schemas.validate('FormSchemaResponse', asV1.replace(/ Group="[^"]*"/g, '').replace(/<Choices\/>|<Choices>.*?<\/Choices>|<Formula>.*?<\/Formula>|<Rules>.*?<\/Rules>/gs, '')
    .replace(/<DataField ([^>]*[^/])><\/DataField>/g, '<DataField $1/>')), []);
});

test('FormSchemaResponse schemas check types, limits and empty lists', () => {
  const xml = encodeFormSchemaResponse(schemaView(2), NS);
  rejected('FormSchemaResponseV2', xml.replace('Type="date"', 'Type="datetime"'), 'Type');
  rejected('FormSchemaResponseV2', xml.replace('MinValue="-2.5"', 'MinValue="1e3"'), 'MinValue');
  rejected('FormSchemaResponseV2', xml.replace('Required="true"', 'Required="yes"'), 'Required');
  const empty = { ...schemaView(1), dataFields: [], attachments: [] };
  const root = valid('FormSchemaResponse', encodeFormSchemaResponse(empty, NS));
  assert.deepEqual(kid(kid(root, 'Form'), 'DataFields').children, []);
  assert.deepEqual(kid(kid(root, 'Form'), 'Attachments').children, []);
  assert.throws(() => encodeFormSchemaResponse({ ...empty, dataFields: [{ ...schemaView(1).dataFields[0]!, type: 'datetime' }] }, NS), /datetime/);
  const field = schemaView(1).dataFields[1]!;
  assert.throws(() => encodeFormSchemaResponse({ ...empty, dataFields: [{ ...field, max: Number.POSITIVE_INFINITY }] }, NS), /xs:decimal/);
  const tiny = encodeFormSchemaResponse({ ...empty, dataFields: [{ ...field, min: -2.5e-8, max: 1.5e21 }] }, NS);
  assert.deepEqual(kid(kid(kid(valid('FormSchemaResponse', tiny), 'Form'), 'DataFields'), 'DataField').attrs['MinValue'], '-0.000000025');
  assert.match(tiny, /MaxValue="1500000000000000000000"/);
});

test('CustomListChoicesResponse validates and reads back, empty lists included', () => {
  const root = valid('CustomListChoicesResponse', encodeCustomListChoicesResponse(list, NS));
  const el = kid(root, 'CustomList');
  assert.deepEqual(el.attrs, expected({ CustomListId: 'l-1', CustomId: 'colours', Name: list.name }));
  assert.deepEqual(kids(el, 'Choice').map((c) => c.attrs), list.choices.map((c) => expected({ Value: c.value, Label: c.label })));
  const empty = valid('CustomListChoicesResponse', encodeCustomListChoicesResponse({ listId: 'l-2', customId: null, name: 'Empty', choices: [] }, NS));
  assert.deepEqual(kid(empty, 'CustomList'), { name: 'CustomList', namespace: NS, attrs: { CustomListId: 'l-2', Name: 'Empty' }, children: [], text: '' });
});

test('StatusListResponse validates and reads back', () => {
  const view: StatusListView = {
    programId: 'prog-1',
    statuses: [
      {
        statusId: 'st-1', customId: 'NEW', publicId: 'Unsubmitted', name: 'Unsubmitted', initial: true,
        next: [{ statusId: 'st-2', customId: null, name: NASTY }, { statusId: 'st-3', customId: 'DONE', name: 'Approved' }],
      },
      { statusId: 'st-2', customId: null, publicId: `In review ${NASTY}`, name: NASTY, initial: false, next: [] },
    ],
  };
  const root = valid('StatusListResponse', encodeStatusListResponse(view, NS));
  assert.deepEqual(root.attrs, { ProgramId: 'prog-1' });
  const els = kids(root, 'Status');
  assert.equal(els.length, 2);
  view.statuses.forEach((s, i) => {
    assert.deepEqual(els[i]!.attrs, expected({ StatusId: s.statusId, CustomId: s.customId, PublicId: s.publicId, Name: s.name, Initial: String(s.initial) }));
    assert.deepEqual(kids(kid(els[i]!, 'NextStatuses'), 'Status').map((n) => n.attrs),
      s.next.map((n) => expected({ StatusId: n.statusId, CustomId: n.customId, Name: n.name })));
  });
  assert.deepEqual(valid('StatusListResponse', encodeStatusListResponse({ programId: 'p', statuses: [] }, NS)).children, []);
});

test('AllProjectDataResponse validates and reads back with the multi-value rule', () => {
  const view: AllProjectDataView = {
    ...header, projectNumber: 'APP-0042', currentStatus: { ...status, customId: 'UR' },
    dataFields: [
      { dataFieldId: 'd-1', customId: 'name', name: 'Applicant', formId: 'f-1', multiValue: false, value: NASTY, values: null, changedAt: T1, changedBy: 'a@example.com' },
      { dataFieldId: 'd-2', customId: null, name: 'Empty', formId: 'f-1', multiValue: false, value: null, values: null, changedAt: T2, changedBy: `o'brien@example.com` },
      { dataFieldId: 'd-3', customId: null, name: 'Colours', formId: 'f-2', multiValue: true, value: 'ignored', values: ['red', '', NASTY], changedAt: T1, changedBy: 'b@example.com' },
      { dataFieldId: 'd-4', customId: null, name: 'Cleared multi', formId: 'f-2', multiValue: true, value: null, values: null, changedAt: T1, changedBy: 'b@example.com' },
      { dataFieldId: 'd-5', customId: null, name: 'Zero multi', formId: 'f-2', multiValue: true, value: null, values: [], changedAt: T1, changedBy: 'b@example.com' },
      { dataFieldId: 'd-6', customId: null, name: 'Blank', formId: 'f-1', multiValue: false, value: '', values: null, changedAt: T1, changedBy: 'b@example.com' },
    ],
    attachments: [
      { attachmentId: 'a-1', customId: 'plan', name: 'Site plan', fileName: 'plan <v2>.pdf' },
      { attachmentId: 'a-2', customId: null, name: 'Photo', fileName: null },
    ],
  };
  const project = kid(valid('AllProjectDataResponse', encodeAllProjectDataResponse(view, NS)), 'Project');
  assert.deepEqual(project.attrs, expected({
    ProjectId: 'p-1', ProgramId: 'prog-1', ProjectNumber: 'APP-0042', Url: header.url, LastChangeTimestamp: isoTimestamp(T2),
  }));
  assert.deepEqual(kid(project, 'CurrentStatus').attrs, expected({ StatusId: 'st-1', CustomId: 'UR', Name: status.name, Timestamp: isoTimestamp(T1) }));
  const fields = kids(kid(project, 'DataFields'), 'DataField');
  assert.equal(fields.length, view.dataFields.length);
  view.dataFields.forEach((f, i) => {
    const el = fields[i]!;
    assert.deepEqual(el.attrs, expected({
      DataFieldId: f.dataFieldId, CustomId: f.customId, Name: f.name, FormId: f.formId, Value: f.multiValue ? null : f.value,
      ChangeTimestamp: isoTimestamp(f.changedAt), ChangedBy: f.changedBy,
    }));
    if (f.multiValue && f.values !== null) assert.deepEqual(kids(kid(el, 'Values'), 'Value').map((v) => v.text), f.values.map(xmlSafe));
    else assert.deepEqual(el.children, []);
  });
  assert.deepEqual(kids(kid(project, 'Attachments'), 'Attachment').map((a) => a.attrs), view.attachments.map((a) => expected({
    AttachmentId: a.attachmentId, CustomId: a.customId, Name: a.name, FileName: a.fileName,
  })));
  const empty = encodeAllProjectDataResponse({ ...view, dataFields: [], attachments: [] }, NS);
  assert.match(empty, /<DataFields\/><Attachments\/>/);
  valid('AllProjectDataResponse', empty);
  rejected('AllProjectDataResponse', encodeAllProjectDataResponse(view, NS).replace(' FormId="f-1"', ''), 'FormId');
});

const entries: HistoryEntryView[] = [
  { statusId: 'st-2', customId: 'REV', name: NASTY, timestamp: T2, changedBy: `o'brien+x@example.com`, reportAs: 'suppress' },
  { statusId: 'st-1', customId: null, name: 'Unsubmitted', timestamp: T1, changedBy: 'a@example.com', reportAs: 'normal' },
];

function historyAttrs(e: HistoryEntryView): Record<string, string> {
  return expected({ StatusId: e.statusId, CustomId: e.customId, Name: e.name, ChangedBy: e.changedBy, Timestamp: isoTimestamp(e.timestamp), ReportAs: e.reportAs });
}

test('ProjectStatusHistoryResponse validates and reads back; ReportAs is normal or suppress', () => {
  const view: StatusHistoryView = { projectId: 'p-1', programId: 'prog-1', projectNumber: 'APP-7', entries };
  const xml = encodeProjectStatusHistoryResponse(view, NS);
  const project = kid(valid('ProjectStatusHistoryResponse', xml), 'Project');
  assert.deepEqual(project.attrs, { ProjectId: 'p-1', ProgramId: 'prog-1', ProjectNumber: 'APP-7' });
  assert.deepEqual(kids(kid(project, 'StatusHistory'), 'Status').map((s) => s.attrs), entries.map(historyAttrs));
  rejected('ProjectStatusHistoryResponse', xml.replace('ReportAs="suppress"', 'ReportAs="hidden"'), 'ReportAs');
  const empty = valid('ProjectStatusHistoryResponse', encodeProjectStatusHistoryResponse({ ...view, projectNumber: null, entries: [] }, NS));
  assert.deepEqual(kid(empty, 'Project').attrs, { ProjectId: 'p-1', ProgramId: 'prog-1' });
  assert.deepEqual(kid(kid(empty, 'Project'), 'StatusHistory').children, []);
});

test('StatusSetResponse validates and reads back', () => {
  const root = valid('StatusSetResponse', encodeStatusSetResponse({ status: { ...status, customId: 'UR' }, url: header.url }, NS));
  assert.deepEqual(root.children.map((c) => c.name), ['Status', 'Url']);
  assert.deepEqual(kid(root, 'Status').attrs, expected({ StatusId: 'st-1', CustomId: 'UR', Name: status.name, Timestamp: isoTimestamp(T1) }));
  assert.deepEqual(kid(root, 'Url').attrs, { Value: header.url });
  assert.deepEqual(kid(valid('StatusSetResponse', encodeStatusSetResponse({ status, url: 'u' }, NS)), 'Status').attrs,
    expected({ StatusId: 'st-1', Name: status.name, Timestamp: isoTimestamp(T1) }));
});

test('StatusHistoryReportAsResponse validates and reads back', () => {
  for (const entry of entries) {
    const root = valid('StatusHistoryReportAsResponse', encodeStatusHistoryReportAsResponse(entry, NS));
    assert.deepEqual(kid(root, 'Status').attrs, historyAttrs(entry));
  }
});

test('exportTime writes UTC as yyyy-MM-ddTHH-mm-ss', () => {
  assert.equal(exportTime(T3), '2015-04-16T23-59-45');
  assert.equal(exportTime(Date.UTC(2026, 0, 2, 3, 4, 5)), '2026-01-02T03-04-05');
  assert.equal(exportTime(0), '1970-01-01T00-00-00');
});

function exportView(version: number): ExportView {
  return {
    version, projectId: 'p-1', programId: 'prog-1', number: 'APP-0042', owner: `O'Brien <owner@example.com>`, status: NASTY,
    createdAt: T3, createdBy: 'applicant@example.com', lastChangedAt: T1, lastChangedBy: 'editor@example.com',
    forms: [
      {
        formId: 'f-1', customId: 'intake', name: `Intake ${NASTY}`,
        groups: [
          {
            name: 'Applicant',
            fields: [
              { dataFieldId: 'd-1', customId: 'name', name: 'Name', values: [NASTY], changedAt: T1, changedBy: 'a@example.com' },
              { dataFieldId: 'd-2', customId: null, name: 'Never saved', values: [], changedAt: null, changedBy: null },
              { dataFieldId: 'd-3', customId: null, name: 'Colours', values: ['red', '', ' padded '], changedAt: T2, changedBy: 'b@example.com' },
            ],
          },
          { name: null, fields: [{ dataFieldId: 'd-4', customId: null, name: 'Notes', values: ['x'], changedAt: T3, changedBy: null }] },
          { name: 'Empty group', fields: [] },
        ],
      },
      { formId: 'f-2', customId: null, name: 'No fields', groups: [] },
    ],
    history: entries,
    attachments: [
      {
        attachmentId: 'a-1', customId: 'plan', name: 'Site plan', fileName: 'plan <v2>.pdf', formId: 'f-1', fileSize: 23485, contentType: 'application/pdf',
        sha256: 'b'.repeat(64), version: 2, uploadedBy: 'a@example.com', uploadedAt: T2, approvalStatus: 'Approved', note: NASTY,
      },
      { attachmentId: 'a-2', customId: null, name: 'Photo', fileName: null },
    ],
  };
}

function assertExport(root: ReadElement, view: ExportView): void {
  assert.deepEqual(root.attrs, { SchemaVersion: view.version === 2 ? '2.0' : '1.0' });
  const project = kid(root, 'Project');
  assert.deepEqual(project.children.map((c) => c.name), ['Data', 'StatusHistory', 'Attachments']);
  assert.deepEqual(project.attrs, expected({
    ProjectId: view.projectId, ProgramId: view.programId, Number: view.number, Owner: view.owner, Status: view.status,
    CreatedUTC: exportTime(view.createdAt), CreatedBy: view.createdBy, LastChangedUTC: exportTime(view.lastChangedAt), LastChangedBy: view.lastChangedBy,
  }));
  const formEls = kids(kid(project, 'Data'), 'Form');
  assert.equal(formEls.length, view.forms.length);
  view.forms.forEach((form, i) => {
    assert.deepEqual(formEls[i]!.attrs, expected({ FormId: form.formId, CustomId: form.customId, Name: form.name }));
    const groupEls = kids(formEls[i]!, 'Group');
    assert.equal(groupEls.length, form.groups.length);
    form.groups.forEach((group, j) => {
      assert.deepEqual(groupEls[j]!.attrs, expected({ Name: group.name }));
      const fieldEls = kids(groupEls[j]!, 'Field');
      assert.equal(fieldEls.length, group.fields.length);
      group.fields.forEach((f, k) => {
        assert.deepEqual(fieldEls[k]!.attrs, expected({
          DataFieldId: f.dataFieldId, CustomId: f.customId, Name: f.name,
          ChangeTime: f.changedAt === null ? null : exportTime(f.changedAt), ChangedBy: f.changedBy,
        }));
        assert.deepEqual(kids(fieldEls[k]!, 'CurrentValue').map((v) => v.text), f.values.map(xmlSafe));
      });
    });
  });
  assert.deepEqual(kids(kid(project, 'StatusHistory'), 'Status').map((s) => s.attrs), view.history.map((e) => expected({
    StatusId: e.statusId, CustomId: e.customId, Name: e.name, Timestamp: isoTimestamp(e.timestamp), ReportAs: e.reportAs,
    ChangedBy: view.version === 2 ? e.changedBy : null,
  })));
  assert.deepEqual(kids(kid(project, 'Attachments'), 'Attachment').map((a) => a.attrs), view.attachments.map((a) => expected({
    AttachmentId: a.attachmentId, CustomId: a.customId, Name: a.name, FileName: a.fileName, FormId: a.formId ?? null,
    FileSize: a.fileSize === undefined ? null : String(a.fileSize), ContentType: a.contentType ?? null, Sha256: a.sha256 ?? null,
    Version: a.version === undefined ? null : String(a.version), UploadedBy: a.uploadedBy ?? null,
    UploadedUTC: a.uploadedAt === undefined ? null : exportTime(a.uploadedAt), ApprovalStatus: a.approvalStatus ?? null, Note: a.note ?? null,
  })));
}

test('ProjectExportDataGetResponse version 1 validates and reads back without ChangedBy in the history', () => {
  const view = exportView(1);
  const xml = encodeProjectExportDataGetResponse(view, NS);
  assertExport(valid('ProjectExportDataGetResponse', xml), view);
  assert.match(xml, /CreatedUTC="2015-04-16T23-59-45"/);
  rejected('ProjectExportDataGetResponseV2', xml, 'ChangedBy');
});

test('ProjectExportDataGetResponse version 2 validates against the V2 schema; the V1 schema refuses its ChangedBy', () => {
  const view = exportView(2);
  const xml = encodeProjectExportDataGetResponse(view, NS);
  assertExport(valid('ProjectExportDataGetResponseV2', xml, 'ProjectExportDataGetResponse'), view);
  rejected('ProjectExportDataGetResponse', xml.replace('SchemaVersion="2.0"', 'SchemaVersion="1.0"'), 'ChangedBy');
});

test('ProjectExportDataGetResponse: the hyphenated times are checked, optional parts omitted, empty lists kept', () => {
  const xml = encodeProjectExportDataGetResponse(exportView(1), NS);
  rejected('ProjectExportDataGetResponse', xml.replace('CreatedUTC="2015-04-16T23-59-45"', `CreatedUTC="${isoTimestamp(T3)}"`), 'CreatedUTC');
  rejected('ProjectExportDataGetResponse', xml.replace(/ChangeTime="[^"]*"/, 'ChangeTime="2015-04-16T23:59:45"'), 'ChangeTime');
  rejected('ProjectExportDataGetResponse', xml.replace(/(<StatusHistory><Status [^>]*Timestamp=")[^"]*/, '$12015-04-16T23-59-45'), 'Timestamp');
  const bare: ExportView = { ...exportView(1), number: null, forms: [], history: [], attachments: [] };
  const out = encodeProjectExportDataGetResponse(bare, NS);
  assert.match(out, /<Data\/><StatusHistory\/><Attachments\/>/);
  assertExport(valid('ProjectExportDataGetResponse', out), bare);
});

test('SetAssigneeResponse validates with and without an assignee', () => {
  const root = valid('SetAssigneeResponse', encodeSetAssigneeResponse({ assignee: { name: `O'Brien & <Sons>`, email: 'o@example.com' } }, NS));
  assert.deepEqual(kid(root, 'Assignee').attrs, { Name: `O'Brien & <Sons>`, Email: 'o@example.com' });
  const cleared = encodeSetAssigneeResponse({ assignee: null }, NS);
  assert.match(cleared, /<SetAssigneeResponse xmlns="[^"]*"\/>$/);
  assert.deepEqual(valid('SetAssigneeResponse', cleared).children, []);
});

test('every new schema is in the registry', () => {
  const names = schemas.list();
  for (const name of [
    'AllProjectDataResponse', 'CustomListChoicesResponse', 'FormSchemaResponse', 'FormSchemaResponseV2', 'FormsResponse',
    'ProjectByDataRequest', 'ProjectExportDataGetResponse', 'ProjectExportDataGetResponseV2', 'ProjectStatusHistoryResponse',
    'SetAssigneeRequest', 'SetAssigneeResponse', 'SetProjectStatusHistoryReportAs', 'SetProjectStatusRequest',
    'StatusHistoryReportAsResponse', 'StatusListResponse', 'StatusSetResponse',
  ]) assert.ok(names.includes(name), name);
});
