import { childElements, collapseWhitespace, readXml } from './xml-reader.ts';
import type { SchemaRegistry } from './schema-registry.ts';

/** Root element of the GetProjectsByNumber request body. */
export const PROJECT_BY_NUMBER_REQUEST = 'ProjectByNumberRequest';

/**
 * Reads a ProjectByNumberRequest body into its project numbers, in document order (duplicates kept),
 * whitespace collapsed as the schema's xs:token does. Throws ApiError when the body is refused.
 */
export function decodeProjectByNumberRequest(body: string | Uint8Array, ns: string, schemas: SchemaRegistry): string[] {
  const root = readXml(body, PROJECT_BY_NUMBER_REQUEST, ns, schemas);
  return childElements(root, 'Project').map((p) => collapseWhitespace(p.attrs['ProjectNumber'] ?? ''));
}
