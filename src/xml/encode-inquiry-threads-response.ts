import type { InquiryThreadsView } from '../domain/views.ts';
import { inquiryThreadAttributes } from './inquiry-thread-attributes.ts';
import { XmlWriter } from './xml-writer.ts';

/** Encodes the GetInquiryThreads answer: `<InquiryThreadsResponse ProjectId><InquiryThread …/>…</…>` in creation order. */
export function encodeInquiryThreadsResponse(view: InquiryThreadsView, ns: string): string {
  const w = new XmlWriter(ns).start('InquiryThreadsResponse', { ProjectId: view.projectId });
  for (const thread of view.threads) w.empty('InquiryThread', inquiryThreadAttributes(thread));
  return w.end().finish();
}
