import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendAsyncHookHandler, preHandlerAsyncHookHandler, preParsingAsyncHookHandler } from 'fastify';
import { type IdempotencyService, MAX_STORED_ANSWER_BYTES } from '../domain/projects/idempotency-service.ts';
import type { StoredAnswer } from '../model/records.ts';
import { BodyDigest } from './body-digest.ts';
import { parseIdempotencyKey } from './idempotency-key.ts';
import { callerOf } from './request-caller.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route honours an Idempotency-Key (see installIdempotency): `config: { idempotent: true }`. */
    idempotent?: boolean;
  }
}

/** The answer headers a replay repeats besides the body; per-request ones (rate limits, request ids) are the retry's own. */
const REPLAYED_HEADERS = ['content-type', 'etag', 'location', 'link', 'content-disposition', 'content-language', 'cache-control', 'vary', 'last-modified'];

/** The request headers that shape what an operation does or answers, and so belong to its fingerprint. */
const SHAPING_HEADERS = ['content-type', 'content-disposition', 'accept', 'if-match'];

// What a replay carries beyond the first answer: it says that it is one.
const REPLAY_HEADER = 'Idempotent-Replayed';

/** A request that sent a key: the key, the digest its body flows through, and whether it was answered by a replay. */
interface KeyedRequest { key: string; digest: BodyDigest; replayed: boolean }

function headerText(request: FastifyRequest, name: string): string {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

/** The request's fingerprint: its method, URL (path and query as sent), shaping headers and the SHA-256 of its body. */
function fingerprintOf(request: FastifyRequest, bodySha256: string): string {
  const parts = [request.method, request.url, ...SHAPING_HEADERS.map((name) => headerText(request, name)), bodySha256];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** Reads a streamed body (an upload) through its digest to the end, discarding it; null when it is over `limit` bytes. */
async function digestOfRest(digest: BodyDigest, limit: number): Promise<string | null> {
  let size = 0;
  for await (const chunk of digest.iterator({ destroyOnReturn: false })) {
    size += (chunk as Buffer).length;
    // Longer than any upload this service keeps, so not the request that took the key.
    if (size > limit) return null;
  }
  return digest.done;
}

/**
 * The answer's bytes as they will be sent, and the payload to send in their place: strings and buffers as they are, a
 * stream gathered (up to MAX_STORED_ANSWER_BYTES; past that it is sent on as a stream and not kept).
 */
async function answerBytes(payload: unknown): Promise<{ body: Buffer | null; payload: unknown }> {
  if (payload === null || payload === undefined) return { body: Buffer.alloc(0), payload };
  if (typeof payload === 'string') return { body: Buffer.from(payload, 'utf8'), payload };
  if (Buffer.isBuffer(payload)) return { body: payload, payload };
  if (!(payload instanceof Readable)) return { body: null, payload };
  const chunks: Buffer[] = [];
  let size = 0;
  const source = payload.iterator({ destroyOnReturn: false });
  for (;;) {
    const next = await source.next();
    if (next.done) return { body: Buffer.concat(chunks, size), payload: Buffer.concat(chunks, size) };
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value as string);
    chunks.push(chunk);
    size += chunk.length;
    if (size > MAX_STORED_ANSWER_BYTES) break;
  }
  async function* rest(): AsyncGenerator<Buffer> {
    yield* chunks;
    for (let next = await source.next(); !next.done; next = await source.next()) yield next.value as Buffer;
  }
  return { body: null, payload: Readable.from(rest(), { objectMode: false }) };
}

function replayedHeaders(reply: FastifyReply): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) kept[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return kept;
}

/**
 * Makes the routes whose config says `idempotent: true` honour an Idempotency-Key. The key is parsed before the body
 * is read (400 when malformed), and the body flows through a digest on its way to whatever reads it. Before the
 * handler, a key already taken is answered from the store: the first answer again (same status, replayed headers and
 * bytes), 422 for another request, 409 while it has no answer. Otherwise the key goes with the caller to the change
 * step, which takes it in the change's transaction, and a success's answer is stored before it is sent. Requests
 * without the header, and other routes, are left exactly as they were. Register on the API scope before any nested
 * scope (uploads).
 */
export function installIdempotency(api: FastifyInstance, service: IdempotencyService, options: { maxUploadBytes: number }): void {
  const keyed = new WeakMap<FastifyRequest, KeyedRequest>();

  const preParsing: preParsingAsyncHookHandler = async (request, _reply, payload) => {
    const field = request.headers['idempotency-key'];
    if (field === undefined) return payload;
    const key = parseIdempotencyKey(field);
    const digest = BodyDigest.of(payload);
    keyed.set(request, { key, digest, replayed: false });
    return digest;
  };

  const preHandler: preHandlerAsyncHookHandler = async (request, reply) => {
    const state = keyed.get(request);
    if (!state) return;
    const caller = callerOf(request);
    // An upload's body is the digest itself, read by the upload; any other body has been read whole by its parser (or
    // there was none, which the digest is let to see the end of).
    const streamed = request.body === state.digest;
    if (!streamed) state.digest.resume();
    const answer = await service.check(caller.user.id, state.key, async () => {
      const sha256 = streamed ? await digestOfRest(state.digest, options.maxUploadBytes) : await state.digest.done;
      return sha256 === null ? null : fingerprintOf(request, sha256);
    });
    if (answer) {
      state.replayed = true;
      return reply.code(answer.status).headers(answer.headers).header(REPLAY_HEADER, 'true').send(answer.body);
    }
    const bodySha256 = streamed ? null : await state.digest.done;
    request.caller = {
      ...caller,
      idempotency: {
        key: state.key, requestId: request.id,
        fingerprint: () => {
          const sha256 = bodySha256 ?? state.digest.hex;
          // The change step asks after the upload was read to its end; anything else is a fault of the service.
          if (sha256 === null) throw new Error('Idempotency-Key fingerprint asked for before the body was read');
          return fingerprintOf(request, sha256);
        },
      },
    };
  };

  const onSend: onSendAsyncHookHandler<unknown> = async (request, reply, payload) => {
    const state = keyed.get(request);
    // Only a success made a change and took the key; a refused request changed nothing and left the key free.
    if (!state || state.replayed || reply.statusCode < 200 || reply.statusCode > 299) return payload;
    const bytes = await answerBytes(payload);
    if (bytes.body === null) {
      request.log.warn({ key: state.key }, 'answer too large to keep for Idempotency-Key replays; a retry will be told it was lost');
      return bytes.payload;
    }
    const answer: StoredAnswer = { status: reply.statusCode, headers: replayedHeaders(reply), body: bytes.body };
    try {
      await service.saveAnswer(callerOf(request).user.id, state.key, request.id, answer);
    } catch (error) {
      // The change is made and its answer still goes out; a retry is told the answer was lost.
      request.log.warn({ err: error, key: state.key }, 'storing the answer for Idempotency-Key replays failed');
    }
    return bytes.payload;
  };

  // Only the routes that take a key get the hooks, as their own: every other request (every read) would otherwise
  // pay three promise steps for nothing.
  api.addHook('onRoute', (route) => {
    if (!(route.config as { idempotent?: boolean } | undefined)?.idempotent) return;
    route.preParsing = [...hookList(route.preParsing), preParsing];
    route.preHandler = [...hookList(route.preHandler), preHandler];
    route.onSend = [...hookList(route.onSend), onSend];
  });

  // On the API scope (not the route), so that it runs before an upload scope's drainRequest, and synchronous.
  api.addHook('onResponse', (request, _reply, done) => {
    const state = keyed.get(request);
    // A body left unread (refused early, or longer than an upload may be) flows on through the digest and is dropped,
    // so that draining the request (drain-request.ts) is not held up by the digest's full buffer.
    if (state && request.raw.complete === false) state.digest.resume();
    done();
  });
}

function hookList<H>(hooks: H | H[] | undefined): H[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}
