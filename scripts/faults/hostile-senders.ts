import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { HostileRequest } from './hostile-requests.ts';

/** An answer as a hostile run sees it. */
/** An answer as the judge sees it; `location` is the redirect target of a 3xx answer. */
export interface HostileAnswer { status: number; contentType: string; body: string; location?: string }

/** Sends one request and resolves with whatever HTTP answer came; rejects only when none came. */
export type Sender = (request: Pick<HostileRequest, 'method' | 'path' | 'headers' | 'body'>) => Promise<HostileAnswer>;

/** Sends through Fastify's inject (no socket): the app in this process. */
export function injectSender(app: FastifyInstance): Sender {
  return async (request) => {
    const res = await app.inject({
      method: request.method as 'GET', url: request.path, headers: request.headers, ...(request.body ? { payload: request.body() } : {}),
    });
    return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), body: res.body, location: res.headers.location as string | undefined };
  };
}

// A server answers an oversized body (413) before reading it all and closes the connection. Written at once,
// the body's remaining bytes then fail with EPIPE before the answer is read; written in slices with a turn of
// the event loop between them, the answer is seen and the writing stops, as curl or a browser would do.
function writeBody(req: http.ClientRequest, body: Buffer | undefined): void {
  if (!body || body.length <= 256 * 1024) {
    req.end(body);
    return;
  }
  let offset = 0;
  let answered = false;
  req.once('response', () => {
    answered = true;
  });
  const more = () => {
    if (answered || req.destroyed) return;
    const slice = body.subarray(offset, offset + 64 * 1024);
    offset += slice.length;
    if (offset >= body.length) req.end(slice);
    else if (req.write(slice)) setImmediate(more);
    else req.once('drain', () => setImmediate(more));
  };
  more();
}

/**
 * Sends over TCP with node:http to a server (127.0.0.1 only), at most `concurrency` connections kept alive.
 * node:http sends the path and method as given, where fetch would normalise them.
 */
export function socketSender(origin: string, concurrency: number, timeoutMs = 30_000): { send: Sender; close: () => void } {
  const url = new URL(origin);
  if (url.hostname !== '127.0.0.1') throw new Error(`hostile traffic goes to 127.0.0.1 only, not ${url.hostname}`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const send: Sender = (request) => new Promise((resolve, reject) => {
    const body = request.body?.();
    const headers = { ...request.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
    let answered = false;
    const req = http.request({ host: url.hostname, port: url.port, method: request.method, path: request.path, headers, agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        answered = true;
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8'), location: res.headers.location });
        // Answered before the body was all sent: the connection is in the middle of a request, so it goes.
        if (!req.writableFinished) req.destroy();
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    // A server may answer an oversized body early and close while the rest is still being written; the answer counts.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    writeBody(req, body);
  });
  return { send, close: () => agent.destroy() };
}
