import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

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
