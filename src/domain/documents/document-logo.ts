/** The most bytes a document's logo (a PNG) may have. */
export const MAX_LOGO_BYTES = 64 * 1024;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The logo's bytes: base64 (line breaks and spaces allowed) decoded. */
export function logoBytes(base64: string): Buffer {
  return Buffer.from(base64.replace(/\s+/g, ''), 'base64');
}

/** Why a logo cannot be used (not base64, not a PNG, too large), or null when it can. */
export function logoProblem(base64: string): string | null {
  const compact = base64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 !== 0) return 'is not base64';
  const bytes = logoBytes(compact);
  if (bytes.length > MAX_LOGO_BYTES) return `has ${bytes.length} bytes; at most ${MAX_LOGO_BYTES} are allowed`;
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString('latin1', 12, 16) !== 'IHDR') return 'is not a PNG image';
  return null;
}
