import type { InquiryNoteInput } from '../domain/views.ts';
import type { SchemaRegistry } from './schema-registry.ts';
import { childElements, collapseWhitespace, readXml } from './xml-reader.ts';

/** Root element of the SetInquiryNote request body. */
export const SET_INQUIRY_NOTE_REQUEST = 'SetInquiryNoteRequest';

/**
 * Reads a SetInquiryNoteRequest body: ThreadId and Subject whitespace-collapsed (absent gives null), VisibleToApplicant
 * false unless "true", and Text exactly as sent (no trimming; the XML reader keeps every character). Throws ApiError when refused.
 */
export function decodeSetInquiryNoteRequest(body: string | Uint8Array, ns: string, schemas: SchemaRegistry): InquiryNoteInput {
  const root = readXml(body, SET_INQUIRY_NOTE_REQUEST, ns, schemas);
  const [text] = childElements(root, 'Text');
  const threadId = root.attrs['ThreadId'];
  const subject = root.attrs['Subject'];
  return {
    threadId: threadId === undefined ? null : collapseWhitespace(threadId),
    subject: subject === undefined ? null : collapseWhitespace(subject),
    visibleToApplicant: collapseWhitespace(root.attrs['VisibleToApplicant'] ?? '') === 'true',
    text: text?.text ?? '',
  };
}
