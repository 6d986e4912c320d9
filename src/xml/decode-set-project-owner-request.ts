import { childElements, collapseWhitespace, readXml } from './xml-reader.ts';
import type { SchemaRegistry } from './schema-registry.ts';

/** Root element of the SetProjectOwner request body. */
export const SET_PROJECT_OWNER_REQUEST = 'SetProjectOwnerRequest';

/** What SetProjectOwner asks for. */
export interface SetProjectOwnerInput { ownerEmail: string }

/** Reads a SetProjectOwnerRequest body (OwnerEmail trimmed, 1..320 characters). Throws ApiError when refused. */
export function decodeSetProjectOwnerRequest(body: string | Uint8Array, ns: string, schemas: SchemaRegistry): SetProjectOwnerInput {
  const root = readXml(body, SET_PROJECT_OWNER_REQUEST, ns, schemas);
  const [email] = childElements(root, 'OwnerEmail');
  return { ownerEmail: collapseWhitespace(email?.text ?? '') };
}
