import type { ApiError } from '../domain/api-error.ts';
import { renderPage } from './render-page.ts';

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
  // Rendered like every page, so the message (which may quote what was sent) is escaped by the renderer.
  return renderPage(
    <html lang="en">
      <head><meta charset="utf-8" /><title>{error.code}</title></head>
      <body><h1>{error.status}</h1><p>{error.message}</p></body>
    </html>,
  );
}
