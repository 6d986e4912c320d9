import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * A font face parsed by fontkit, the font library pdfkit uses, which pdfkit takes as it is (pdfkit 0.20: "Accept
 * already-parsed fontkit Font instances"). Its tables are decoded on first use and kept, so every PDF after the first
 * reuses them; each PDF still makes its own subset of the glyphs it shows.
 */
export interface ParsedFont { readonly postscriptName: string; layout(text: string): unknown }

/** The DejaVu Sans faces documents and signature pages are set in (from the dejavu-fonts-ttf package, so nothing comes from the system). */
export interface DocumentFonts { regular: ParsedFont; bold: ParsedFont; italic: ParsedFont; boldItalic: ParsedFont }

let parsed: DocumentFonts | null = null;

/**
 * The four DejaVu Sans faces, read and parsed once per process. Parsing them again for each PDF was most of a
 * render's time; and pdfkit given the bytes parses a face again each time a table cell's font is put back.
 */
export function loadDocumentFonts(): DocumentFonts {
  if (parsed) return parsed;
  const require = createRequire(import.meta.url);
  // fontkit as pdfkit itself resolves it: the library and version pdfkit would have parsed the bytes with.
  const fontkit = createRequire(require.resolve('pdfkit'))('fontkit') as { create(bytes: Uint8Array): ParsedFont };
  const dir = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  const face = (name: string) => fontkit.create(readFileSync(path.join(dir, `DejaVuSans${name}.ttf`)));
  parsed = { regular: face(''), bold: face('-Bold'), italic: face('-Oblique'), boldItalic: face('-BoldOblique') };
  return parsed;
}
