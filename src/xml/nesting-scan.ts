/** What a scan of a document's tags found: how deep its elements nest, and the first nesting fault if any. */
export interface NestingScan {
  deepest: number;
  /** Why the elements are not well nested (unclosed, or closed out of order), in a short message; null when they are. */
  fault: string | null;
}

const NAME = /[^\s/>]+/y;
const SHOWN_NAME_CHARS = 40;

/**
 * Scans the tags of `text` in one linear pass, without building anything but a stack of names, so that a request
 * nested far too deep is refused before a parser or validator spends time (and messages) on it. Comments, CDATA,
 * processing instructions and quoted attribute values are skipped; everything else is left to the real parser.
 */
export function scanNesting(text: string): NestingScan {
  const open: string[] = [];
  let deepest = 0;
  let at = text.indexOf('<');
  while (at >= 0) {
    let end: number;
    if (text.startsWith('<!--', at)) end = after(text, '-->', at + 4);
    else if (text.startsWith('<![CDATA[', at)) end = after(text, ']]>', at + 9);
    else if (text.startsWith('<?', at)) end = after(text, '?>', at + 2);
    else if (text.startsWith('<!', at)) end = after(text, '>', at + 2);
    else if (text.startsWith('</', at)) {
      end = after(text, '>', at + 2);
      if (end < 0) break;
      const name = text.slice(at + 2, end - 1).trim();
      const expected = open.pop();
      if (expected !== name) {
        const fault = expected === undefined ? `</${shown(name)}> closes no open element` : `</${shown(name)}> closes <${shown(expected)}>`;
        return { deepest, fault: `malformed XML: ${fault}` };
      }
    } else {
      end = tagEnd(text, at + 1);
      if (end < 0) break;
      NAME.lastIndex = at + 1;
      const name = NAME.exec(text)?.[0] ?? '';
      if (text[end - 2] !== '/') {
        open.push(name);
        if (open.length > deepest) deepest = open.length;
      }
    }
    if (end < 0) break;
    at = text.indexOf('<', end);
  }
  if (at >= 0) return { deepest, fault: 'malformed XML: the document ends inside a tag, comment or CDATA section' };
  if (open.length > 0) {
    return { deepest, fault: `malformed XML: ${open.length} element${open.length === 1 ? ' is' : 's are'} never closed, the innermost <${shown(open.at(-1)!)}>` };
  }
  return { deepest, fault: null };
}

// The index just past `marker`, searched from `from`; -1 when it never comes.
function after(text: string, marker: string, from: number): number {
  const i = text.indexOf(marker, from);
  return i < 0 ? -1 : i + marker.length;
}

// The index just past the '>' ending a start tag, skipping quoted attribute values (which may hold '>').
function tagEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '>') return i + 1;
    if (c === '"' || c === "'") {
      i = text.indexOf(c, i + 1);
      if (i < 0) return -1;
    }
  }
  return -1;
}

function shown(name: string): string {
  return name.length > SHOWN_NAME_CHARS ? `${name.slice(0, SHOWN_NAME_CHARS)}…` : name;
}
