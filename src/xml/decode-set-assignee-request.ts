import type { SchemaRegistry } from './schema-registry.ts';
import { childElements, collapseWhitespace, readXml } from './xml-reader.ts';

/** Root element of the SetAssignee request body. */
export const SET_ASSIGNEE_REQUEST = 'SetAssigneeRequest';

/** What SetAssignee asks for: the new assignee's e-mail address, or null to clear the assignment. */
export interface SetAssigneeInput { assigneeEmail: string | null }

/** Reads a SetAssigneeRequest body (AssigneeEmail whitespace-collapsed; absent or empty gives null). Throws ApiError when refused. */
export function decodeSetAssigneeRequest(body: string | Uint8Array, ns: string, schemas: SchemaRegistry): SetAssigneeInput {
  const root = readXml(body, SET_ASSIGNEE_REQUEST, ns, schemas);
  const [email] = childElements(root, 'AssigneeEmail');
  const text = collapseWhitespace(email?.text ?? '');
  return { assigneeEmail: text === '' ? null : text };
}
