/**
 * What signers agree to when a template gives no disclosure of its own: the consent to sign electronically that
 * ESIGN and UETA practice expect, with the right to a paper copy and how to withdraw consent.
 */
export const DEFAULT_DISCLOSURE = [
  'Before you sign, please read this. By checking the box below you agree to use an electronic signature and electronic records for this document, '
  + 'and your typed name will be your signature, with the same effect as a signature on paper.',
  'You have the right to sign on paper instead. To ask for a paper copy of this document, or to sign it on paper, contact the agency that sent it; '
  + 'a paper copy is free of charge.',
  'You may withdraw your consent at any time before you sign by declining on this page or by telling the agency; withdrawing does not undo '
  + 'what was signed before. To sign electronically you need a web browser that shows PDF files, and an e-mail address the agency can reach you at.',
].join('\n\n');
