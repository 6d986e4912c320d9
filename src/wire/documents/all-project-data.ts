import type { AllProjectDataView } from '../../domain/views.ts';
import { isoTimestamp } from '../../model/clock.ts';
import { complex, type DocumentValue, dateTime, many, maybe, one, optional, required, responseDocument, string } from '../wire-type.ts';
import { CurrentStatus, currentStatusValue, PROJECT_ATTRIBUTES, withProjectHeader } from './common-types.ts';
import { Attachment } from './project-data.ts';
import { TableRows, tableRowsValue } from './table-rows.ts';

const SavedDataField = complex({
  name: 'DataField',
  doc: 'A single-value field carries Value (absent when empty); a multi-value field carries the Values child instead, '
    + 'a table field the Rows child (absent when it has no rows). FormId is the form the value was saved with; ChangedBy the e-mail address of the user who saved it.',
  attributes: {
    DataFieldId: required(string), CustomId: optional(string), Name: required(string), FormId: required(string), Value: optional(string),
    ChangeTimestamp: required(dateTime), ChangedBy: required(string),
  },
  children: { Values: maybe(complex({ children: { Value: many(string) } })), Rows: maybe(TableRows) },
});

/** GetAllProjectData: the latest submitted value of every data field ever saved on the project, across forms. */
export const AllProjectDataResponse = responseDocument('AllProjectDataResponse', complex({
  children: {
    Project: one(complex({
      attributes: PROJECT_ATTRIBUTES,
      children: {
        CurrentStatus: one(CurrentStatus),
        DataFields: one(complex({ children: { DataField: many(SavedDataField) } })),
        Attachments: one(complex({ children: { Attachment: many(Attachment) } })),
      },
    })),
  },
}), 'GetAllProjectData: the latest submitted value of every data field ever saved on the project, across forms.');

/** The value of GetAllProjectData's answer: a multi-value field carries Values (none when cleared), any other Value. */
export function allProjectDataValue(view: AllProjectDataView): DocumentValue<typeof AllProjectDataResponse> {
  return {
    Project: withProjectHeader(view, {
      CurrentStatus: currentStatusValue(view.currentStatus),
      DataFields: {
        DataField: view.dataFields.map((f) => {
          const attrs = {
            DataFieldId: f.dataFieldId, CustomId: f.customId, Name: f.name, FormId: f.formId,
            Value: f.multiValue ? null : f.value, ChangeTimestamp: isoTimestamp(f.changedAt), ChangedBy: f.changedBy,
          };
          // Added to attrs' own new object: a spread of it followed by a member takes V8's slow path (see withProjectHeader).
          if (f.rows !== undefined) return Object.assign(attrs, { Rows: tableRowsValue(f.rows) });
          return f.multiValue && f.values !== null ? Object.assign(attrs, { Values: { Value: f.values } }) : attrs;
        }),
      },
      Attachments: {
        Attachment: view.attachments.map((a) => ({ AttachmentId: a.attachmentId, CustomId: a.customId, Name: a.name, FileName: a.fileName })),
      },
    }),
  };
}
