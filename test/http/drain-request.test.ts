import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { drainRequest } from '../../src/http/drain-request.ts';

// A server that answers every request at once, before reading its body, then drains what is left.
let server: http.Server;
let port = 0;
const LIMITS = { bytes: 256 * 1024, ms: 2000 };

before(async () => {
  server = http.createServer((req, res) => {
    res.on('finish', () => drainRequest(req, LIMITS));
    res.writeHead(413, { 'content-type': 'text/plain' }).end('too large');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

function send(agent: http.Agent, body: Buffer): Promise<{ status: number; text: string; socketError: Error | null }> {
  return new Promise((resolve, reject) => {
    let socketError: Error | null = null;
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers: { 'content-length': String(body.length) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => setTimeout(() => resolve({ status: res.statusCode ?? 0, text, socketError }), 50));
    });
    req.on('error', (error) => {
      socketError = error;
    });
    req.on('close', () => {
      if (!req.writableFinished && socketError === null) reject(new Error('closed without an answer'));
    });
    req.end(body);
  });
}

test('a body within the limits is read to its end and the connection stays usable', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const first = await send(agent, Buffer.alloc(100 * 1024, 1));
    assert.deepEqual([first.status, first.text, first.socketError], [413, 'too large', null]);
    const second = await send(agent, Buffer.alloc(10, 2));
    assert.deepEqual([second.status, second.text], [413, 'too large'], 'the same connection answers again');
  } finally {
    agent.destroy();
  }
});

test('past its byte limit the rest is not read: the connection is cut, after the answer went out', async () => {
  const agent = new http.Agent({ keepAlive: false });
  const answer = await new Promise<{ status: number; text: string; error: string }>((resolve) => {
    let status = 0;
    let text = '';
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers: { 'transfer-encoding': 'chunked' } }, (res) => {
      status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
    });
    req.on('error', (error) => resolve({ status, text, error: (error as NodeJS.ErrnoException).code ?? error.message }));
    // Never stops on its own: only the server's cut ends it.
    const pump = () => {
      while (req.write(Buffer.alloc(16 * 1024, 3)));
      req.once('drain', pump);
    };
    pump();
  });
  assert.equal(answer.status, 413);
  assert.equal(answer.text, 'too large');
  assert.match(answer.error, /ECONNRESET|EPIPE/);
});
