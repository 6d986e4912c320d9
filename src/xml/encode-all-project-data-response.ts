import { isoTimestamp } from '../model/clock.ts';
import type { AllProjectDataView } from '../domain/views.ts';
import { projectAttributes, writeCurrentStatus } from './project-attributes.ts';
import { XmlWriter } from './xml-writer.ts';

/** Encodes the GetAllProjectData answer: the latest saved value of every field across forms, with who changed it when. */
export function encodeAllProjectDataResponse(view: AllProjectDataView, ns: string): string {
  const w = new XmlWriter(ns).start('AllProjectDataResponse').start('Project', projectAttributes(view));
  writeCurrentStatus(w, view.currentStatus);
  w.start('DataFields');
  for (const f of view.dataFields) {
    const attrs = {
      DataFieldId: f.dataFieldId, CustomId: f.customId, Name: f.name, FormId: f.formId,
      Value: f.multiValue ? null : f.value, ChangeTimestamp: isoTimestamp(f.changedAt), ChangedBy: f.changedBy,
    };
    if (!f.multiValue || f.values === null) w.empty('DataField', attrs);
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
