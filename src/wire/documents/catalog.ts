import type { ColumnSchemaView, CustomListView, FieldSchemaView, FormSchemaView, FormsView, StatusListView } from '../../domain/views.ts';
import {
  boolean, type ComplexType, complex, type DocumentValue, decimal, enumeration, enumValue, many, maybe, nonNegativeInteger, one, optional, required,
  responseDocument, string,
} from '../wire-type.ts';
import { FormSummary, formSummaryValue, StatusRef, statusRefValue } from './common-types.ts';

/** GetForms: the forms of a program, each with the statuses it is available in and the status it leads to. */
export const FormsResponse = responseDocument('FormsResponse', complex({
  attributes: { ProgramId: required(string) },
  children: { Form: many(FormSummary) },
}), 'GetForms: the forms of a program, each with the statuses it is available in and the status it leads to.');

const FieldType = enumeration('FieldType', ['text', 'number', 'integer', 'boolean', 'date', 'choice', 'table']);

const ColumnType = enumeration('ColumnType', ['text', 'number', 'integer', 'boolean', 'date', 'choice']);

const FIELD_ATTRIBUTES = {
  DataFieldId: required(string),
  CustomId: optional(string),
  Name: required(string),
  Type: required(FieldType),
  Required: required(boolean),
  MultiValue: required(boolean),
  Sensitive: required(boolean),
  MaxLength: optional(nonNegativeInteger),
  MinValue: optional(decimal),
  MaxValue: optional(decimal),
  CustomListId: optional(string),
  CustomListCustomId: optional(string),
  MinRows: optional(nonNegativeInteger, { doc: 'Table fields: the fewest rows a submission may have, when set.' }),
  MaxRows: optional(nonNegativeInteger, { doc: 'Table fields: the most rows the table may have, when set.' }),
} as const;

const COLUMN_ATTRIBUTES = {
  CustomId: required(string), Name: required(string), Type: required(ColumnType), Required: required(boolean),
  MaxLength: optional(nonNegativeInteger), MinValue: optional(decimal), MaxValue: optional(decimal),
  CustomListId: optional(string), CustomListCustomId: optional(string),
} as const;

const COLUMN_DOC = 'A column of a table field: rows name their cells by its CustomId. Required: every row of a submission fills it.';

const Column = complex({ name: 'TableColumn', doc: COLUMN_DOC, attributes: COLUMN_ATTRIBUTES });

const DataField = complex({
  name: 'DataField',
  doc: 'MaxLength, MinValue and MaxValue are present when the field has such a limit; CustomListId and CustomListCustomId '
    + 'when its values come from a custom list (GetCustomListChoices gives the choices). A table field (Type table) lists '
    + 'its Columns, and MinRows and MaxRows when set.',
  attributes: FIELD_ATTRIBUTES,
  children: { Columns: maybe(complex({ children: { Column: many(Column) } })) },
});

const Choice = complex({ name: 'Choice', attributes: { Value: required(string), Label: required(string) } });

const Validation = complex({
  name: 'Validation',
  attributes: { Message: required(string, { doc: 'What a person is told when the rule is not met.' }) },
  children: { Rule: one(string, 'A CEL rule the values must meet.') },
});

const FieldRules = complex({
  name: 'FieldRules',
  doc: 'The CEL rules of the field on this form (docs/programs.md): present only when the form sets some.',
  children: {
    VisibleIf: maybe(string, 'The field is shown, checked and submitted only while this rule is true.'),
    RequiredIf: maybe(string, 'The field is required (when shown) while this rule is true.'),
    ReadOnlyIf: maybe(string, 'The field cannot be changed while this rule is true.'),
    Validation: many(Validation),
  },
});

const ColumnV2 = complex({
  name: 'TableColumn', doc: `${COLUMN_DOC} A choice column lists its choices.`, attributes: COLUMN_ATTRIBUTES,
  children: { Choices: maybe(complex({ children: { Choice: many(Choice) } })) },
});

const DataFieldV2 = complex({
  name: 'DataField',
  doc: 'MaxLength, MinValue and MaxValue are present when the field has such a limit; CustomListId and CustomListCustomId '
    + 'when its values come from a custom list, whose choices the Choices child lists. Group is absent for ungrouped fields. '
    + 'A table field (Type table) lists its Columns, and MinRows and MaxRows when set. Formula is present for a '
    + 'calculated field (the service computes its value; a write of it is refused), Rules when the form gives the field rules.',
  attributes: { ...FIELD_ATTRIBUTES, Group: optional(string) },
  children: {
    Choices: maybe(complex({ children: { Choice: many(Choice) } })),
    Columns: maybe(complex({ children: { Column: many(ColumnV2) } })),
    Formula: maybe(string, 'A calculated field\'s CEL formula.'),
    Rules: maybe(FieldRules),
  },
});

const Attachment = complex({
  name: 'Attachment',
  attributes: {
    AttachmentId: required(string), CustomId: optional(string), Name: required(string), Required: required(boolean), MaxSizeBytes: required(nonNegativeInteger),
  },
  children: {
    AllowedTypes: one(complex({ children: { Type: many(string) } }), 'The media types a file may have, for example application/pdf.'),
  },
});

/** The Form of a form schema answer, with the DataField type of its version. */
function schemaForm<F extends ComplexType>(field: F) {
  return complex({
    name: 'Form',
    attributes: { FormId: required(string), CustomId: optional(string), ProgramId: required(string), Name: required(string) },
    children: {
      DataFields: one(complex({ children: { DataField: many(field) } })),
      Attachments: one(complex({ children: { Attachment: many(Attachment) } })),
    },
  });
}

/** GetFormSchema, version 1: the data fields and attachment definitions of one form. */
export const FormSchemaResponse = responseDocument('FormSchemaResponse', complex({
  attributes: { SchemaVersion: required(string, { fixed: '1.0' }) },
  children: { Form: one(schemaForm(DataField)) },
}), 'GetFormSchema, version 1 (SchemaVersion 1.0): the data fields and attachment definitions of one form. Version 2 '
  + '(FormSchemaResponseV2.xsd) adds the Group of each field and the choices of fields with a custom list.');

/** GetFormSchema, version 2: version 1 plus each field's Group and the choices of fields with a custom list (root FormSchemaResponse). */
export const FormSchemaResponseV2 = responseDocument('FormSchemaResponseV2', complex({
  attributes: { SchemaVersion: required(string, { fixed: '2.0' }) },
  children: { Form: one(schemaForm(DataFieldV2)) },
}), 'GetFormSchema, version 2 (SchemaVersion 2.0): version 1 (FormSchemaResponse.xsd) plus the Group of each data field '
  + 'and, for fields with a custom list, its choices inline.', 'FormSchemaResponse');

const CustomListChoice = complex({ attributes: { Value: required(string), Label: required(string) } });

/** GetCustomListChoices: one custom list with its choices in order. */
export const CustomListChoicesResponse = responseDocument('CustomListChoicesResponse', complex({
  children: {
    CustomList: one(complex({
      attributes: { CustomListId: required(string), CustomId: optional(string), Name: required(string) },
      children: { Choice: many(CustomListChoice) },
    })),
  },
}), 'GetCustomListChoices: one custom list with its choices in order.');

const ListedStatus = complex({
  name: 'Status',
  attributes: {
    StatusId: required(string), CustomId: optional(string), PublicId: required(string), Name: required(string), Initial: required(boolean),
  },
  children: {
    NextStatuses: one(complex({ children: { Status: many(StatusRef) } })),
    Reasons: maybe(complex({
      name: 'StatusReasons',
      doc: '(apas) The reasons a move into the status may give (SetProjectStatus\'s ReasonId). Required: every move must give one; '
        + 'RequiredFrom: the statuses from which a move must (a return for correction).',
      attributes: { Required: required(boolean) },
      children: {
        Reason: many(complex({ name: 'StatusReason', attributes: { ReasonId: required(string), Name: required(string) } })),
        RequiredFrom: many(StatusRef),
      },
    }), '(apas) Present when the status lists reasons.'),
  },
});

/** GetStatusList: the workflow statuses of a program, each with the statuses it may move to. */
export const StatusListResponse = responseDocument('StatusListResponse', complex({
  attributes: { ProgramId: required(string) },
  children: { Status: many(ListedStatus) },
}), 'GetStatusList: the workflow statuses of a program, each with the statuses it may move to.');

/** The GetForms answer of a program's forms. */
export function formsValue(view: FormsView): DocumentValue<typeof FormsResponse> {
  return { ProgramId: view.programId, Form: view.forms.map(formSummaryValue) };
}

function fieldAttributes(f: FieldSchemaView) {
  return {
    DataFieldId: f.dataFieldId, CustomId: f.customId, Name: f.name, Type: enumValue(FieldType, f.type),
    Required: f.required, MultiValue: f.multiValue, Sensitive: f.sensitive, MaxLength: f.maxLength,
    MinValue: f.min === null ? null : decimalText(f.min), MaxValue: f.max === null ? null : decimalText(f.max),
    CustomListId: f.list?.listId, CustomListCustomId: f.list?.customId,
    MinRows: f.table?.minRows ?? null, MaxRows: f.table?.maxRows ?? null,
  };
}

function columnAttributes(c: ColumnSchemaView) {
  return {
    CustomId: c.customId, Name: c.name, Type: enumValue(ColumnType, c.type), Required: c.required, MaxLength: c.maxLength,
    MinValue: c.min === null ? null : decimalText(c.min), MaxValue: c.max === null ? null : decimalText(c.max),
    CustomListId: c.list?.listId, CustomListCustomId: c.list?.customId,
  };
}

function choicesValue(list: CustomListView | null) {
  // A long list's rows (loaded from CSV) are not inlined: GetCustomListChoices gives them. Another list's choices are,
  // an empty list's as an empty Choices.
  return list === null || list.long ? null : { Choice: list.choices.map((c) => ({ Value: c.value, Label: c.label })) };
}

/** A version-1 DataField: its attributes and, for a table field, its Columns. */
function fieldValueV1(f: FieldSchemaView) {
  return { ...fieldAttributes(f), Columns: f.table ? { Column: f.table.columns.map(columnAttributes) } : null };
}

function schemaFormValue<F>(view: FormSchemaView, field: (f: FieldSchemaView) => F) {
  const { form } = view;
  return {
    FormId: form.formId, CustomId: form.customId, ProgramId: form.programId, Name: form.name,
    DataFields: { DataField: view.dataFields.map(field) },
    Attachments: {
      Attachment: view.attachments.map((a) => ({
        AttachmentId: a.attachmentId, CustomId: a.customId, Name: a.name, Required: a.required, MaxSizeBytes: a.maxSizeBytes,
        AllowedTypes: { Type: a.allowedTypes },
      })),
    },
  };
}

/** The GetFormSchema answer, version 1 (no Group, no Choices). */
export function formSchemaValue(view: FormSchemaView): DocumentValue<typeof FormSchemaResponse> {
  return { SchemaVersion: '1.0', Form: schemaFormValue(view, fieldValueV1) };
}

/** The GetFormSchema answer, version 2: each field's Group, and the choices of a field with a custom list. */
export function formSchemaV2Value(view: FormSchemaView): DocumentValue<typeof FormSchemaResponseV2> {
  return {
    SchemaVersion: '2.0',
    Form: schemaFormValue(view, (f) => ({
      ...fieldAttributes(f), Group: f.group,
      Choices: choicesValue(f.list),
      Columns: f.table ? { Column: f.table.columns.map((c) => ({ ...columnAttributes(c), Choices: choicesValue(c.list) })) } : null,
      Formula: f.formula,
      Rules: f.rules === null ? null : {
        VisibleIf: f.rules.visibleIf, RequiredIf: f.rules.requiredIf, ReadOnlyIf: f.rules.readOnlyIf,
        Validation: f.rules.validations.map((v) => ({ Message: v.message, Rule: v.rule })),
      },
    })),
  };
}

/** The GetCustomListChoices answer. */
export function customListValue(view: CustomListView): DocumentValue<typeof CustomListChoicesResponse> {
  return {
    CustomList: {
      CustomListId: view.listId, CustomId: view.customId, Name: view.name,
      Choice: view.choices.map((c) => ({ Value: c.value, Label: c.label })),
    },
  };
}

/** The GetStatusList answer. */
export function statusListValue(view: StatusListView): DocumentValue<typeof StatusListResponse> {
  return {
    ProgramId: view.programId,
    Status: view.statuses.map((s) => ({
      StatusId: s.statusId, CustomId: s.customId, PublicId: s.publicId, Name: s.name, Initial: s.initial,
      NextStatuses: { Status: s.next.map(statusRefValue) },
      Reasons: !s.reasons ? null : {
        Required: s.reasons.required,
        Reason: s.reasons.reasons.map((r) => ({ ReasonId: r.customId, Name: r.name })),
        RequiredFrom: s.reasons.requiredFrom.map(statusRefValue),
      },
    })),
  };
}

/** String(n), except that exponent notation (1e+21, 1e-7) is spelled out, which xs:decimal requires. */
function decimalText(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`${n} cannot be written as xs:decimal`);
  const text = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign, lead, fraction = '', exponent] = m;
  const digits = lead! + fraction;
  const point = 1 + Number(exponent);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
