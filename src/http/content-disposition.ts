/**
 * Content-Disposition, both ways: the file name an upload's header carries (RFC 6266 with RFC 8187's `filename*`),
 * and the header a download is sent with.
 */

function parameters(header: string): Map<string, string> {
  const params = new Map<string, string>();
  let i = header.indexOf(';');
  while (i !== -1 && i < header.length) {
    const eq = header.indexOf('=', i + 1);
    if (eq === -1) break;
    const name = header.slice(i + 1, eq).trim().toLowerCase();
    let j = eq + 1;
    while (header[j] === ' ' || header[j] === '\t') j++;
    let value = '';
    if (header[j] === '"') {
      // A quoted-string: a backslash quotes the next character.
      for (j++; j < header.length && header[j] !== '"'; j++) value += header[j] === '\\' && j + 1 < header.length ? header[++j] : header[j];
      i = header.indexOf(';', j);
    } else {
      const end = header.indexOf(';', j);
      value = (end === -1 ? header.slice(j) : header.slice(j, end)).trim();
      i = end;
    }
    if (name !== '' && !params.has(name)) params.set(name, value);
  }
  return params;
}

function percentBytes(text: string): Uint8Array | null {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '%') {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return null;
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      const code = text.charCodeAt(i);
      if (code > 0x7e) return null;
      bytes.push(code);
    }
  }
  return Uint8Array.from(bytes);
}

function extValue(value: string): string | null {
  const m = /^([A-Za-z0-9!#$%&+^_`{}~-]+)'[^']*'(.*)$/.exec(value);
  if (!m) return null;
  const bytes = percentBytes(m[2]!);
  if (bytes === null) return null;
  const charset = m[1]!.toLowerCase();
  if (charset === 'iso-8859-1') return Buffer.from(bytes).toString('latin1');
  if (charset !== 'utf-8') return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

// Node hands header values over as Latin-1; a client that wrote the name in raw UTF-8 (curl does) gets it back intact.
function latin1AsUtf8(value: string): string {
  if (!/[\u0080-\u00ff]/.test(value) || /[\u0100-\uffff]/.test(value)) return value;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}

/** The file name of an upload's Content-Disposition: `filename*` (UTF-8 or ISO-8859-1) preferred over `filename`; null when it names none. */
export function fileNameFromContentDisposition(header: string | undefined): string | null {
  if (header === undefined) return null;
  const params = parameters(header);
  const extended = params.get('filename*');
  const decoded = extended === undefined ? null : extValue(extended);
  if (decoded !== null) return decoded;
  const plain = params.get('filename');
  return plain === undefined ? null : latin1AsUtf8(plain);
}

/**
 * The Content-Disposition of a download: `attachment` (or `inline`, for viewInlineType's types only), an ASCII
 * `filename` for old clients (anything else, quotes, backslashes and percent signs replaced by `_`) and the exact name
 * as `filename*=UTF-8''…`.
 */
export function contentDisposition(fileName: string, disposition: 'attachment' | 'inline' = 'attachment'): string {
  const ascii = fileName.replace(/[^\u0020-\u007e]|["\\%]/gu, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The types a browser shows inline without running anything of the file as a page of this site: PDF (its viewer is
 * the browser's own) and raster images. Never SVG, HTML, XML or any other type, which can carry script.
 */
const INLINE_TYPES = new Set(['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The type to send a file inline as (its lower-cased media type without parameters), or null when it must download. */
export function viewInlineType(contentType: string): string | null {
  const essence = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return INLINE_TYPES.has(essence) ? essence : null;
}
