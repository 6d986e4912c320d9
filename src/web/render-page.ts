import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

/**
 * A whole HTML document from a page's element tree. Preact escapes every text and attribute value it renders, so
 * what users typed is always shown as text; nothing here concatenates strings of markup.
 */
export function renderPage(page: VNode): string {
  return `<!doctype html>\n${renderToString(page)}\n`;
}
