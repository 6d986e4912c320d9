import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

function pageDirectives(secure: boolean): Record<string, string[]> {
  return {
    defaultSrc: ["'self'"], scriptSrc: ["'none'"], styleSrc: ["'self'"], fontSrc: ["'self'"], imgSrc: ["'self'", 'data:'], formAction: ["'self'"],
    frameAncestors: ["'none'"], baseUri: ["'none'"], objectSrc: ["'none'"], ...(secure ? { upgradeInsecureRequests: [] } : {}),
  };
}

/**
 * The Content-Security-Policy of a PDF shown inline: the pages' own (no script, no framing), but with `object-src
 * 'self'`, since Chromium shows a PDF in its viewer as an embedded object of the file itself and refuses to under
 * `object-src 'none'`. A PDF is no page of this site, so nothing else the relaxation allows has anything to load.
 */
export function inlinePdfPolicy(secure: boolean): string {
  const directives = { ...pageDirectives(secure), objectSrc: ["'self'"] };
  return Object.entries(directives).map(([name, values]) => [name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), ...values].join(' ')).join('; ');
}

/**
 * The security headers of every web page: a Content-Security-Policy that allows no script and no framing, nosniff,
 * a same-origin Referrer-Policy, and HSTS when the service is reached over HTTPS.
 */
export function webSecurityOptions(secure: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: pageDirectives(secure) },
    // With helmet's default no-referrer, browsers send "Origin: null" even on a same-origin form post, which the
    // inquiry reply's same-origin check must refuse; same-origin still sends nothing to other sites.
    referrerPolicy: { policy: 'same-origin' },
    // Served over plain HTTP on a developer's machine, HSTS would pin localhost to HTTPS for a year.
    strictTransportSecurity: secure,
  };
}

/**
 * Sets the web pages' security headers on a raw response, before the answer is written: run for every page and also
 * for the 404 and 405 of an unknown path or method under the pages' prefixes, which no route of the pages answers.
 */
export function webSecurityHeaders(secure: boolean): (request: IncomingMessage, response: ServerResponse) => void {
  const middleware = helmet(webSecurityOptions(secure));
  return (request, response) => middleware(request, response, (error?: unknown) => {
    if (error) throw error;
  });
}
