import type { FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';

/** The two representations of every API document. */
export type AnswerFormat = 'xml' | 'json';

/** The media type of every JSON answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';

// Listed XML first: when Accept ranks both the same (or names neither), the answer is XML, as it always was.
const AVAILABLE = ['application/xml', 'application/json'];

/**
 * The representation the request's Accept prefers (RFC 9110 §12.5.1): JSON only when Accept ranks application/json
 * above XML; XML when it names neither, ranks them equally, or there is no Accept at all.
 */
export function answerFormat(request: FastifyRequest): AnswerFormat {
  const accept = request.headers.accept;
  if (accept === undefined || !accept.includes('json')) return 'xml';
  const preferred = new Negotiator({ headers: { accept } }).mediaType(AVAILABLE);
  return preferred === 'application/json' ? 'json' : 'xml';
}

/** True when the request body is declared JSON (application/json or an application/…+json type). */
export function isJsonBody(request: FastifyRequest): boolean {
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  return /^application\/([a-z0-9.-]+\+)?json\s*(;|$)/.test(type);
}
