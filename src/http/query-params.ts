import { ApiError } from '../domain/api-error.ts';
import { parseTimestamp } from '../model/clock.ts';
import { isIdLike } from '../model/ids.ts';

/** The raw query string values Fastify hands a route (a repeated parameter arrives as an array). */
export type RawQuery = Record<string, string | string[] | undefined>;

function single(query: RawQuery, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw new ApiError('INVALID_PARAMETER', `Query parameter ${name} may be given only once.`);
  // No valid value holds a control character, and PostgreSQL cannot even compare one with U+0000.
  if (value !== undefined && /\p{Cc}/u.test(value)) throw new ApiError('INVALID_PARAMETER', `Query parameter ${name} must not contain control characters.`);
  return value;
}

/** A whole number within bounds, or the fallback when the parameter is absent. */
export function intParam(query: RawQuery, name: string, fallback: number, min: number, max: number): number {
  const raw = single(query, name);
  if (raw === undefined) return fallback;
  if (!/^\d{1,9}$/.test(raw)) throw new ApiError('INVALID_PARAMETER', `Query parameter ${name} must be a whole number from ${min} to ${max}; got "${raw}".`);
  const value = Number(raw);
  if (value < min || value > max) throw new ApiError('INVALID_PARAMETER', `Query parameter ${name} must be from ${min} to ${max}; got ${value}.`);
  return value;
}

/** `true` or `false` (any case), or the fallback when absent. */
export function boolParam(query: RawQuery, name: string, fallback: boolean): boolean {
  const raw = single(query, name);
  if (raw === undefined) return fallback;
  const lower = raw.toLowerCase();
  if (lower !== 'true' && lower !== 'false') throw new ApiError('INVALID_PARAMETER', `Query parameter ${name} must be true or false; got "${raw}".`);
  return lower === 'true';
}

/** A timestamp (yyyy-MM-dd or ISO 8601 date-time) as epoch ms, or undefined when absent. */
export function timeParam(query: RawQuery, name: string): number | undefined {
  const raw = single(query, name);
  if (raw === undefined) return undefined;
  // An unencoded "+" of a UTC offset (as in our own RequestTimestamp pasted into a URL) arrives as a space.
  const ms = parseTimestamp(raw.replace(/(T[\d:.]+) (\d{2}:?\d{2})$/, '$1+$2'));
  if (ms === null) throw new ApiError('INVALID_PARAMETER', `Query parameter ${name} must be a date (yyyy-MM-dd) or an ISO 8601 date-time such as 2026-01-31T12:00:00-07:00; got "${raw}".`);
  return ms;
}

/** The interface version a response shape is chosen by; absent means 1, as in the commercial system. */
export function versionParam(query: RawQuery, supported: number[]): number {
  const raw = single(query, 'version');
  if (raw === undefined) return 1;
  const m = /^v?(\d{1,3})(\.0+)?$/i.exec(raw.trim());
  const value = m ? Number(m[1]) : Number.NaN;
  if (!supported.includes(value)) throw new ApiError('INVALID_PARAMETER', `Query parameter version must be one of ${supported.join(', ')}; got "${raw}".`);
  return value;
}

/** A string parameter given at most once, or undefined when absent. */
export function optionalParam(query: RawQuery, name: string): string | undefined {
  return single(query, name);
}

/** A required string parameter. */
export function requiredParam(query: RawQuery, name: string): string {
  const raw = single(query, name);
  if (raw === undefined || raw.trim() === '') throw new ApiError('INVALID_PARAMETER', `Query parameter ${name} is required.`);
  return raw.trim();
}

/** A path identifier; anything that cannot be an id is refused before it reaches the database. */
export function idParam(value: string | undefined, name: string): string {
  if (value === undefined || !isIdLike(value)) throw new ApiError('INVALID_PARAMETER', `${name} in the path is not a valid identifier.`);
  return value;
}

/** A sequence number (0 up to 2^53 − 1), or the fallback when absent: the cursor of the change feed. */
export function sequenceParam(query: RawQuery, name: string, fallback: number): number {
  const raw = single(query, name);
  if (raw === undefined) return fallback;
  const value = /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value)) throw new ApiError('INVALID_PARAMETER', `Query parameter ${name} must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}; got "${raw}".`);
  return value;
}

/** A comma-separated list of names, each one of `allowed`; undefined when absent. */
export function listParam<const V extends string>(query: RawQuery, name: string, allowed: readonly V[]): V[] | undefined {
  const raw = single(query, name);
  if (raw === undefined) return undefined;
  const values = raw.split(',').map((v) => v.trim()).filter((v) => v !== '');
  const unknown = values.find((v) => !(allowed as readonly string[]).includes(v));
  if (values.length === 0 || unknown !== undefined) {
    throw new ApiError('INVALID_PARAMETER', `Query parameter ${name} must be a comma-separated list of ${allowed.join(', ')}; got "${raw}".`);
  }
  return values as V[];
}
