import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, it } from 'node:test';
import { redactUrl } from '../../src/domain/redact-secrets.ts';
import { createLogger } from '../../src/http/logger.ts';
import { openTestStore, type TestStore } from '../support/databases.ts';
import { type HttpHarness, startHttp, TestClock } from '../support/http-harness.ts';

// Mailed links, CSRF tokens and access tokens in a URL are secrets: the request log keeps the path and the names of
// the query parameters, never their values (docs/operations.md, "What the log holds").

const lines: string[] = [];
let db: TestStore;
let h: HttpHarness;

before(async () => {
  db = await openTestStore('sqlite');
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  h = await startHttp(db, {}, new TestClock(), createLogger('info', sink));
});
after(async () => {
  await h.close();
  await db.close();
});

const SECRETS = {
  reset: 'resetSECRETresetSECRETresetSECRET0123456789a',
  confirm: 'confirmSECRETconfirmSECRETconfirmSECRET01234',
  csrf: 'csrfSECRETcsrfSECRET',
  access: 'at_ABCDEFGHJKMN_accessSECRETaccessSECRETaccessSECRET',
  apiKey: 'apas_ABCDEFGHJKMN_keySECRETkeySECRETkeySECRETkeySECRET',
  signing: 'signSECRETsignSECRETsignSECRETsignSECRET012',
};

it('no mailed link, CSRF token or access token reaches the request log', async () => {
  lines.length = 0;
  const urls = [
    `/MvcProjects/ResetPassword?token=${SECRETS.reset}`,
    `/MvcProjects/SignUp/Confirm?token=${SECRETS.confirm}&x=1`,
    `/MvcProjects/Programs/P/Projects/Q/Forms/F/Attachments/A?_csrf=${SECRETS.csrf}`,
    `/services/v2/Programs?ACCESS_TOKEN=${SECRETS.access}`,
    `/services/v2/${SECRETS.apiKey}/Projects`,
    `/nowhere?Token=${SECRETS.reset}`,
    // A signing link, the page and the document it frames (src/domain/signing).
    `/MvcProjects/Sign?token=${SECRETS.signing}`,
    `/MvcProjects/Sign/Document?token=${SECRETS.signing}`,
  ];
  for (const url of urls) await h.app.inject({ method: url.includes('Attachments') ? 'POST' : 'GET', url });
  const log = lines.join('');
  assert.match(log, /\/MvcProjects\/ResetPassword\?token=\[redacted\]/, 'the path and the parameter name stay');
  assert.match(log, /\/MvcProjects\/SignUp\/Confirm\?token=\[redacted\]&x=1/);
  assert.match(log, /\/MvcProjects\/Sign\?token=\[redacted\]/);
  for (const [what, secret] of Object.entries(SECRETS)) assert.ok(!log.includes(secret.slice(0, 20)), `the ${what} secret is in the log:\n${log}`);
});

it('redactUrl keeps everything but the secrets', () => {
  assert.equal(redactUrl('/a/b?c=1&d=2'), '/a/b?c=1&d=2');
  assert.equal(redactUrl('/a?token=x&_csrf=y&access_token=z&keep=1'), '/a?token=[redacted]&_csrf=[redacted]&access_token=[redacted]&keep=1');
  assert.equal(redactUrl('/a?%74oken=x'), '/a?%74oken=[redacted]', 'an encoded name is still the name');
  assert.equal(redactUrl('/a?q=mst_ABCDEFGHJKMN_secretsecretsecretsecret'), '/a?q=[redacted]', 'a value shaped like a credential');
  assert.equal(redactUrl(`/x/${SECRETS.apiKey}/y`), '/x/[redacted]/y');
  assert.equal(redactUrl('/a?token'), '/a?token');
  assert.equal(redactUrl(`/MvcProjects/SignIn?next=${encodeURIComponent('/p?_csrf=s3cret&a=1')}`), `/MvcProjects/SignIn?next=${encodeURIComponent('/p?_csrf=[redacted]&a=1')}`);
});
