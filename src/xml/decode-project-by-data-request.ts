import { ApiError } from '../domain/api-error.ts';
import { parseTimestamp } from '../model/clock.ts';
import type { ProjectByDataQuery } from '../domain/views.ts';
import type { SchemaRegistry } from './schema-registry.ts';
import { childElements, collapseWhitespace, readXml, type XmlElementNode } from './xml-reader.ts';

/** Root element of the GetProjectsByData request body. */
export const PROJECT_BY_DATA_REQUEST = 'ProjectByDataRequest';
/** At most this many FilterByStatusDate elements per request. */
export const MAX_STATUS_DATE_FILTERS = 20;
/** At most this many DataFields/Field elements per request. */
export const MAX_FIELD_FILTERS = 100;

type FieldFilter = ProjectByDataQuery['fields'][number];
type StatusDateFilter = ProjectByDataQuery['statusDates'][number];

/**
 * Reads a ProjectByDataRequest body into its filters, in document order. Throws ApiError when refused
 * (INVALID_REQUEST for too many filters, a missing Content, or a DateTime that is not a time).
 */
export function decodeProjectByDataRequest(body: string | Uint8Array, ns: string, schemas: SchemaRegistry): ProjectByDataQuery {
  const root = readXml(body, PROJECT_BY_DATA_REQUEST, ns, schemas);
  const [current] = childElements(root, 'FilterByCurrentStatuses');
  const dates = childElements(root, 'FilterByStatusDate');
  const fields = childElements(root, 'DataFields').flatMap((list) => childElements(list, 'Field'));
  if (dates.length > MAX_STATUS_DATE_FILTERS) {
    throw new ApiError('INVALID_REQUEST', `at most ${MAX_STATUS_DATE_FILTERS} FilterByStatusDate elements are accepted, got ${dates.length}`);
  }
  if (fields.length > MAX_FIELD_FILTERS) {
    throw new ApiError('INVALID_REQUEST', `at most ${MAX_FIELD_FILTERS} DataFields/Field elements are accepted, got ${fields.length}`);
  }
  return {
    statuses: current ? {
      operation: collapseWhitespace(current.attrs['Operation'] ?? '').toLowerCase() === 'exclude' ? 'exclude' : 'include',
      refs: childElements(current, 'Status').map((s) => collapseWhitespace(s.attrs['Id'] ?? '')),
    } : null,
    statusDates: dates.map(readStatusDate),
    fields: fields.map(readField),
  };
}

function readStatusDate(el: XmlElementNode): StatusDateFilter {
  const statusRef = collapseWhitespace(el.attrs['Id'] ?? '');
  const text = el.attrs['DateTime'] ?? '';
  const at = parseTimestamp(text);
  if (at === null) {
    throw new ApiError('INVALID_REQUEST', `FilterByStatusDate ${statusRef}: DateTime "${text}" is not a date and time such as 2017-06-08T18:10:01`);
  }
  return { statusRef, at, operator: collapseWhitespace(el.attrs['Operator'] ?? '') as StatusDateFilter['operator'] };
}

function readField(el: XmlElementNode): FieldFilter {
  const fieldRef = collapseWhitespace(el.attrs['Id'] ?? '');
  const operator = collapseWhitespace(el.attrs['Operator'] ?? 'eq') as FieldFilter['operator'];
  if (operator === 'empty' || operator === 'notempty') return { fieldRef, operator, content: null };
  const content = el.attrs['Content'];
  if (content === undefined) {
    const reason = `Content is required with Operator "${operator}" (only empty and notempty go without it)`;
    throw new ApiError('INVALID_REQUEST', `DataFields/Field ${fieldRef}: ${reason}`);
  }
  return { fieldRef, operator, content };
}
