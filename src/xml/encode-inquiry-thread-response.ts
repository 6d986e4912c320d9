import type { InquiryThreadSetView } from '../domain/views.ts';
import { inquiryThreadAttributes } from './inquiry-thread-attributes.ts';
import { XmlWriter } from './xml-writer.ts';

/** Encodes the SetInquiryThreadStatus and SetInquiryThreadExternalId answer: `<InquiryThreadResponse ProjectId><InquiryThread …/></…>`. */
export function encodeInquiryThreadResponse(view: InquiryThreadSetView, ns: string): string {
  return new XmlWriter(ns).start('InquiryThreadResponse', { ProjectId: view.projectId })
    .empty('InquiryThread', inquiryThreadAttributes(view.thread))
    .end().finish();
}
