import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { MAX_OWN_CREDENTIALS } from '../../src/domain/accounts/own-credentials-service.ts';
import { DIALECTS } from '../support/databases.ts';
import { basicAuth, demoApi, demoUser } from '../support/demo-api.ts';

// The console's Self-service area and the account page's own credentials, through the web routes with HTTP Basic (as
// the web pages accept it): only agency admins read and set the policy (others FORBIDDEN, nothing changed); a user makes
// their own API key and OAuth client only while the policy allows it, the key and the client's tokens act as that user,
// and nobody revokes another user's credential.

const POLICY_PAGE = '/MvcProjects/Console/SelfService';

/** The secret a page shows once, in the readonly input labelled `label`. */
function shownSecret(res: LightMyRequestResponse): string {
  const value = /id="new-secret" readonly="" value="([^"]+)"|id="new-secret" readonly value="([^"]+)"/.exec(res.body);
  assert.ok(value, res.body);
  return (value[1] ?? value[2])!;
}

for (const dialect of DIALECTS) {
  describe(`Self-service pages [${dialect}]`, () => {
    const api = demoApi(dialect);
    const admin = demoUser('admin');
    const applicant = demoUser('applicant');
    const reviewer = demoUser('reviewer');

    async function policy() {
      const agency = (await api.db.store.accounts.findAgency('demo'))!;
      return api.db.store.agencyPolicies.findPolicy(agency.id);
    }

    it('only agency admins see and set the policy; a refused POST changes nothing', async () => {
      assert.equal((await api.webGet(admin, POLICY_PAGE)).statusCode, 200);
      const before = await policy();
      for (const who of [applicant, reviewer]) {
        assert.equal((await api.webGet(who, POLICY_PAGE)).statusCode, 403, who.email);
        const refused = await api.webPost(who, POLICY_PAGE, { ownCredentials: 'on', ownWebhooks: 'on' });
        assert.equal(refused.statusCode, 403, who.email);
        assert.deepEqual(await policy(), before);
      }
      const saved = await api.webPost(admin, POLICY_PAGE, { ownCredentials: 'on' });
      assert.equal(saved.statusCode, 303);
      const after = await policy();
      assert.deepEqual([after.ownCredentials, after.ownWebhooks], [true, false]);
      const page = await api.webGet(admin, `${POLICY_PAGE}?notice=saved`);
      assert.match(page.body, /Own API keys and OAuth clients: <strong>allowed<\/strong>/);
      assert.match(page.body, /by admin@demo\.apas\.local/);
    });

    it('an applicant makes a key and a client that act as them; another user cannot revoke them; refused while off', async () => {
      const store = api.db.store;
      const user = (await store.accounts.findUserByEmail(applicant.email))!;
      assert.equal((await api.webPost(admin, POLICY_PAGE, {})).statusCode, 303);
      const keysBefore = await store.accounts.listApiKeys(user.id);
      // The demo's own OAuth client of the applicant (src/domain/programs/demo.ts) is there from the start.
      const clientsBefore = await store.oauth.listClients(user.id);
      const refused = await api.webPost(applicant, '/MvcProjects/Account/ApiKeys', { Name: 'Off' });
      assert.equal(refused.statusCode, 403);
      assert.equal((await api.webPost(applicant, '/MvcProjects/Account/OAuthClients', { Name: 'Off' })).statusCode, 403);
      assert.deepEqual(await store.accounts.listApiKeys(user.id), keysBefore);
      assert.deepEqual(await store.oauth.listClients(user.id), clientsBefore);
      assert.doesNotMatch((await api.webGet(applicant, '/MvcProjects/Account')).body, /Create API key/);

      assert.equal((await api.webPost(admin, POLICY_PAGE, { ownCredentials: 'on' })).statusCode, 303);
      const made = await api.webPost(applicant, '/MvcProjects/Account/ApiKeys', { Name: 'Integration' });
      assert.equal(made.statusCode, 200, made.body);
      const key = shownSecret(made);
      const keyId = key.split('_')[1]!;
      const row = await store.accounts.findApiKey(keyId);
      assert.equal(row?.userId, user.id);
      // The key acts as the applicant: their own projects, nobody else's.
      const own = await api.app.inject({ method: 'POST', url: '/services/v2/Programs/RES-SOLAR/NewProject', headers: { authorization: basicAuth(applicant), 'x-apikey': key } });
      assert.equal(own.statusCode, 200, own.body);
      const others = await api.newProject(admin);
      const read = await api.app.inject({ method: 'GET', url: `/services/v2/Programs/RES-SOLAR/Projects/${others}/Forms/Application/Draft/Data`, headers: { authorization: basicAuth(applicant), 'x-apikey': key } });
      assert.equal(read.statusCode, 404);

      const client = await api.webPost(applicant, '/MvcProjects/Account/OAuthClients', { Name: 'Nightly sync' });
      assert.equal(client.statusCode, 200, client.body);
      const clientId = /its client id is ([0-9A-Z_a-z-]+)\./.exec(client.body)?.[1];
      assert.ok(clientId, client.body);
      const secret = shownSecret(client);
      const token = await api.app.inject({
        method: 'POST', url: '/services/v2/oauth/token', payload: 'grant_type=client_credentials',
        headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded', 'x-apikey': key },
      });
      assert.equal(token.statusCode, 200, token.body);
      const bearer = (JSON.parse(token.body) as { access_token: string }).access_token;
      const asToken = await api.app.inject({ method: 'GET', url: `/services/v2/Programs/RES-SOLAR/Projects/${others}/Forms/Application/Draft/Data`, headers: { authorization: `Bearer ${bearer}`, 'x-apikey': key } });
      assert.equal(asToken.statusCode, 404, 'the client\'s tokens act as its user too');

      // Nobody revokes another user's credential: the page says so and nothing changes.
      const foreign = await api.webPost(reviewer, '/MvcProjects/Account/ApiKeys/Revoke', { KeyId: keyId });
      assert.equal(foreign.statusCode, 404);
      assert.equal((await store.accounts.findApiKey(keyId))?.revokedAt, null);
      assert.equal((await api.webPost(reviewer, '/MvcProjects/Account/OAuthClients/Revoke', { ClientId: clientId })).statusCode, 404);
      assert.equal((await store.oauth.findClient(clientId))?.revokedAt, null);

      // Revoking stays possible with the policy off; the revoked key no longer signs in.
      assert.equal((await api.webPost(admin, POLICY_PAGE, {})).statusCode, 303);
      assert.equal((await api.webPost(applicant, '/MvcProjects/Account/OAuthClients/Revoke', { ClientId: clientId })).statusCode, 303);
      assert.notEqual((await store.oauth.findClient(clientId))?.revokedAt, null);
      assert.equal((await api.webPost(applicant, '/MvcProjects/Account/ApiKeys/Revoke', { KeyId: keyId })).statusCode, 303);
      const gone = await api.app.inject({ method: 'GET', url: '/services/v2/Programs', headers: { authorization: basicAuth(applicant), 'x-apikey': key } });
      assert.equal(gone.statusCode, 401);
    });

    it(`a user has at most ${MAX_OWN_CREDENTIALS} live keys of their own`, async () => {
      const store = api.db.store;
      const user = (await store.accounts.findUserByEmail(reviewer.email))!;
      assert.equal((await api.webPost(admin, POLICY_PAGE, { ownCredentials: 'on' })).statusCode, 303);
      const live = (await store.accounts.listApiKeys(user.id)).filter((k) => k.revokedAt === null).length;
      for (let i = live; i < MAX_OWN_CREDENTIALS; i++) assert.equal((await api.webPost(reviewer, '/MvcProjects/Account/ApiKeys', { Name: `Key ${i}` })).statusCode, 200);
      const over = await api.webPost(reviewer, '/MvcProjects/Account/ApiKeys', { Name: 'One too many' });
      assert.equal(over.statusCode, 409);
      assert.match(over.body, /revoke one first/);
      assert.equal((await store.accounts.listApiKeys(user.id)).filter((k) => k.revokedAt === null).length, MAX_OWN_CREDENTIALS);
    });
  });
}
