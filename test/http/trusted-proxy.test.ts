import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, authHeaders, type HttpHarness, startHttp } from '../support/http-harness.ts';

// Behind a proxy that appends to X-Forwarded-For, the client writes the left-most entries: the per-address limits
// must count the address the trusted proxy saw, never one the client chose (docs/operations.md, APAS_TRUST_PROXY).

const URL = `/services/v2/Programs/${IDS.program}/Projects?limit=1`;
const PROXY = '10.0.0.5';

/** A request with a made-up API key (a failure counted against the client address only) through `from`. */
function wrongKey(h: HttpHarness, from: string, forwardedFor?: string) {
  const headers = { ...authHeaders(h.who.admin), 'x-apikey': 'apas_AAAAAAAAAAAA_wrongwrongwrongwrongwrongwrongwrong', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) };
  return h.app.inject({ method: 'GET', url: URL, remoteAddress: from, headers });
}

forEachDialect('HTTP: the client address behind a reverse proxy', ({ open }) => {
  for (const setting of ['true', '1', '10.0.0.0/8']) {
    it(`APAS_TRUST_PROXY=${setting}: a client cannot escape its address limit by writing X-Forwarded-For`, async () => {
      const h = await startHttp(await open(), { APAS_TRUST_PROXY: setting, APAS_SIGNIN_LOCK_ADDRESS_AFTER: '3' });
      try {
        for (let i = 0; i < 3; i += 1) assertError(h, await wrongKey(h, PROXY, `198.51.100.${i}, 203.0.113.9`), 401, 'INVALID_CREDENTIALS');
        // A fourth made-up left-most address: still the same client, locked.
        assertError(h, await wrongKey(h, PROXY, '198.51.100.77, 203.0.113.9'), 429, 'SIGN_IN_LOCKED');
        // Another client behind the same proxy is not.
        assertError(h, await wrongKey(h, PROXY, '203.0.113.10'), 401, 'INVALID_CREDENTIALS');
        const ok = await h.request({ method: 'GET', url: URL, headers: { 'x-forwarded-for': '203.0.113.11' } });
        assert.equal(ok.statusCode, 200, ok.body);
      } finally {
        await h.close();
      }
    });
  }

  it('APAS_TRUST_PROXY with addresses: a request from elsewhere is counted against its own address, whatever it says', async () => {
    const h = await startHttp(await open(), { APAS_TRUST_PROXY: '10.0.0.0/8', APAS_SIGNIN_LOCK_ADDRESS_AFTER: '3' });
    try {
      for (let i = 0; i < 3; i += 1) assertError(h, await wrongKey(h, '192.0.2.7', `203.0.113.${20 + i}`), 401, 'INVALID_CREDENTIALS');
      assertError(h, await wrongKey(h, '192.0.2.7', '203.0.113.99'), 429, 'SIGN_IN_LOCKED');
    } finally {
      await h.close();
    }
  });
});
