import { isIdLike } from '../../model/ids.ts';
import type { ApiError } from '../api-error.ts';

// A keyset cursor of one program's list: [format, program id, the row's time in the list's order, the row's id],
// as base64url JSON. It names a place in the order and nothing else; what a page lists is the caller's to decide.
const CURSOR_FORMAT = 1;

/** The cursor of a place in a program's list: after the row with time `at` and id `id`. */
export function encodeProgramCursor(programId: string, at: number, id: string): string {
  return Buffer.from(JSON.stringify([CURSOR_FORMAT, programId, at, id])).toString('base64url');
}

/**
 * The place a cursor names in `programId`'s list; throws what `invalid` makes for anything that is not such a cursor
 * (made only then: an error's stack costs more than decoding a good cursor).
 */
export function decodeProgramCursor(programId: string, cursor: string, invalid: () => ApiError): { at: number; id: string } {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) throw invalid();
  const [format, program, at, id] = parsed as unknown[];
  if (format !== CURSOR_FORMAT || program !== programId || !Number.isSafeInteger(at) || (at as number) < 0) throw invalid();
  if (typeof id !== 'string' || !isIdLike(id)) throw invalid();
  return { at: at as number, id };
}
