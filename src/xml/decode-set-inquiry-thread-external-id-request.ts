import type { SchemaRegistry } from './schema-registry.ts';
import { collapseWhitespace, readXml } from './xml-reader.ts';

/** Root element of the SetInquiryThreadExternalId request body. */
export const SET_INQUIRY_THREAD_EXTERNAL_ID_REQUEST = 'SetInquiryThreadExternalIdRequest';

/** Reads a SetInquiryThreadExternalIdRequest body (ExternalId whitespace-collapsed; absent or empty gives null). Throws ApiError when refused. */
export function decodeSetInquiryThreadExternalIdRequest(body: string | Uint8Array, ns: string, schemas: SchemaRegistry): { externalId: string | null } {
  const root = readXml(body, SET_INQUIRY_THREAD_EXTERNAL_ID_REQUEST, ns, schemas);
  const value = collapseWhitespace(root.attrs['ExternalId'] ?? '');
  return { externalId: value === '' ? null : value };
}
