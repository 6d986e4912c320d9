import { ApiError } from '../domain/api-error.ts';
import { parseTimestamp } from '../model/clock.ts';
import type { ReportAsInput } from '../domain/views.ts';
import type { SchemaRegistry } from './schema-registry.ts';
import { collapseWhitespace, readXml } from './xml-reader.ts';

/** Root element of the SetProjectStatusReportAs request body (the commercial system's name). */
export const SET_PROJECT_STATUS_HISTORY_REPORT_AS = 'SetProjectStatusHistoryReportAs';

/**
 * Reads a SetProjectStatusHistoryReportAs body: precisionMs is 1 when Timestamp has at least millisecond digits,
 * else 1000 (it names the entry within that second). Throws ApiError when refused.
 */
export function decodeSetProjectStatusHistoryReportAs(body: string | Uint8Array, ns: string, schemas: SchemaRegistry): ReportAsInput {
  const root = readXml(body, SET_PROJECT_STATUS_HISTORY_REPORT_AS, ns, schemas);
  const text = collapseWhitespace(root.attrs['Timestamp'] ?? '');
  const timestamp = parseTimestamp(text);
  if (timestamp === null) {
    throw new ApiError('INVALID_REQUEST', `Timestamp "${text}" is not a date and time such as 2021-04-29T16:50:08-07:00`);
  }
  return {
    statusRef: collapseWhitespace(root.attrs['StatusId'] ?? ''),
    timestamp,
    precisionMs: fractionPrecision(text),
    reportAs: collapseWhitespace(root.attrs['ReportAs'] ?? '').toLowerCase() === 'suppress' ? 'suppress' : 'normal',
  };
}

// A time sent with fewer fraction digits than milliseconds stands for the whole span those digits cover.
function fractionPrecision(text: string): number {
  const digits = /\.(\d+)/.exec(text)?.[1]?.length ?? 0;
  return digits >= 3 ? 1 : 10 ** (3 - digits);
}
