import type { InquiryStatus } from '../model/inquiry.ts';
import type { SchemaRegistry } from './schema-registry.ts';
import { collapseWhitespace, readXml } from './xml-reader.ts';

/** Root element of the SetInquiryThreadStatus request body. */
export const SET_INQUIRY_THREAD_STATUS_REQUEST = 'SetInquiryThreadStatusRequest';

/** Reads a SetInquiryThreadStatusRequest body; the XSD admits only the four statuses. Throws ApiError when refused. */
export function decodeSetInquiryThreadStatusRequest(body: string | Uint8Array, ns: string, schemas: SchemaRegistry): { status: InquiryStatus } {
  const root = readXml(body, SET_INQUIRY_THREAD_STATUS_REQUEST, ns, schemas);
  return { status: collapseWhitespace(root.attrs['Status'] ?? '') as InquiryStatus };
}
