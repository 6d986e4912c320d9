import PDFDocument from 'pdfkit';
import type { DocumentFonts } from './document-fonts.ts';
import type { Block, Run } from './markdown-layout.ts';

/** What a PDF is made of: the laid-out body, the header and footer of each page (by page number), metadata and logo. */
export interface PdfInput {
  blocks: Block[]; title: string; language: string;
  /** The text at the top and bottom of a page, given its number and the count; null for none. */
  header: ((page: number, pages: number) => string) | null;
  footer: ((page: number, pages: number) => string) | null;
  logo: Buffer | null;
  /** The document's creation and modification time: fixed by the input, so the same input gives the same bytes. */
  createdAt: number;
  /** False writes the page content uncompressed (tests read the text). */
  compress?: boolean;
}

const MARGIN = 72;
const BODY_SIZE = 11;
const HEADING_SIZES = [20, 16, 14, 12, 11, 11];
const FACES = { regular: 'DejaVu', bold: 'DejaVu-Bold', italic: 'DejaVu-Oblique', boldItalic: 'DejaVu-BoldOblique' } as const;

type Doc = InstanceType<typeof PDFDocument>;
type Struct = ReturnType<Doc['struct']>;

/**
 * Draws a document's blocks as a tagged PDF (PDF/UA structure where pdfkit allows: headings, paragraphs, lists with
 * labels and bodies, tables with header cells; page headers, footers and the logo as artifacts), with its title shown
 * as the window title and its language set, every font embedded.
 */
export function renderPdf(input: PdfInput, fonts: DocumentFonts): Promise<Uint8Array> {
  const date = new Date(input.createdAt);
  const doc = new PDFDocument({
    size: 'LETTER', margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN }, bufferPages: true,
    tagged: true, lang: input.language, displayTitle: true, pdfVersion: '1.7', compress: input.compress ?? true,
    info: { Title: input.title, Producer: 'apas', Creator: 'apas', CreationDate: date, ModDate: date },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
  });
  // Parsed faces, which @types/pdfkit does not list among a font's sources though pdfkit takes them.
  for (const [face, font] of [[FACES.regular, fonts.regular], [FACES.bold, fonts.bold], [FACES.italic, fonts.italic], [FACES.boldItalic, fonts.boldItalic]] as const) {
    doc.registerFont(face, font as never);
  }
  doc.font(FACES.regular).fontSize(BODY_SIZE);
  const root = doc.struct('Document');
  doc.addStructure(root);
  if (input.logo) drawLogo(doc, input.logo);
  for (const block of input.blocks) drawBlock(doc, root, block);
  root.end();
  drawMargins(doc, input);
  doc.end();
  return done;
}

function drawLogo(doc: Doc, logo: Buffer): void {
  doc.markContent('Artifact', { type: 'Layout' });
  doc.image(logo, MARGIN, MARGIN, { fit: [160, 48] });
  doc.endMarkedContent();
  doc.y = MARGIN + 60;
}

function drawBlock(doc: Doc, root: Struct, block: Block): void {
  switch (block.kind) {
    case 'heading': {
      const size = HEADING_SIZES[block.level - 1] ?? BODY_SIZE;
      doc.moveDown(0.4);
      root.add(doc.struct(`H${block.level}`, {}, () => writeRuns(doc, block.runs.map((r) => ({ ...r, bold: true })), size)));
      doc.moveDown(0.3);
      return;
    }
    case 'paragraph':
      root.add(doc.struct('P', {}, () => writeRuns(doc, block.runs, BODY_SIZE)));
      doc.moveDown(0.6);
      return;
    case 'list':
      drawList(doc, root, block);
      return;
    case 'table':
      drawTable(doc, root, block);
      return;
    case 'rule': {
      doc.markContent('Artifact', { type: 'Layout' });
      const y = doc.y + 4;
      doc.moveTo(MARGIN, y).lineTo(doc.page.width - MARGIN, y).lineWidth(0.5).stroke();
      doc.endMarkedContent();
      doc.y = y + 10;
    }
  }
}

function writeRuns(doc: Doc, runs: Run[], size: number, x = MARGIN, width = doc.page.width - 2 * MARGIN): void {
  const shown = runs.length > 0 ? runs : [{ text: ' ', bold: false, italic: false }];
  shown.forEach((r, i) => {
    const face = r.bold ? (r.italic ? FACES.boldItalic : FACES.bold) : r.italic ? FACES.italic : FACES.regular;
    doc.font(face).fontSize(size);
    const options = { continued: i < shown.length - 1, width, lineGap: 2 };
    if (i === 0) doc.text(r.text, x, doc.y, options);
    else doc.text(r.text, options);
  });
  doc.font(FACES.regular).fontSize(BODY_SIZE);
}

function drawList(doc: Doc, root: Struct, block: Block & { kind: 'list' }): void {
  const list = doc.struct('L');
  root.add(list);
  const numbers: number[] = [];
  for (const item of block.items) {
    numbers.length = item.depth + 1;
    numbers[item.depth] = (numbers[item.depth] ?? (item.depth === 0 ? block.start : 1) - 1) + 1;
    const x = MARGIN + 18 * (item.depth + 1);
    const label = block.ordered ? `${numbers[item.depth]}.` : item.depth % 2 === 0 ? '•' : '◦';
    const li = doc.struct('LI');
    list.add(li);
    const y = doc.y;
    li.add(doc.struct('Lbl', {}, () => {
      doc.font(FACES.regular).fontSize(BODY_SIZE).text(label, x - 16, y, { width: 16, lineBreak: false });
    }));
    li.add(doc.struct('LBody', {}, () => writeRuns(doc, item.runs, BODY_SIZE, x, doc.page.width - MARGIN - x)));
    li.end();
    doc.moveDown(0.2);
  }
  list.end();
  doc.moveDown(0.4);
}

function drawTable(doc: Doc, root: Struct, block: Block & { kind: 'table' }): void {
  const header = block.header.map((text) => ({ text, type: 'TH' as const, scope: 'Column' as const, font: { src: FACES.bold } }));
  doc.x = MARGIN;
  doc.font(FACES.regular).fontSize(BODY_SIZE - 1);
  doc.table({ structParent: root, data: [header, ...block.rows] } as never);
  doc.font(FACES.regular).fontSize(BODY_SIZE);
  doc.x = MARGIN;
  doc.moveDown(0.6);
}

// Headers and footers are drawn once every page exists, so that they can say how many there are.
function drawMargins(doc: Doc, input: PdfInput): void {
  if (!input.header && !input.footer) return;
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    const margins = doc.page.margins;
    doc.page.margins = { ...margins, top: 0, bottom: 0 };
    const width = doc.page.width - 2 * MARGIN;
    doc.font(FACES.regular).fontSize(9).fillColor('#444444');
    doc.markContent('Artifact', { type: 'Pagination' });
    if (input.header) doc.text(input.header(i + 1, count), MARGIN, MARGIN / 2, { width, lineBreak: false, height: 12 });
    if (input.footer) doc.text(input.footer(i + 1, count), MARGIN, doc.page.height - MARGIN / 2 - 10, { width, lineBreak: false, height: 12 });
    doc.endMarkedContent();
    doc.fillColor('black');
    doc.page.margins = margins;
  }
}
