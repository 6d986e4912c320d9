import { ApiError } from '../domain/api-error.ts';
import type { SchemaRegistry } from '../xml/schema-registry.ts';
import { collapseWhitespace, readXml, type XmlElementNode } from '../xml/xml-reader.ts';
import type { ComplexType, DocumentValue, SimpleType, WireDocument } from './wire-type.ts';

/**
 * Reads a simple value as the description's type, after the XSD accepted it: xs:token collapsed, booleans and
 * integers converted (an integer beyond 2^53 is refused rather than rounded).
 */
export function readSimple(type: SimpleType, text: string, where: string): unknown {
  switch (type.base) {
    case 'string':
      return text;
    case 'token':
      return collapseWhitespace(text);
    case 'boolean': {
      const t = text.trim();
      return t === 'true' || t === '1';
    }
    case 'int': case 'long': case 'nonNegativeInteger': case 'positiveInteger': {
      const t = text.trim().replace(/^\+/, '');
      const n = Number(t);
      if (!/^-?[0-9]+$/.test(t) || !Number.isSafeInteger(n)) {
        const kind = type.base === 'nonNegativeInteger' ? 'a non-negative integer' : type.base === 'positiveInteger' ? 'a positive integer' : 'a whole number';
        throw new ApiError('INVALID_REQUEST', `${where} must be ${kind} of at most 15 digits, got "${text}"`);
      }
      return n;
    }
    case 'float':
      return Number(text.trim());
    default:
      return text.trim();
  }
}

function readComplex(type: ComplexType, node: XmlElementNode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(type.attributes)) {
    const raw = node.attrs[name];
    if (raw !== undefined) out[name] = readSimple(spec.type, raw, `${node.name}@${name}`);
  }
  for (const [name, spec] of Object.entries(type.children)) {
    const nodes = node.children.filter((c) => c.name === name);
    const values = nodes.map((c) => (spec.type.kind === 'simple' ? readSimple(spec.type, c.text, `<${name}>`) : readComplex(spec.type, c)));
    if (spec.max > 1) out[name] = values;
    else if (values.length > 0) out[name] = values[0];
  }
  return out;
}

/** Converts an element tree the XSD has accepted into the document's value (the JSON mapping's shape). */
export function wireFromXml<D extends WireDocument>(doc: D, root: XmlElementNode): DocumentValue<D> {
  return readComplex(doc.type, root) as DocumentValue<D>;
}

/** Reads and checks an XML body of type `doc` (see readXml) and returns its value. */
export function readXmlDocument<D extends WireDocument>(doc: D, body: string | Uint8Array, ns: string, schemas: SchemaRegistry): DocumentValue<D> {
  return wireFromXml(doc, readXml(body, doc.root ?? doc.name, ns, schemas, doc.name));
}
