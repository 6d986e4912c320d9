// Spreadsheets run a cell that starts with one of these as a formula; such cells are written with a leading quote.
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV record (RFC 4180, CRLF): cells quoted when they hold a comma, quote or line break, formulas defused. */
export function csvLine(cells: string[]): string {
  return `${cells.map((cell) => {
    const safe = FORMULA_START.test(cell) ? `'${cell}` : cell;
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  }).join(',')}\r\n`;
}
