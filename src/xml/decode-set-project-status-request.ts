import type { SchemaRegistry } from './schema-registry.ts';
import { collapseWhitespace, readXml } from './xml-reader.ts';

/** Root element of the SetProjectStatus request body. */
export const SET_PROJECT_STATUS_REQUEST = 'SetProjectStatusRequest';

/** What SetProjectStatus asks for: the status to move to, by id or custom id. */
export interface SetProjectStatusInput { statusRef: string }

/** Reads a SetProjectStatusRequest body (StatusId whitespace-collapsed, 1..200 characters). Throws ApiError when refused. */
export function decodeSetProjectStatusRequest(body: string | Uint8Array, ns: string, schemas: SchemaRegistry): SetProjectStatusInput {
  const root = readXml(body, SET_PROJECT_STATUS_REQUEST, ns, schemas);
  return { statusRef: collapseWhitespace(root.attrs['StatusId'] ?? '') };
}
