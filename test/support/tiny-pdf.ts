/** A tiny but well-formed PDF, for uploads to attachment definitions that take application/pdf. */
export const TINY_PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
