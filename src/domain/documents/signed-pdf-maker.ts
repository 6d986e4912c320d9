import crypto from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import type { PdfSealer, SignedPdfMaker } from '../../model/document.ts';
import { renderSignaturePages } from './signature-pages.ts';

/** US Letter, for a document whose first page has no usable size. */
const LETTER: [number, number] = [612, 792];

/**
 * A SignedPdfMaker: the document's pages as they are, then a signature page and the certificate of completion (the
 * envelope's trail), copied in with pdf-lib, then sealed by `sealer`. Every date in the file comes from the input (the
 * last step or signature), so equal input gives equal bytes up to the seal, which carries its own time.
 */
export function createSignedPdfMaker(sealer: PdfSealer, options: { agencyName: string }): SignedPdfMaker {
  return {
    async make(input) {
      const doc = await PDFDocument.load(input.document, { updateMetadata: false });
      const first = doc.getPages()[0];
      const size: [number, number] = first ? [first.getWidth(), first.getHeight()] : LETTER;
      const madeAt = Math.max(0, ...input.steps.map((s) => s.at), ...input.signers.map((s) => s.signedAt));
      const appendix = await PDFDocument.load(await renderSignaturePages({
        ...input, agencyName: options.agencyName, size, madeAt, documentPages: doc.getPageCount(),
        documentSha256: crypto.createHash('sha256').update(input.document).digest('hex'),
      }), { updateMetadata: false });
      for (const page of await doc.copyPages(appendix, appendix.getPageIndices())) doc.addPage(page);
      doc.setModificationDate(new Date(madeAt));
      const merged = await doc.save({ useObjectStreams: false });
      return sealer.seal(merged, `Signed by ${input.signers.map((s) => s.signerName).join(', ')} (envelope ${input.envelopeId}, project ${input.projectNumber})`);
    },
  };
}
