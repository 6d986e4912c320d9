import { escapeXml, isXmlName, XmlWriter } from '../xml/xml-writer.ts';
import type { ComplexType, DocumentValue, SimpleType, WireDocument } from './wire-type.ts';

/** Characters gathered before a chunk is handed out: large enough to keep writes few, small enough to stream. */
const CHUNK_SIZE = 16 * 1024;

type Value = Record<string, unknown>;
type Write = (w: XmlWriter, value: unknown, chunks: string[]) => void;

/** Writes a simple value as XML text: booleans as true/false, xs:float with at least one decimal (1.0, 2.5). */
export function formatSimple(type: SimpleType, value: unknown): string {
  if (type.base === 'float' && typeof value === 'number' && Number.isInteger(value)) return value.toFixed(1);
  return String(value);
}

function checkName(name: string): string {
  if (!isXmlName(name)) throw new Error(`wire description: ${JSON.stringify(name)} is not an XML name`);
  return name;
}

function compileSimple(name: string, type: SimpleType): Write {
  return (w, value) => {
    const text = formatSimple(type, value);
    if (text === '') w.startWritten(name, '').end();
    else w.startWritten(name, '').text(text).end();
  };
}

function compileComplex(name: string, type: ComplexType, cache: Map<ComplexType, Map<string, Write>>): Write {
  const attributes = Object.entries(type.attributes).map(([attr, spec]) => ({ prefix: ` ${checkName(attr)}="`, attr, type: spec.type }));
  const children = Object.entries(type.children).map(([child, spec]) => ({
    child, repeated: spec.max > 1, write: compileElement(checkName(child), spec.type, cache),
  }));
  return (w, raw, chunks) => {
    const value = raw as Value;
    let text = '';
    for (const a of attributes) {
      const v = value[a.attr];
      if (v === null || v === undefined) continue;
      text += `${a.prefix}${escapeXml(formatSimple(a.type, v), true)}"`;
    }
    w.startWritten(name, text);
    for (const c of children) {
      const v = value[c.child];
      if (v === null || v === undefined) continue;
      if (!c.repeated) {
        c.write(w, v, chunks);
        continue;
      }
      for (const item of v as unknown[]) {
        c.write(w, item, chunks);
        if (w.pending >= CHUNK_SIZE) chunks.push(w.take());
      }
    }
    w.end();
  };
}

function compileElement(name: string, type: SimpleType | ComplexType, cache: Map<ComplexType, Map<string, Write>>): Write {
  if (type.kind === 'simple') return compileSimple(name, type);
  let byName = cache.get(type);
  if (!byName) cache.set(type, (byName = new Map()));
  const known = byName.get(name);
  if (known) return known;
  // Registered before compiling the children, so a type that contains itself refers to its own writer.
  let compiled: Write | undefined;
  const indirect: Write = (w, v, c) => compiled!(w, v, c);
  byName.set(name, indirect);
  compiled = compileComplex(name, type, cache);
  byName.set(name, compiled);
  return compiled;
}

/** Writes documents of one type as XML: compiled once from the description, then a loop over the value's properties. */
export interface WireXmlWriter<D extends WireDocument> {
  /** The whole document as chunks of about 16 KiB (a list of a thousand projects is handed out in parts). */
  chunks(value: DocumentValue<D>, ns: string): string[];
  /** The whole document as one string. */
  write(value: DocumentValue<D>, ns: string): string;
}

/** Compiles the XML writer of document type `doc`. */
export function compileXmlWriter<D extends WireDocument>(doc: D): WireXmlWriter<D> {
  const root = compileElement(checkName(doc.root ?? doc.name), doc.type, new Map());
  const chunks = (value: DocumentValue<D>, ns: string): string[] => {
    const w = new XmlWriter(ns);
    const out: string[] = [];
    root(w, value, out);
    out.push(w.finish());
    return out;
  };
  return { chunks, write: (value, ns) => chunks(value, ns).join('') };
}

const compiled = new WeakMap<WireDocument, WireXmlWriter<WireDocument>>();

function writerOf(doc: WireDocument): WireXmlWriter<WireDocument> {
  let writer = compiled.get(doc);
  if (!writer) compiled.set(doc, (writer = compileXmlWriter(doc) as unknown as WireXmlWriter<WireDocument>));
  return writer;
}

/** Writes `value` as an XML document of type `doc` in chunks of about 16 KiB (its writer compiled on first use and kept). */
export function xmlDocumentChunks<D extends WireDocument>(doc: D, value: DocumentValue<D>, ns: string): string[] {
  return writerOf(doc).chunks(value as DocumentValue<WireDocument>, ns);
}

/** Writes `value` as an XML document of type `doc` (its writer compiled on first use and kept). */
export function writeXmlDocument<D extends WireDocument>(doc: D, value: DocumentValue<D>, ns: string): string {
  return writerOf(doc).write(value as DocumentValue<WireDocument>, ns);
}
