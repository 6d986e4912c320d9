import type { PlaceholderAt } from '../mail-template.ts';
import type { ProgramFile, TextPlace } from './program-file.ts';

/**
 * ` (line N, column C)` for the part at `path` of a program file parsed from text (its `locate`, program-file.ts),
 * its key with `'key'`, or a place inside its text; nothing when unknown (a file built in code, or given as data).
 */
export function atLine(file: Pick<ProgramFile, 'locate'>, path: readonly (string | number)[], at?: 'key' | TextPlace): string {
  const { locate } = file;
  if (!locate) return '';
  // A part the file leaves out (a default) is placed at the nearest part around it that the file writes.
  let place = locate([...path], at);
  if (place === null && at !== undefined) place = locate([...path]);
  for (let n = path.length - 1; place === null && n >= 0; n--) place = locate(path.slice(0, n));
  return place === null ? '' : ` (line ${place.line}, column ${place.column})`;
}

/** The line and column (1-based) of the character at `index` of `text`, for `atLine`. */
export function placeInText(text: string, index: number): TextPlace {
  const before = text.slice(0, index);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: index - lineStart + 1 };
}

/** Where a template's placeholder was written, for the templates at `path` (`part` is e.g. `text` or `question.text`). */
export function placeholderAt(file: Pick<ProgramFile, 'locate'>, path: readonly (string | number)[]): PlaceholderAt {
  return (part, text, index) => atLine(file, [...path, ...part.split('.')], placeInText(text, index));
}
