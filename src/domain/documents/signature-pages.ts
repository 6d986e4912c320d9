import PDFDocument from 'pdfkit';
import type { EnvelopeStep, SignedBy } from '../../model/document.ts';
import { loadDocumentFonts } from './document-fonts.ts';

/** What the pages after a signed document show: the envelope, its signers, and every step of its trail. */
export interface SignaturePagesInput {
  title: string; envelopeId: string; projectNumber: string; signers: SignedBy[]; steps: EnvelopeStep[]; timeZone: string;
  /** The SHA-256 (hex) and page count of the document the signers signed, and the agency that seals it. */
  documentSha256: string; documentPages: number; agencyName: string;
  /** The pages' size in points (the document's first page's), and the time the PDF says it was made. */
  size: [number, number]; madeAt: number;
}

const MARGIN = 56;
const STEP_NAMES: Record<EnvelopeStep['action'], string> = {
  created: 'Envelope created', notified: 'Link sent', viewed: 'Document viewed', consented: 'Consented to sign electronically',
  signed: 'Signed', declined: 'Declined', voided: 'Voided', resent: 'Link sent again', reminded: 'Reminder sent', completed: 'Completed',
};

/** Date and time to the second in the envelope's time zone, then the same instant in UTC: an audit trail's reader may be anywhere. */
export function trailTime(ms: number, timeZone: string): string {
  const local = new Intl.DateTimeFormat('en-US', {
    year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit', timeZone, timeZoneName: 'short',
  }).format(ms);
  return `${local} (${new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')})`;
}

/**
 * The signature page and the certificate of completion of a signed document, as a PDF of their own (pdfkit, DejaVu
 * embedded) to be put after the document's pages. The same input makes the same bytes: every date is the input's.
 */
export async function renderSignaturePages(input: SignaturePagesInput): Promise<Uint8Array> {
  // Only the pages are copied into the signed document, never this file's own catalog or metadata; its date is
  // still the input's, since pdfkit derives the file's id from it.
  const doc = new PDFDocument({ size: input.size, margin: MARGIN, bufferPages: true, autoFirstPage: false, info: { Producer: 'apas', CreationDate: new Date(input.madeAt) } });
  // The DejaVu faces parsed once per process (document-fonts.ts), embedded in every PDF: no system font is needed.
  const f = loadDocumentFonts();
  doc.registerFont('regular', f.regular as never).registerFont('bold', f.bold as never).registerFont('oblique', f.italic as never);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  signaturePage(doc, input);
  certificatePages(doc, input);
  footers(doc, input);
  doc.end();
  await done;
  return new Uint8Array(Buffer.concat(chunks));
}

function heading(doc: PDFKit.PDFDocument, text: string, input: SignaturePagesInput): void {
  doc.font('bold').fontSize(18).text(text);
  doc.font('regular').fontSize(10).moveDown(0.3).text(input.title);
  doc.text(`Project ${input.projectNumber} · envelope ${input.envelopeId}`).moveDown(1);
}

function signaturePage(doc: PDFKit.PDFDocument, input: SignaturePagesInput): void {
  doc.addPage();
  heading(doc, 'Signatures', input);
  doc.fontSize(10).text(`Each person below signed the ${input.documentPages}-page document above electronically, by typing their name after consenting to sign electronically.`).moveDown(1);
  for (const s of input.signers) {
    if (doc.y > doc.page.height - MARGIN - 110) doc.addPage();
    const top = doc.y;
    doc.font('oblique').fontSize(16).text(s.typedName, MARGIN + 8, top + 6);
    doc.font('regular').fontSize(10).moveDown(0.2);
    line(doc, 'Name', s.signerName);
    line(doc, 'Signs as', s.role);
    line(doc, 'E-mail', s.email);
    line(doc, 'Signed', trailTime(s.signedAt, input.timeZone));
    line(doc, 'IP address', s.ip ?? 'not recorded');
    const bottom = doc.y + 6;
    doc.rect(MARGIN, top, doc.page.width - 2 * MARGIN, bottom - top).lineWidth(0.5).stroke();
    doc.x = MARGIN;
    doc.y = bottom + 12;
  }
}

function line(doc: PDFKit.PDFDocument, label: string, value: string): void {
  doc.font('bold').text(`${label}: `, MARGIN + 8, undefined, { continued: true }).font('regular').text(value);
}

function certificatePages(doc: PDFKit.PDFDocument, input: SignaturePagesInput): void {
  doc.addPage();
  heading(doc, 'Certificate of completion', input);
  doc.fontSize(10);
  line(doc, 'Document', `${input.title} (${input.documentPages} ${input.documentPages === 1 ? 'page' : 'pages'})`);
  line(doc, 'Document SHA-256', input.documentSha256);
  line(doc, 'Signers', String(input.signers.length));
  line(doc, 'Sealed by', `${input.agencyName}, with a digital signature over this whole file: any change to it after sealing can be detected.`);
  doc.x = MARGIN;
  doc.moveDown(1).font('bold').fontSize(12).text('Audit trail').moveDown(0.4);
  stepTable(doc, input);
}

const COLUMNS = [
  { title: 'Time', share: 0.24 }, { title: 'Step', share: 0.17 }, { title: 'Signer', share: 0.18 }, { title: 'IP address', share: 0.13 }, { title: 'User agent', share: 0.28 },
];

function stepTable(doc: PDFKit.PDFDocument, input: SignaturePagesInput): void {
  const width = doc.page.width - 2 * MARGIN;
  const names = new Map(input.signers.filter((s) => s.signerId !== undefined).map((s) => [s.signerId!, s.signerName]));
  const row = (cells: string[], font: 'regular' | 'bold') => {
    doc.font(font).fontSize(8);
    const heights = cells.map((c, i) => doc.heightOfString(c, { width: COLUMNS[i]!.share * width - 4 }));
    const height = Math.max(...heights) + 4;
    if (doc.y + height > doc.page.height - MARGIN - 14) doc.addPage();
    const top = doc.y;
    let x = MARGIN;
    cells.forEach((c, i) => {
      doc.text(c, x, top + 2, { width: COLUMNS[i]!.share * width - 4 });
      x += COLUMNS[i]!.share * width;
    });
    doc.moveTo(MARGIN, top + height).lineTo(MARGIN + width, top + height).lineWidth(0.3).stroke();
    doc.x = MARGIN;
    doc.y = top + height + 2;
  };
  row(COLUMNS.map((c) => c.title), 'bold');
  for (const step of [...input.steps].sort((a, b) => a.at - b.at)) {
    const signer = step.signerId === null ? '' : names.get(step.signerId) ?? step.signerId;
    const reason = typeof step.detail.reason === 'string' && step.detail.reason !== '' ? `: ${step.detail.reason}` : '';
    row([trailTime(step.at, input.timeZone), `${STEP_NAMES[step.action]}${reason}`, signer, step.ip ?? '', step.userAgent ?? ''], 'regular');
  }
}

// "Envelope … · page n of m" under each of these pages, written once all are laid out and their number is known.
function footers(doc: PDFKit.PDFDocument, input: SignaturePagesInput): void {
  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('regular').fontSize(8).text(`Envelope ${input.envelopeId} · signatures and certificate, page ${i + 1} of ${range.count}`, MARGIN, doc.page.height - MARGIN + 16, {
      width: doc.page.width - 2 * MARGIN, align: 'center', lineBreak: false,
    });
    doc.page.margins.bottom = bottom;
  }
}
