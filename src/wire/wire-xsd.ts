import { escapeXml } from '../xml/xml-writer.ts';
import type { AttributeSpec, ChildSpec, ComplexType, SimpleType, WireDocument } from './wire-type.ts';

/** The placeholder a generated XSD carries wherever the configured namespace goes (filled in by SchemaRegistry). */
const NS = '{xml_namespace}';

interface Globals { complex: Map<string, ComplexType>; simple: Map<string, SimpleType> }

function annotation(doc: string | undefined, pad: string): string[] {
  return doc ? [`${pad}<xs:annotation><xs:documentation>${escapeXml(doc, false)}</xs:documentation></xs:annotation>`] : [];
}

function register<T extends SimpleType | ComplexType>(map: Map<string, T>, type: T): void {
  const known = map.get(type.name!);
  if (known && known !== type) throw new Error(`wire description: two different types are called ${type.name}`);
  map.set(type.name!, type);
}

function restriction(type: SimpleType, pad: string): string[] {
  const facets = [
    ...(type.enumeration ?? []).map((v) => `<xs:enumeration value="${escapeXml(v, true)}"/>`),
    ...(type.pattern !== undefined ? [`<xs:pattern value="${escapeXml(type.pattern, true)}"/>`] : []),
    ...(type.minLength !== undefined ? [`<xs:minLength value="${type.minLength}"/>`] : []),
    ...(type.maxLength !== undefined ? [`<xs:maxLength value="${type.maxLength}"/>`] : []),
  ];
  return [`${pad}<xs:restriction base="xs:${type.base}">`, ...facets.map((f) => `${pad}  ${f}`), `${pad}</xs:restriction>`];
}

function restricted(type: SimpleType): boolean {
  return type.enumeration !== undefined || type.pattern !== undefined || type.minLength !== undefined || type.maxLength !== undefined;
}

/** `type="…"` for a simple type that needs no inline definition, or null. */
function simpleRef(type: SimpleType, g: Globals): string | null {
  if (type.name) {
    register(g.simple, type);
    return `tns:${type.name}`;
  }
  return restricted(type) ? null : `xs:${type.base}`;
}

function inlineSimple(type: SimpleType, pad: string): string[] {
  return [`${pad}<xs:simpleType>`, ...annotation(type.doc, `${pad}  `), ...restriction(type, `${pad}  `), `${pad}</xs:simpleType>`];
}

function attributeLines(name: string, spec: AttributeSpec, pad: string, g: Globals): string[] {
  const extra = `${spec.fixed !== undefined ? ` fixed="${escapeXml(spec.fixed, true)}"` : ''}${spec.default !== undefined ? ` default="${escapeXml(spec.default, true)}"` : ''}`;
  const use = ` use="${spec.required ? 'required' : 'optional'}"`;
  const ref = simpleRef(spec.type, g);
  const doc = annotation(spec.doc, `${pad}  `);
  if (ref && doc.length === 0) return [`${pad}<xs:attribute name="${name}" type="${ref}"${use}${extra}/>`];
  if (ref) return [`${pad}<xs:attribute name="${name}" type="${ref}"${use}${extra}>`, ...doc, `${pad}</xs:attribute>`];
  return [`${pad}<xs:attribute name="${name}"${use}${extra}>`, ...doc, ...inlineSimple(spec.type, `${pad}  `), `${pad}</xs:attribute>`];
}

function occurs(spec: ChildSpec): string {
  const min = spec.min === 1 ? '' : ` minOccurs="${spec.min}"`;
  const max = spec.max === 1 ? '' : ` maxOccurs="${Number.isFinite(spec.max) ? spec.max : 'unbounded'}"`;
  return min + max;
}

function elementLines(name: string, spec: ChildSpec, pad: string, g: Globals): string[] {
  const head = `${pad}<xs:element name="${name}"`;
  const doc = annotation(spec.doc, `${pad}  `);
  const type = spec.type;
  let ref: string | null;
  if (type.kind === 'simple') ref = simpleRef(type, g);
  else if (type.name) {
    register(g.complex, type);
    ref = `tns:${type.name}`;
  } else ref = null;
  if (ref) return doc.length === 0 ? [`${head} type="${ref}"${occurs(spec)}/>`] : [`${head} type="${ref}"${occurs(spec)}>`, ...doc, `${pad}</xs:element>`];
  const body = type.kind === 'simple' ? inlineSimple(type, `${pad}  `) : complexLines(type, `${pad}  `, g, false);
  return [`${head}${occurs(spec)}>`, ...doc, ...body, `${pad}</xs:element>`];
}

function complexLines(type: ComplexType, pad: string, g: Globals, named: boolean): string[] {
  const children = Object.entries(type.children);
  return [
    named ? `${pad}<xs:complexType name="${type.name}">` : `${pad}<xs:complexType>`,
    ...annotation(type.doc, `${pad}  `),
    ...(children.length === 0 ? [] : [
      `${pad}  <xs:sequence>`,
      ...children.flatMap(([name, spec]) => elementLines(name, spec, `${pad}    `, g)),
      `${pad}  </xs:sequence>`,
    ]),
    ...Object.entries(type.attributes).flatMap(([name, spec]) => attributeLines(name, spec, `${pad}  `, g)),
    `${pad}</xs:complexType>`,
  ];
}

/** The XSD of document type `doc`, with `{xml_namespace}` where the configured namespace goes. */
export function documentXsd(doc: WireDocument): string {
  const g: Globals = { complex: new Map(), simple: new Map() };
  const root = elementLines(doc.root ?? doc.name, { type: doc.type, min: 1, max: 1 }, '  ', g);
  const globals: string[] = [];
  // Named types found while writing a named type are written too, until none is left.
  const done = new Set<string>();
  for (let again = true; again;) {
    again = false;
    for (const [name, type] of [...g.complex]) {
      if (done.has(`c:${name}`)) continue;
      done.add(`c:${name}`);
      again = true;
      globals.push('', ...complexLines(type, '  ', g, true));
    }
  }
  for (const [name, type] of g.simple) {
    globals.push('', `  <xs:simpleType name="${name}">`, ...annotation(type.doc, '    '), ...restriction(type, '    '), '  </xs:simpleType>');
  }
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="${NS}" targetNamespace="${NS}"`,
    '           elementFormDefault="qualified" attributeFormDefault="unqualified">',
    ...annotation(doc.doc, '  '),
    '',
    ...root,
    ...globals,
    '</xs:schema>',
    '',
  ].join('\n');
}
