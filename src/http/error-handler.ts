import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { redactUrl } from '../domain/redact-secrets.ts';
import { ApiError, type ErrorCode, fromStoreError } from '../domain/api-error.ts';
import { OAuthError } from '../domain/accounts/oauth-error.ts';
import { StoreError } from '../store/store-error.ts';
import { isTransientDbError } from '../store/transient-db-error.ts';
import { isWebPath, renderErrorPage } from '../web/error-page.tsx';
import { SIGN_IN_PATH } from '../web/sign-in-routes.ts';
import { answerFormat, JSON_TYPE, varyAccept } from './answer-format.ts';
import type { ApiCodec } from './api-codec.ts';
import { isOAuthPath, sendOAuthError } from './oauth-reply.ts';
import { REQUEST_ID_HEADER } from './request-id.ts';
import { bodyBrokeOff } from './request-complete.ts';
import type { RouteTable } from './route-table.ts';
import { TEST_PROGRAM_HEADER } from './test-program-marker.ts';
import { XML_TYPE } from './xml-reply.ts';

// Fastify's own failures (body parsing, limits, malformed URLs) mapped onto the service's error codes.
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_REQUEST',
  FST_ERR_CTP_INVALID_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_BAD_URL: 'INVALID_REQUEST',
  FST_ERR_MAX_PARAM_LENGTH: 'INVALID_PARAMETER',
  FST_ERR_ASYNC_CONSTRAINT: 'INVALID_REQUEST',
  FST_CSRF_MISSING_SECRET: 'FORBIDDEN',
  FST_CSRF_INVALID_TOKEN: 'FORBIDDEN',
};

// Unique violations come from two requests creating the same thing at once; the loser is told so.
const CONFLICT_DB_CODES = new Set(['40001', '40P01', '23505', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);
// Input PostgreSQL cannot take: U+0000 or a character outside UTF-8 (22021, 22P05), a value too long for an index
// entry (54000). The readers refuse such input up front; this keeps anything they miss a 400, not a 500.
const UNSTORABLE_DB_CODES = new Set(['22021', '22P05', '54000']);

/**
 * Turns any thrown value into the ApiError that is answered (and logged), its messages bounded; unexpected faults
 * become INTERNAL_ERROR without their details.
 */
export function toApiError(error: unknown): ApiError {
  // Bounded here, where every answered error passes, so answers and log lines stay small whatever was sent.
  return mapError(error).bounded();
}

function mapError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof StoreError) return fromStoreError(error);
  const fe = error as Partial<FastifyError>;
  const mapped = fe.code ? FASTIFY_CODES[fe.code] : undefined;
  if (mapped === 'PAYLOAD_TOO_LARGE') return new ApiError(mapped, 'The request body is larger than this service accepts.');
  if (fe.code?.startsWith('FST_CSRF_')) return new ApiError('FORBIDDEN', 'The form has expired or did not come from this site; nothing was changed. Go back, reload the page and send it again.');
  if (mapped) return new ApiError(mapped, fe.message ?? 'The request could not be read.');
  const dbCode = String((error as { code?: unknown }).code ?? '');
  // Node's error for a request whose client went before the body was whole: the client's doing, not the database's.
  if (dbCode === 'ECONNRESET' && fe.message === 'aborted') return bodyBrokeOff();
  if (UNSTORABLE_DB_CODES.has(dbCode)) return new ApiError('INVALID_REQUEST', 'The request holds a value the database cannot store (a NUL character, or a value too long to index); nothing was changed.');
  if (CONFLICT_DB_CODES.has(dbCode)) return new ApiError('CONFLICT', 'A concurrent change got in the way; nothing was changed, send the request again.');
  // A database that is busy, restarting or unreachable: the one list of transient failures (transient-db-error.ts).
  if (isTransientDbError(error)) {
    return new ApiError('SERVICE_UNAVAILABLE', 'The database is busy or unreachable; nothing was changed, try again shortly.', { headers: { 'Retry-After': '1' } });
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new ApiError('INVALID_REQUEST', fe.message ?? 'The request could not be read.');
  }
  return new ApiError('INTERNAL_ERROR', 'The service failed to handle this request; the fault has been logged.');
}

/** True for a request of a web page, which is answered with an HTML page; everything else gets XML. */
function isWebRequest(request: FastifyRequest): boolean {
  return isWebPath(request.url);
}

/**
 * The one place where an error becomes an HTTP status, headers and a body: an ErrorResponse in XML or JSON (by the
 * request's Accept), an HTML page for the web pages, or RFC 6749 JSON at the OAuth endpoints (oauth-reply.ts).
 */
export function sendError(codec: ApiCodec, request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  const answered = error instanceof OAuthError ? error : toApiError(error);
  if (answered.status >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.info({ code: answered.code, status: answered.status }, answered.message);
  // The OAuth endpoints answer every failure in RFC 6749's JSON, not XML.
  if (answered instanceof OAuthError || isOAuthPath(request.url)) return sendOAuthError(request, reply, answered);
  const apiError = answered;
  // A refusal says nothing about a program the caller may not read, test copy or not (test-program-marker.ts).
  reply.removeHeader(TEST_PROGRAM_HEADER);
  for (const [name, value] of Object.entries(apiError.headers)) reply.header(name, value);
  // Closing with the body unread makes the kernel reset the connection, which can destroy the 413 before the
  // client reads it; without Connection: close Node reads and drops the rest (bounded by the request timeout).
  if (apiError.code === 'PAYLOAD_TOO_LARGE' && request.raw.complete === false) reply.removeHeader('connection');
  const web = isWebRequest(request);
  // A page asked for without any sign-in goes to the sign-in page and comes back after it; only clients that sent
  // Basic credentials (or API clients) are challenged for them.
  if (web && apiError.code === 'AUTHENTICATION_REQUIRED' && request.method === 'GET' && request.headers.authorization === undefined) {
    return reply.code(303).header('Cache-Control', 'no-store').redirect(`${SIGN_IN_PATH}?next=${encodeURIComponent(request.url)}`, 303);
  }
  if (apiError.status === 401 && !reply.hasHeader('www-authenticate') && (!web || request.headers.authorization !== undefined)) {
    reply.header('WWW-Authenticate', 'Basic realm="apas", charset="UTF-8"');
  }
  if (web) {
    return reply.code(apiError.status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(renderErrorPage(apiError, error));
  }
  const format = answerFormat(request);
  varyAccept(reply);
  return reply.code(apiError.status).type(format === 'json' ? JSON_TYPE : XML_TYPE).send(codec.errorBody(apiError, request.id, format));
}

/** What Node reports of a request it could not read: too slow (APAS_REQUEST_TIMEOUT_MS), headers too large, not HTTP. */
export function clientErrorToApiError(error: { code?: string }): ApiError {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new ApiError('REQUEST_TIMEOUT', 'The request did not arrive whole within the time this service allows for sending one; send it again.');
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') return new ApiError('HEADERS_TOO_LARGE', 'The request headers are larger than this service accepts.');
  return new ApiError('INVALID_REQUEST', 'The request is not a well-formed HTTP request.');
}

/**
 * Fastify's clientErrorHandler: answers what Node could not read with the same XML ErrorResponse as every other
 * error (there is no request or reply yet, so the answer is written to the socket), then closes the connection.
 */
export function clientErrorHandler(codec: ApiCodec, nextId: () => string) {
  return function handle(this: { log: FastifyBaseLogger }, error: Error & { code?: string }, socket: Socket): void {
    // A reset connection has nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const apiError = toApiError(clientErrorToApiError(error));
    const requestId = nextId();
    this.log.info({ code: apiError.code, status: apiError.status, reqId: requestId, nodeCode: error.code }, apiError.message);
    // Node's own rule: nothing more is written on a connection whose answer already started.
    const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (socket.writable && !answering?.headersSent) {
      const body = codec.error(apiError, requestId);
      const headers = {
        ...apiError.headers, 'Content-Type': XML_TYPE, 'Content-Length': String(Buffer.byteLength(body)),
        'X-Content-Type-Options': 'nosniff', [REQUEST_ID_HEADER]: requestId, Connection: 'close',
      };
      const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
      socket.write(`HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\n${head}\r\n${body}`);
    }
    socket.destroy(error);
  };
}

/** Installs the error and not-found handlers on an app; a known path with the wrong method gets 405. */
export function installErrorHandlers(app: FastifyInstance, codec: ApiCodec, routes: RouteTable): void {
  app.setErrorHandler((error, request, reply) => sendError(codec, request, reply, error));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = routes.allowedMethods(path);
    // The message is logged too: a credential pasted into the path must not reach the log.
    const shown = redactUrl(path);
    if (allowed.length === 0) return sendError(codec, request, reply, new ApiError('NOT_FOUND', `There is no operation at ${request.method} ${shown}.`));
    const error = new ApiError('METHOD_NOT_ALLOWED', `${shown} answers to ${allowed.join(', ')}, not ${request.method}.`, { headers: { Allow: allowed.join(', ') } });
    return sendError(codec, request, reply, error);
  });
}
