import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { HttpConnectionClient } from '../../src/domain/connections/connection-client.ts';

// The connections' HTTP client (src/domain/connections/connection-client.ts) against a real node:http server: OAuth 2.0
// client credentials (HTTP Basic at the token endpoint, the bearer token kept until it expires), GET query parameters,
// and the address rules: the agency's allowlist, and private addresses refused unless the operator allows them.

const seen: { path: string; authorization: string | undefined; body: string }[] = [];
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
    if (req.url === '/token') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"tok-1","expires_in":3600,"token_type":"Bearer"}');
    res.writeHead(req.headers.authorization === 'Bearer tok-1' ? 200 : 401, { 'content-type': 'application/json' }).end('{"name":"Pat"}');
  });
});
let base = '';
before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.close();
});

test('OAuth client credentials: one token request with HTTP Basic, then the bearer token on each call; GET sends the payload as a query', async () => {
  seen.length = 0;
  const client = new HttpConnectionClient({ allowInsecure: true });
  const auth = { kind: 'oauth' as const, tokenUrl: `${base}/token`, clientId: 'apas', clientSecret: 's3cret', scope: 'accounts' };
  const request = { url: `${base}/lookup`, method: 'GET' as const, payload: { account: 'A 1' }, auth, timeoutMs: 2_000, allowedHosts: ['127.0.0.1'] };
  assert.deepEqual(await client.call(request), { ok: true, status: 200, json: { name: 'Pat' } });
  assert.deepEqual(await client.call(request), { ok: true, status: 200, json: { name: 'Pat' } });
  assert.deepEqual(seen.map((s) => [s.path, s.authorization]), [
    ['/token', `Basic ${Buffer.from('apas:s3cret').toString('base64')}`], ['/lookup?account=A+1', 'Bearer tok-1'], ['/lookup?account=A+1', 'Bearer tok-1'],
  ]);
  assert.equal(seen[0]!.body, 'grant_type=client_credentials&scope=accounts');
});

test('a host off the allowlist, and a private address without the operator\'s setting, are never called', async () => {
  seen.length = 0;
  const none = { kind: 'none' as const };
  const off = await new HttpConnectionClient({ allowInsecure: true }).call({ url: `${base}/lookup`, method: 'POST', payload: {}, auth: none, timeoutMs: 1_000, allowedHosts: ['billing.example.com'] });
  assert.deepEqual(off, { ok: false, error: 'the host 127.0.0.1 is not on the agency\'s allowlist of connection hosts (apas connection allow-host)', retryable: false });
  const strict = new HttpConnectionClient({ allowInsecure: false });
  const plain = await strict.call({ url: `${base}/lookup`, method: 'POST', payload: {}, auth: none, timeoutMs: 1_000, allowedHosts: ['127.0.0.1'] });
  assert.match(plain.ok ? '' : plain.error, /must use https/);
  const loopback = await strict.call({ url: 'https://127.0.0.1:1/lookup', method: 'POST', payload: {}, auth: none, timeoutMs: 1_000, allowedHosts: ['127.0.0.1'] });
  assert.deepEqual(loopback, { ok: false, error: '127.0.0.1 is a private, loopback, link-local or reserved address', retryable: false });
  assert.equal(seen.length, 0);
});
