// What people call the kinds of file a browser sends: the pages speak of "a PDF" or "a text file", never of
// media types. Only the types programs use and those people commonly pick by mistake are named; others fall back to
// their extension-like subtype.
const NAMES: Record<string, { short: string; file: string }> = {
  'application/pdf': { short: 'PDF', file: 'a PDF' },
  'image/jpeg': { short: 'JPEG', file: 'a JPEG image' },
  'image/png': { short: 'PNG', file: 'a PNG image' },
  'image/gif': { short: 'GIF', file: 'a GIF image' },
  'image/heic': { short: 'HEIC', file: 'a HEIC photo' },
  'image/webp': { short: 'WebP', file: 'a WebP image' },
  'image/tiff': { short: 'TIFF', file: 'a TIFF image' },
  'text/plain': { short: 'text', file: 'a text file' },
  'text/html': { short: 'HTML', file: 'a web page (HTML)' },
  'text/csv': { short: 'CSV', file: 'a CSV file' },
  'application/msword': { short: 'Word', file: 'a Word document' },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': { short: 'Word', file: 'a Word document' },
  'application/vnd.ms-excel': { short: 'Excel', file: 'an Excel spreadsheet' },
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { short: 'Excel', file: 'an Excel spreadsheet' },
  'application/zip': { short: 'ZIP', file: 'a ZIP archive' },
  'application/octet-stream': { short: 'any file', file: 'a file of unknown type' },
};

function bare(mediaType: string): string {
  return mediaType.split(';')[0]!.trim().toLowerCase();
}

/** A file type's short name for lists of accepted types: "PDF", "JPEG"; else the subtype in capitals. */
export function fileTypeName(mediaType: string): string {
  const type = bare(mediaType);
  return NAMES[type]?.short ?? (type.split('/')[1] ?? type).toUpperCase();
}

/** Accepted types as a phrase: "PDF", "JPEG or PNG", "PDF, JPEG or PNG". */
export function acceptedTypesText(types: string[]): string {
  const names = [...new Set(types.map(fileTypeName))];
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

/** The sentence shown when a file of a type the attachment does not take is refused: "This file is a text file; only PDF is accepted." */
export function refusedTypeMessage(sent: string | null, accepted: string[]): string {
  const type = sent === null || sent.trim() === '' ? 'application/octet-stream' : bare(sent);
  const what = NAMES[type]?.file ?? `a ${(type.split('/')[1] ?? type).toUpperCase()} file`;
  return `This file is ${what}; only ${acceptedTypesText(accepted)} is accepted.`;
}
