import type { AttachmentReviewInput } from '../domain/views.ts';
import type { SchemaRegistry } from './schema-registry.ts';
import { collapseWhitespace, readXml } from './xml-reader.ts';

/** Root element of the SetAttachmentMetadata request body (the commercial system's name). */
export const SET_ATTACHMENT_METADATA = 'SetAttachmentMetadata';

const ACTIONS: AttachmentReviewInput['action'][] = ['Approve', 'Reject', 'Unmark', 'Save'];

/** Reads a SetAttachmentMetadata body: the action in its canonical spelling, and Note as sent (null when absent). Throws ApiError when refused. */
export function decodeSetAttachmentMetadata(body: string | Uint8Array, ns: string, schemas: SchemaRegistry): AttachmentReviewInput {
  const root = readXml(body, SET_ATTACHMENT_METADATA, ns, schemas);
  const sent = collapseWhitespace(root.attrs['AttachmentStatus'] ?? '').toLowerCase();
  // The schema admits only the four actions, in any case.
  const action = ACTIONS.find((a) => a.toLowerCase() === sent) ?? 'Save';
  return { action, note: root.attrs['Note'] ?? null };
}
