import type { ProgramFile } from './program-file.ts';

/**
 * ` (line N)` for the part at `path` of a program file parsed from text (its `locate`, program-file.ts), or nothing
 * when its line is unknown (a file built in code, or given as data).
 */
export function atLine(file: Pick<ProgramFile, 'locate'>, path: readonly (string | number)[]): string {
  const line = file.locate?.([...path])?.line ?? null;
  return line === null ? '' : ` (line ${line})`;
}
