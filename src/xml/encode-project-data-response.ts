import type { FormDataView } from '../domain/views.ts';
import { projectAttributes, writeCurrentStatus } from './project-attributes.ts';
import { XmlWriter } from './xml-writer.ts';

/** Root element of the GetProjectData answer. */
export const PROJECT_DATA_GET_RESPONSE = 'ProjectDataGetResponse';
/** Root element of the SetProjectData answer. */
export const PROJECT_DATA_SET_RESPONSE = 'ProjectDataSetResponse';

/** Encodes the GetProjectData answer: one form's draft or submitted data. */
export function encodeProjectDataGetResponse(view: FormDataView, ns: string): string {
  return encodeProjectDataResponse(PROJECT_DATA_GET_RESPONSE, view, ns);
}

/** Encodes the SetProjectData answer: the form's data after the change. */
export function encodeProjectDataSetResponse(view: FormDataView, ns: string): string {
  return encodeProjectDataResponse(PROJECT_DATA_SET_RESPONSE, view, ns);
}

/** The body both answers share, under root element `root`. */
export function encodeProjectDataResponse(root: string, view: FormDataView, ns: string): string {
  const w = new XmlWriter(ns).start(root).start('Project', {
    ...projectAttributes(view),
    FormId: view.formId,
    CanSubmit: String(view.canSubmit),
    DataView: view.draft ? 'Draft' : 'Submitted',
  });
  writeCurrentStatus(w, view.currentStatus);
  w.start('DataFields');
  for (const f of view.dataFields) {
    const attrs = { DataFieldId: f.dataFieldId, CustomId: f.customId, Name: f.name };
    if (!f.multiValue) w.empty('DataField', { ...attrs, Value: f.value });
    else if (f.values === null) w.empty('DataField', attrs);
    else {
      w.start('DataField', attrs).start('Values');
      for (const value of f.values) w.element('Value', undefined, value);
      w.end().end();
    }
  }
  w.end().start('Attachments');
  for (const a of view.attachments) {
    w.empty('Attachment', { AttachmentId: a.attachmentId, CustomId: a.customId, Name: a.name, FileName: a.fileName });
  }
  return w.end().end().end().finish();
}
