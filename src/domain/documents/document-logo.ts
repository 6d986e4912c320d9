import { inflateSync } from 'node:zlib';

/** The most bytes a document's logo (a PNG) may have, and the most pixels it may decode to. */
export const MAX_LOGO_BYTES = 64 * 1024;
export const MAX_LOGO_PIXELS = 1024 * 1024;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** The logo's bytes: base64 (line breaks and spaces allowed) decoded. */
export function logoBytes(base64: string): Buffer {
  return Buffer.from(base64.replace(/\s+/g, ''), 'base64');
}

/**
 * Why a logo cannot be used, or null when it can: it must be base64 of a PNG of at most 64 KiB that decodes, here and
 * now, to exactly the pixels its header announces (not interlaced, at most a million of them) — so that drawing it
 * later, when a document is made, cannot fail.
 */
export function logoProblem(base64: string): string | null {
  const compact = base64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 !== 0) return 'is not base64';
  const bytes = logoBytes(compact);
  if (bytes.length > MAX_LOGO_BYTES) return `has ${bytes.length} bytes; at most ${MAX_LOGO_BYTES} are allowed`;
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString('latin1', 12, 16) !== 'IHDR') return 'is not a PNG image';
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const [depth, color, , , interlace] = [...bytes.subarray(24, 29)];
  const channels = CHANNELS[color ?? -1];
  if (channels === undefined || ![1, 2, 4, 8, 16].includes(depth ?? 0) || interlace !== 0) return 'is a PNG of a kind documents do not draw (use an 8-bit, non-interlaced PNG)';
  if (width === 0 || height === 0 || width * height > MAX_LOGO_PIXELS) return `has ${width} × ${height} pixels; at most ${MAX_LOGO_PIXELS} are allowed`;
  const expected = height * (1 + Math.ceil((width * channels * depth!) / 8));
  try {
    if (inflateSync(idat(bytes), { maxOutputLength: expected + 1 }).length !== expected) return 'is a damaged PNG image';
  } catch {
    return 'is a damaged PNG image';
  }
  return null;
}

// The image data: every IDAT chunk's bytes, in order.
function idat(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 8; at + 8 <= bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') parts.push(bytes.subarray(at + 8, at + 8 + length));
    if (type === 'IEND') break;
    at += 12 + length;
  }
  return Buffer.concat(parts);
}
