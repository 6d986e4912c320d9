import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/api-error.ts';
import { isJsonBody } from './answer-format.ts';
import type { UnsupportedBody } from './fastify-types.ts';

/** The media type of every XML answer. */
export const XML_TYPE = 'application/xml; charset=utf-8';

/** Answers up to this many characters are sent as one string; longer ones are streamed. */
const WHOLE_BELOW = 256 * 1024;

/**
 * Sends an XML document, whole or as a stream of chunks (large lists are never built as one string). Chunks are
 * gathered up to WHOLE_BELOW characters first: most answers end before that and are sent at once, which costs far
 * less than a stream.
 */
export function sendXml(reply: FastifyReply, body: string | Iterable<string>, status = 200): FastifyReply {
  reply.code(status).type(XML_TYPE);
  if (typeof body === 'string') return reply.send(body);
  const chunks = body[Symbol.iterator]();
  const gathered: string[] = [];
  let length = 0;
  for (;;) {
    const next = chunks.next();
    if (next.done) return reply.send(gathered.join(''));
    gathered.push(next.value);
    length += next.value.length;
    if (length >= WHOLE_BELOW) break;
  }
  function* rest(): Generator<string> {
    yield gathered.join('');
    for (let next = chunks.next(); !next.done; next = chunks.next()) yield next.value;
  }
  return reply.send(Readable.from(rest(), { objectMode: false }));
}

/** The raw XML body of a request, or a clear error when the request sent none or another media type. */
export function xmlBody(request: FastifyRequest, expectedRoot: string): Buffer {
  const body = request.body as Buffer | UnsupportedBody | undefined | null;
  if (body && !Buffer.isBuffer(body)) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Send the ${expectedRoot} document as application/xml; got Content-Type "${body.unsupportedContentType}".`);
  }
  // JSON bodies reach every route as bytes (for the routes that read them); a route that reads only XML refuses them.
  if (isJsonBody(request)) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Send the ${expectedRoot} document as application/xml; got Content-Type "${String(request.headers['content-type'])}".`);
  }
  if (!body || body.length === 0) throw new ApiError('INVALID_REQUEST', `The request body is empty; expected a ${expectedRoot} document.`);
  return body;
}
