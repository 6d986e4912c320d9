/** How long a preview's clock stands still: a quarter of an hour (previewTime). */
export const PREVIEW_CLOCK_STEP_MS = 15 * 60_000;

/**
 * The time a document preview is rendered at: `now` down to its quarter hour. A render is the same bytes for the same
 * input, but its time is in the PDF (CreationDate, the file ID made from it, any clock a template prints), so a preview
 * at the exact time would differ on every request, and a PDF viewer fetching one in ranges would join parts of
 * different files. This way the same data previews the same bytes for a quarter hour (docs/web.md, "Documents").
 * Every time zone's offset is a whole number of quarter hours, so `today` and every date shown stay those of `now`.
 */
export function previewTime(now: number): number {
  return now - (((now % PREVIEW_CLOCK_STEP_MS) + PREVIEW_CLOCK_STEP_MS) % PREVIEW_CLOCK_STEP_MS);
}
