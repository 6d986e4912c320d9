/** The XML declaration every response document starts with. */
export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';

/** Whether `name` may be written as an element or attribute name (checked once per name). */
export function isXmlName(name: string): boolean {
  return validName(name);
}

/** Attribute values by name; `null` and `undefined` values are left out of the output. */
export type XmlAttributes = Record<string, string | null | undefined>;

const NAME = /^[A-Za-z_][A-Za-z0-9._-]*$/;
const REPLACEMENT = '\uFFFD';
// Every character escapeXml may change; most values have none and are returned as they are. (Control characters
// are exactly what this must find.)
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const SPECIAL = /[\u0000-\u001f&<>"'\ud800-\udfff\ufffe\uffff]/;
// Element and attribute names already checked against NAME (they come from the code, so the set stays small).
const checkedNames = new Set<string>();

function validName(name: string): boolean {
  if (checkedNames.has(name)) return true;
  if (!NAME.test(name)) return false;
  if (checkedNames.size < 10_000) checkedNames.add(name);
  return true;
}

/**
 * Escapes `value` for an attribute (`attribute` true) or for text content, replacing every
 * character XML 1.0 forbids with U+FFFD so the output is always well-formed.
 */
export function escapeXml(value: string, attribute: boolean): string {
  if (!SPECIAL.test(value)) return value;
  let out = '';
  let last = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    let rep: string | undefined;
    if (c < 0x20) {
      // Attribute-value normalisation would turn a literal tab or newline into a space, and every
      // parser turns a literal CR into LF, so those are written as references to survive a round trip.
      if (c === 0x09) rep = attribute ? '&#9;' : undefined;
      else if (c === 0x0a) rep = attribute ? '&#10;' : undefined;
      else if (c === 0x0d) rep = '&#13;';
      else rep = REPLACEMENT;
    } else if (c === 0x26) rep = '&amp;';
    else if (c === 0x3c) rep = '&lt;';
    else if (c === 0x3e) rep = '&gt;';
    else if (c === 0x22) rep = attribute ? '&quot;' : undefined;
    else if (c === 0x27) rep = attribute ? '&apos;' : undefined;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      rep = REPLACEMENT;
    } else if ((c >= 0xdc00 && c <= 0xdfff) || c === 0xfffe || c === 0xffff) rep = REPLACEMENT;
    if (rep !== undefined) {
      out += value.slice(last, i) + rep;
      last = i + 1;
    }
  }
  return last === 0 ? value : out + value.slice(last);
}

/**
 * A small streaming XML writer: output accumulates in a buffer that `take()` drains, so a large
 * document can be handed out in chunks. The first element carries `xmlns` for the namespace.
 */
export class XmlWriter {
  private readonly ns: string;
  private readonly open: string[] = [];
  private buffer: string[] = [XML_DECLARATION];
  private buffered = XML_DECLARATION.length;
  private rootWritten = false;
  private tagOpen = false;

  /** Starts a document whose elements all live in the default namespace `ns`. */
  constructor(ns: string) {
    this.ns = ns;
  }

  /** Opens element `name`; close it with `end()`. */
  start(name: string, attrs?: XmlAttributes): this {
    this.push(`<${name}${this.attributes(name, attrs)}`);
    // The '>' waits for the next call, so an element closed right away becomes `<name/>`.
    this.tagOpen = true;
    this.open.push(name);
    return this;
  }

  /**
   * Opens element `name` whose attributes are already written as ` Name="escaped value"…` (by a compiled writer,
   * which checked the names once); close it with `end()`.
   */
  startWritten(name: string, attributeText: string): this {
    this.push(`<${name}${this.rootAttribute(name)}${attributeText}`);
    this.tagOpen = true;
    this.open.push(name);
    return this;
  }

  /** Writes an element without content. */
  empty(name: string, attrs?: XmlAttributes): this {
    this.push(`<${name}${this.attributes(name, attrs)}/>`);
    return this;
  }

  /** Writes escaped text inside the innermost open element. */
  text(value: string): this {
    if (this.open.length === 0) throw new Error('XmlWriter: text outside the root element');
    if (value !== '') this.push(escapeXml(value, false));
    return this;
  }

  /** Closes the innermost open element. */
  end(): this {
    const name = this.open.pop();
    if (name === undefined) throw new Error('XmlWriter: end() without an open element');
    if (this.tagOpen) {
      this.tagOpen = false;
      this.buffer.push('/>');
      this.buffered += 2;
    } else {
      this.push(`</${name}>`);
    }
    return this;
  }

  /** Writes `<name attrs>text</name>`, or an empty element when `text` is empty. */
  element(name: string, attrs: XmlAttributes | undefined, text: string): this {
    if (text === '') return this.empty(name, attrs);
    return this.start(name, attrs).text(text).end();
  }

  /** Number of characters written since the last `take()`; lets callers decide when to flush. */
  get pending(): number {
    return this.buffered;
  }

  /** Returns and clears what was written since the last call (a chunk may end inside a start tag). */
  take(): string {
    const chunk = this.buffer.join('');
    this.buffer = [];
    this.buffered = 0;
    return chunk;
  }

  /** Returns the rest of the document, failing when elements are still open or nothing was written. */
  finish(): string {
    if (!this.rootWritten) throw new Error('XmlWriter: no root element was written');
    if (this.open.length > 0) throw new Error(`XmlWriter: <${this.open[this.open.length - 1]}> is still open`);
    return this.take();
  }

  private push(part: string): void {
    if (this.tagOpen) {
      this.tagOpen = false;
      this.buffer.push('>');
      this.buffered += 1;
    }
    this.buffer.push(part);
    this.buffered += part.length;
  }

  /** ` xmlns="…"` for the root element, '' for any other; refuses a second root. */
  private rootAttribute(name: string): string {
    if (!validName(name)) throw new Error(`XmlWriter: invalid element name ${JSON.stringify(name)}`);
    if (!this.rootWritten) {
      this.rootWritten = true;
      return ` xmlns="${escapeXml(this.ns, true)}"`;
    }
    if (this.open.length === 0) throw new Error('XmlWriter: only one root element is allowed');
    return '';
  }

  private attributes(name: string, attrs: XmlAttributes | undefined): string {
    let out = this.rootAttribute(name);
    if (attrs) {
      for (const [key, value] of Object.entries(attrs)) {
        if (value === null || value === undefined) continue;
        if (key === 'xmlns' || !validName(key)) throw new Error(`XmlWriter: invalid attribute name ${JSON.stringify(key)}`);
        out += ` ${key}="${escapeXml(value, true)}"`;
      }
    }
    return out;
  }
}
