import { type Document, LineCounter } from 'yaml';

/** Where a part of a program file is: its line (1-based), or null when unknown (a JSON file, a file built in code). */
export type LineOf = (path: readonly (string | number)[]) => number | null;

// Keyed by the validated file object, so the lines travel with it to the checks without changing its shape.
const LINES = new WeakMap<object, LineOf>();

/** A LineCounter to pass to parseDocument, and the LineOf it gives once the document is parsed. */
export function yamlLines(): { counter: LineCounter; lineOf: (doc: Document) => LineOf } {
  const counter = new LineCounter();
  return {
    counter,
    lineOf: (doc) => (path) => {
      const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
      return node?.range ? counter.linePos(node.range[0]).line : null;
    },
  };
}

/** Remembers where the parts of a parsed program file are. */
export function rememberLines(file: object, lineOf: LineOf): void {
  LINES.set(file, lineOf);
}

/**
 * ` (line N)` for the part at `path` of a program file parsed from text, or nothing when its line is unknown. A file
 * that carries its own `locate` (where the parser keeps positions on the file itself) is asked that way too.
 */
export function atLine(file: object, path: readonly (string | number)[]): string {
  const locate = (file as { locate?: (p: (string | number)[]) => { line: number } | null }).locate;
  const line = LINES.get(file)?.(path) ?? locate?.([...path])?.line ?? null;
  return line === null ? '' : ` (line ${line})`;
}
