import type { ApiError } from '../domain/api-error.ts';
import { escapeHtml } from './html-escape.ts';

/** Where the web pages live; an error on a path below it is answered as a page, not as XML. */
export const WEB_PREFIX = '/MvcProjects/';

/** The staff work queue's path prefix (the commercial product's), also answered with pages. */
export const QUEUE_PREFIX = '/Projects/';

/** True for a request of a web page, which is answered with an HTML page (and sign-in), not XML. */
export function isWebPath(url: string): boolean {
  return url.startsWith(WEB_PREFIX) || url.startsWith(QUEUE_PREFIX);
}

/** The HTML page an error of a web page is answered with: the status, and the same message the API gives. */
export function renderErrorPage(error: ApiError): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(error.code)}</title></head><body><h1>${error.status}</h1><p>${escapeHtml(error.message)}</p></body></html>\n`;
}
