import type { IncomingHttpHeaders } from 'node:http';

/** The header a client may name its request with, and every answer carries. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

// What a client's id may be: 1-128 letters, digits and `-_.:+=/@~` (UUIDs, ULIDs, base64, trace ids fit). Anything
// else (spaces, quotes, control characters, a line too long for a log) is replaced by a generated id, so that a
// client cannot write into the log lines or answers that repeat it.
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._:+=/@~-]{0,127}$/;

/**
 * The id of a request: the client's X-Request-Id when it sent one safe id, otherwise `generate()`. Used as Fastify's
 * genReqId, so the id is in every log line of the request, in error bodies (RequestId) and in X-Request-Id answers.
 */
export function requestIdOf(headers: IncomingHttpHeaders, generate: () => string): string {
  const sent = headers['x-request-id'];
  return typeof sent === 'string' && SAFE_ID.test(sent) ? sent : generate();
}
