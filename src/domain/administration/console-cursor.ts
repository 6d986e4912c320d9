import { ApiError } from '../api-error.ts';
import { decodeProgramCursor, encodeProgramCursor } from '../projects/program-cursor.ts';

/** A place in a console list kept newest first by (time, id): after the row with time `at` and id `id`. */
export interface ConsoleKey { at: number; id: string }

/** The opaque cursor of a place in the console list `list` (the list's name, or the subscription whose log it is). */
export function encodeConsoleCursor(list: string, key: ConsoleKey): string {
  return encodeProgramCursor(list, key.at, key.id);
}

/** The place a cursor of `list` names; null for none given, INVALID_PARAMETER for anything that is not such a cursor. */
export function decodeConsoleCursor(list: string, cursor: string | undefined): ConsoleKey | null {
  if (cursor === undefined || cursor === '') return null;
  return decodeProgramCursor(list, cursor, () => new ApiError('INVALID_PARAMETER', 'The page link is not valid; start again from the first page.'));
}

/** The page of `rows` read with one row more than `size` (to know whether another page follows), and that page's cursor. */
export function consolePage<T>(list: string, rows: T[], size: number, key: (row: T) => ConsoleKey): { rows: T[]; nextCursor: string | null } {
  const shown = rows.slice(0, size);
  return { rows: shown, nextCursor: rows.length > size ? encodeConsoleCursor(list, key(shown.at(-1) as T)) : null };
}
