import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ApiError } from '../domain/api-error.ts';
import { scanNesting } from './nesting-scan.ts';
import type { SchemaRegistry } from './schema-registry.ts';

/** Requests nested deeper than this many element levels are refused before schema validation. */
export const MAX_XML_DEPTH = 32;

/** An element of a request body with namespace prefixes resolved and references decoded. */
export interface XmlElementNode {
  /** Local name (prefix removed). */
  name: string;
  /** Namespace URI the element is in; '' when none. */
  namespace: string;
  /** Attributes by their name as written (unprefixed for ours); namespace declarations left out. */
  attrs: Record<string, string>;
  children: XmlElementNode[];
  /** Concatenated text and CDATA directly inside the element, exactly as sent. */
  text: string;
}

// fast-xml-parser only splits the document: it must convert, trim and expand nothing. References
// are decoded by this module, which knows just the five predefined entities and character references.
const PARSER_OPTIONS = {
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  htmlEntities: false,
  cdataPropName: '#cdata',
  commentPropName: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  removeNSPrefix: false,
  maxNestedTags: MAX_XML_DEPTH,
} as const;

const DTD = /<!(?:DOCTYPE|ENTITY)/i;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const REFERENCE = /&([^;&]*);?/g;
// Characters outside XML 1.0's Char production (control characters other than tab, LF and CR; U+FFFE, U+FFFF);
// U+0000 in particular cannot be stored by PostgreSQL at all.
const NOT_XML_CHAR = /(?![\t\n\r\u007F-\u009F])[\p{Cc}\uFFFE\uFFFF]/u;

type OrderedNode = Record<string, unknown>;

/**
 * Decodes a request body and checks it step by step (UTF-8, not empty, no DTD, well-formed, depth,
 * root name, namespace, XSD `schema` of `schemas`), throwing the matching ApiError on the first failure.
 */
export function readXml(body: string | Uint8Array, rootName: string, ns: string, schemas: SchemaRegistry, schema = rootName): XmlElementNode {
  if (schemas.namespace !== ns) throw new Error(`schema registry is for ${schemas.namespace}, not ${ns}`);
  const text = decodeBody(body);
  if (text.trim() === '') throw new ApiError('INVALID_REQUEST', `request body is empty; expected <${rootName}>`);
  const forbidden = NOT_XML_CHAR.exec(text);
  if (forbidden) {
    const code = forbidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw new ApiError('MALFORMED_XML', `malformed XML: the character U+${code} is not allowed in XML`);
  }
  if (DTD.test(text)) {
    throw new ApiError('MALFORMED_XML', 'DTDs and entity declarations (<!DOCTYPE>, <!ENTITY>) are not accepted');
  }
  // Nesting far too deep is refused before the validator, whose work and message grow with every open element.
  const nesting = scanNesting(text);
  if (nesting.deepest > MAX_XML_DEPTH) throw nesting.fault ? new ApiError('MALFORMED_XML', nesting.fault) : tooDeep();
  const validation = XMLValidator.validate(text, { allowBooleanAttributes: false });
  if (validation !== true) {
    const { msg, line, col } = validation.err;
    throw new ApiError('MALFORMED_XML', `malformed XML at line ${line}, column ${col}: ${msg}`);
  }
  const root = buildTree(parse(text));
  if (root.name !== rootName) {
    throw new ApiError('INVALID_REQUEST', `expected root element <${rootName}>, found <${root.name}>`);
  }
  if (root.namespace !== ns) {
    const found = root.namespace === '' ? 'no namespace' : `namespace "${root.namespace}"`;
    throw new ApiError('WRONG_NAMESPACE', `<${rootName}> must be in namespace "${ns}" (found ${found})`);
  }
  const check = schemas.check(schema, text);
  if (!check.wellFormed) throw new ApiError('MALFORMED_XML', `malformed XML: ${summary(check.errors)}`);
  if (check.errors.length > 0) {
    throw new ApiError('INVALID_REQUEST', `request does not match the ${schema} schema: ${summary(check.errors)}`);
  }
  return root;
}

/** The child elements of `node` called `name`. */
export function childElements(node: XmlElementNode, name: string): XmlElementNode[] {
  return node.children.filter((c) => c.name === name);
}

/** Collapses whitespace the way xs:token does, so a value matches what the schema checked. */
export function collapseWhitespace(value: string): string {
  return value.replace(/[\t\n\r ]+/g, ' ').trim();
}

function decodeBody(body: string | Uint8Array): string {
  if (typeof body !== 'string') {
    try {
      // fatal: invalid byte sequences must fail rather than turn into U+FFFD; a BOM is dropped.
      return new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch {
      throw new ApiError('MALFORMED_XML', 'request body is not valid UTF-8');
    }
  }
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(body)) {
    throw new ApiError('MALFORMED_XML', 'request body is not valid UTF-8');
  }
  return body.startsWith('\uFEFF') ? body.slice(1) : body;
}

function parse(text: string): OrderedNode[] {
  try {
    return new XMLParser(PARSER_OPTIONS).parse(text) as OrderedNode[];
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/nested/i.test(message)) throw tooDeep();
    // fast-xml-parser refuses names such as __proto__; the document is well-formed, just not ours.
    if (message.includes('[SECURITY]')) throw new ApiError('INVALID_REQUEST', `request uses a name that is not accepted: ${message}`);
    throw new ApiError('MALFORMED_XML', `malformed XML: ${message}`);
  }
}

function tooDeep(): ApiError {
  return new ApiError('INVALID_REQUEST', `XML nesting is deeper than ${MAX_XML_DEPTH} levels`);
}

function buildTree(nodes: OrderedNode[]): XmlElementNode {
  const roots: XmlElementNode[] = [];
  for (const node of nodes) {
    const name = nodeName(node);
    if (name === '#text') {
      if ((node['#text'] as string).trim() !== '') throw new ApiError('MALFORMED_XML', 'malformed XML: text outside the root element');
    } else if (name !== '#cdata') {
      roots.push(element(node, name, new Map([['xml', 'http://www.w3.org/XML/1998/namespace']]), 1));
    }
  }
  if (roots.length !== 1) throw new ApiError('MALFORMED_XML', 'malformed XML: a document has exactly one root element');
  return roots[0]!;
}

function element(node: OrderedNode, qname: string, outer: ReadonlyMap<string, string>, depth: number): XmlElementNode {
  if (depth > MAX_XML_DEPTH) throw tooDeep();
  const raw = (node[':@'] ?? {}) as Record<string, string>;
  let scope = outer;
  const attrs: Record<string, string> = Object.create(null);
  for (const [key, value] of Object.entries(raw)) {
    const decoded = decode(normalizeAttribute(value));
    if (key === 'xmlns' || key.startsWith('xmlns:')) {
      if (scope === outer) scope = new Map(outer);
      (scope as Map<string, string>).set(key === 'xmlns' ? '' : key.slice('xmlns:'.length), decoded);
    } else {
      attrs[key] = decoded;
    }
  }
  const colon = qname.indexOf(':');
  const prefix = colon > 0 ? qname.slice(0, colon) : '';
  const namespace = scope.get(prefix);
  if (namespace === undefined && prefix !== '') {
    throw new ApiError('MALFORMED_XML', `malformed XML: namespace prefix "${prefix}" is not declared`);
  }
  const children: XmlElementNode[] = [];
  let text = '';
  for (const child of (node[qname] ?? []) as OrderedNode[]) {
    const name = nodeName(child);
    if (name === '#text') text += decode(child['#text'] as string);
    else if (name === '#cdata') text += cdataText(child);
    else children.push(element(child, name, scope, depth + 1));
  }
  return { name: colon > 0 ? qname.slice(colon + 1) : qname, namespace: namespace ?? '', attrs, children, text };
}

function nodeName(node: OrderedNode): string {
  const name = Object.keys(node).find((k) => k !== ':@');
  if (name === undefined) throw new ApiError('MALFORMED_XML', 'malformed XML: unreadable node');
  return name;
}

function cdataText(node: OrderedNode): string {
  // CDATA content is literal: no reference decoding.
  return ((node['#cdata'] ?? []) as OrderedNode[]).map((part) => String(part['#text'] ?? '')).join('');
}

/** XML attribute-value normalisation: literal tabs and newlines (CRLF already folded) become spaces. */
function normalizeAttribute(value: string): string {
  if (value.includes('<')) throw new ApiError('MALFORMED_XML', "malformed XML: '<' is not allowed in attribute values");
  return value.replace(/[\t\n\r]/g, ' ');
}

function decode(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(REFERENCE, (whole, name: string) => {
    if (!whole.endsWith(';')) throw new ApiError('MALFORMED_XML', "malformed XML: '&' must start an entity or character reference");
    if (Object.hasOwn(PREDEFINED, name)) return PREDEFINED[name]!;
    const code = /^#x[0-9a-fA-F]{1,6}$/.test(name) ? Number.parseInt(name.slice(2), 16) : /^#[0-9]{1,7}$/.test(name) ? Number(name.slice(1)) : -1;
    if (code < 0) throw new ApiError('MALFORMED_XML', `malformed XML: undeclared entity &${name};`);
    if (!isXmlChar(code)) throw new ApiError('MALFORMED_XML', `malformed XML: &${name}; is not a character allowed in XML`);
    return String.fromCodePoint(code);
  });
}

function isXmlChar(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

function summary(errors: string[]): string {
  return errors.slice(0, 3).join('; ');
}
