import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The security headers of every web page: a Content-Security-Policy that allows no script and no framing, nosniff,
 * a same-origin Referrer-Policy, and HSTS when the service is reached over HTTPS.
 */
export function webSecurityOptions(secure: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"], scriptSrc: ["'none'"], styleSrc: ["'self'"], imgSrc: ["'self'", 'data:'], formAction: ["'self'"],
        frameAncestors: ["'none'"], baseUri: ["'none'"], objectSrc: ["'none'"], ...(secure ? { upgradeInsecureRequests: [] } : {}),
      },
    },
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
