import { Liquid, type Template } from 'liquidjs';
import { markdownText, rowsTable } from './markdown-escape.ts';

/** The limits every document template runs under: characters parsed, render time, Liquid's memory count and the output's size. */
export const TEMPLATE_LIMITS = { parseChars: 100_000, renderMs: 2_000, memory: 4_000_000, outputChars: 200_000 } as const;

// Tags that read other templates (files): a document template is one text, so they are not tags at all here.
const FILE_TAGS = ['include', 'render', 'layout', 'block'];

/**
 * A Liquid engine for document templates: strict variables and filters, no file system (the tags that would read
 * one are removed, so they fail as unknown tags), limits set, every output escaped as Markdown text, and dates in UTC
 * (every date given to a template is a calendar day already in the program's time zone). `now` is what the `date`
 * filter's "now" and "today" mean, so that the same input renders the same bytes.
 */
export function documentLiquid(now = 0): Liquid {
  const liquid = new Liquid({
    strictVariables: true, strictFilters: true, ownPropertyOnly: true, templates: {}, relativeReference: false, dynamicPartials: false,
    parseLimit: TEMPLATE_LIMITS.parseChars, renderLimit: TEMPLATE_LIMITS.renderMs, memoryLimit: TEMPLATE_LIMITS.memory,
    timezoneOffset: 0, locale: 'en-US', outputEscape: markdownText,
  });
  for (const tag of FILE_TAGS) delete liquid.tags[tag];
  const date = liquid.filters.date;
  const handler = typeof date === 'function' ? date : date?.handler;
  if (handler) {
    liquid.registerFilter('date', function (this: unknown, value: unknown, ...args: unknown[]) {
      return handler.call(this as never, value === 'now' || value === 'today' ? new Date(now) : value, ...args);
    });
  }
  // Its output is Markdown made here from escaped cells, so it is not escaped again.
  liquid.registerFilter('rowsTable', { handler: rowsTable, raw: true });
  return liquid;
}

/** Whether a tag name is one a document template may not use because it reads other templates. */
export function isFileTag(name: string): boolean {
  return FILE_TAGS.includes(name);
}

/** A parsed template, or where and why it does not parse (line and column within its text, 1-based). */
export type ParsedTemplate = { templates: Template[] } | { problem: { line: number; column: number; message: string } };

/** Parses a template's text, turning Liquid's errors into a message and a place. */
export function parseTemplate(liquid: Liquid, source: string): ParsedTemplate {
  try {
    return { templates: liquid.parse(source) };
  } catch (error) {
    return { problem: describeLiquidError(error, source) };
  }
}

/** Where and why Liquid refused a template, worded for program authors. */
export function describeLiquidError(error: unknown, source: string): { line: number; column: number; message: string } {
  const e = error as { message?: string; token?: { getPosition?: () => [number, number]; begin?: number; end?: number } };
  const [line, column] = e.token?.getPosition?.() ?? [1, 1];
  const raw = String(e.message ?? error).replace(/, line:\d+, col:\d+$/, '');
  const filter = /^undefined filter: (.+)$/.exec(raw);
  if (filter) return { ...placeOf(source, e.token?.begin ?? 0, filter[1]!, line, column), message: `unknown filter "${filter[1]}"` };
  const tag = /^tag "(.+)" not found$/.exec(raw);
  if (tag) {
    const why = isFileTag(tag[1]!) ? ': a document template is one text and reads no other' : '';
    return { line, column, message: `unknown tag "${tag[1]}"${why}` };
  }
  return { line, column, message: raw };
}

// Liquid places a filter problem at the start of its output tag; the filter's own name is a better place.
function placeOf(source: string, begin: number, name: string, line: number, column: number): { line: number; column: number } {
  const at = source.indexOf(name, begin);
  if (at < 0) return { line, column };
  const before = source.slice(0, at);
  return { line: before.split('\n').length, column: at - (before.lastIndexOf('\n') + 1) + 1 };
}
