import { XmlCData, XmlDocument, XmlElement, XmlText } from 'libxml2-wasm';
import { LIBXML_PARSE_OPTIONS } from '../../src/xml/schema-registry.ts';

/** The namespace the XML tests run with. */
export const NS = 'http://service.powerclerk.com/api/v1/';

/** A parsed element, read back with libxml2 (independent of the service's own reader). */
export interface ReadElement { name: string; namespace: string; attrs: Record<string, string>; children: ReadElement[]; text: string }

/** Parses `xml` with libxml2 into plain data for comparisons. */
export function readBack(xml: string): ReadElement {
  const doc = XmlDocument.fromString(xml, { option: LIBXML_PARSE_OPTIONS });
  try {
    return convert(doc.root);
  } finally {
    doc.dispose();
  }
}

function convert(el: XmlElement): ReadElement {
  const attrs: Record<string, string> = {};
  for (const a of el.attrs) attrs[a.name] = a.value;
  const children: ReadElement[] = [];
  let text = '';
  for (let node = el.firstChild; node; node = node.next) {
    if (node instanceof XmlElement) children.push(convert(node));
    else if (node instanceof XmlText || node instanceof XmlCData) text += node.content;
  }
  return { name: el.name, namespace: el.namespaceUri, attrs, children, text };
}

/** The child elements of `el` called `name`. */
export function kids(el: ReadElement, name: string): ReadElement[] {
  return el.children.filter((c) => c.name === name);
}

/** The single child of `el` called `name`, failing when there is not exactly one. */
export function kid(el: ReadElement, name: string): ReadElement {
  const found = kids(el, name);
  if (found.length !== 1) throw new Error(`expected one <${name}> in <${el.name}>, found ${found.length}`);
  return found[0]!;
}

/** What a string looks like after the writer replaced characters XML 1.0 forbids. */
export function xmlSafe(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const isHigh = c >= 0xd800 && c <= 0xdbff;
    const nextLow = isHigh && value.charCodeAt(i + 1) >= 0xdc00 && value.charCodeAt(i + 1) <= 0xdfff;
    if (nextLow) {
      out += value.slice(i, i + 2);
      i++;
    } else if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || (c >= 0xd800 && c <= 0xdfff) || c === 0xfffe || c === 0xffff) {
      out += '\uFFFD';
    } else {
      out += value[i];
    }
  }
  return out;
}

/** A nasty string: markup characters, quotes, whitespace, control characters, a lone surrogate, non-BMP text. */
export const NASTY = `a<b>&c "d" 'e' \t tab\nline\r\ncrlf \u0000nul \u0001soh \u001fus \uD800lone \uFFFF zoë 名前 😀 ]]> &amp;`;
