import { WIRE_DOCUMENTS } from './documents.ts';
import { documentXsd } from './wire-xsd.ts';

let cached: ReadonlyMap<string, string> | undefined;

/** The XSD of every described document by name, made once (with the namespace placeholder). */
export function generatedXsds(): ReadonlyMap<string, string> {
  cached ??= new Map(WIRE_DOCUMENTS.map((d) => [d.name, documentXsd(d)]));
  return cached;
}
