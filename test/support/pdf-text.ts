import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, type PDFRef } from 'pdf-lib';

// Reads back what a PDF shows, independently of the library that wrote it: each page's content streams are decoded
// with pdf-lib, and the glyph codes of its text operators turned into characters through each font's ToUnicode map.

/** The text of each page of a PDF, its text operators' strings joined (a TJ array's pieces without spaces between). */
export async function pdfPageTexts(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  return doc.getPages().map((page) => {
    const fonts = new Map<string, Map<number, string>>();
    const fontDict = page.node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict);
    for (const [name, ref] of fontDict?.entries() ?? []) {
      const font = doc.context.lookup(ref as PDFRef, PDFDict);
      const toUnicode = font.lookup(PDFName.of('ToUnicode'));
      fonts.set(name.asString().slice(1), toUnicode instanceof PDFRawStream ? cmapOf(streamText(toUnicode)) : new Map());
    }
    const contents = page.node.Contents();
    const streams = (contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents]).filter((s) => s instanceof PDFRawStream);
    return streams.map((s) => textOf(streamText(s), fonts)).join('');
  });
}

function streamText(stream: PDFRawStream): string {
  return Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
}

function cmapOf(text: string): Map<number, string> {
  const map = new Map<number, string>();
  const hex = (h: string) => Number.parseInt(h, 16);
  // A ligature's glyph maps to several characters, written with spaces between them (e.g. <0066 0069> for "fi").
  const unicode = (h: string) => Buffer.from(h.replace(/\s+/g, ''), 'hex').swap16().toString('utf16le');
  for (const block of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const m of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) map.set(hex(m[1]!), unicode(m[2]!));
  }
  for (const block of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const m of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g)) {
      const [from, to] = [hex(m[1]!), hex(m[2]!)];
      if (m[3]!.startsWith('[')) for (const [i, d] of [...m[3]!.matchAll(/<([0-9a-fA-F\s]+)>/g)].entries()) map.set(from + i, unicode(d[1]!));
      else for (let c = from, base = hex(m[3]!.slice(1, -1)); c <= to; c++) map.set(c, String.fromCodePoint(base + c - from));
    }
  }
  return map;
}

// Walks the operators: `/F1 11 Tf` chooses the font, hex strings of Tj and TJ are its glyph codes (two bytes each).
function textOf(content: string, fonts: Map<string, Map<number, string>>): string {
  let font = new Map<number, string>();
  let out = '';
  for (const m of content.matchAll(/\/([A-Za-z0-9_.-]+)\s+[\d.]+\s+Tf|<([0-9a-fA-F]*)>|(T\*|Td|TD|ET)\b/g)) {
    if (m[1] !== undefined) font = fonts.get(m[1]) ?? new Map();
    else if (m[2] !== undefined) for (let i = 0; i + 4 <= m[2].length; i += 4) out += font.get(Number.parseInt(m[2].slice(i, i + 4), 16)) ?? '';
    else out += m[3] === 'ET' ? '\n' : '';
  }
  return out;
}
