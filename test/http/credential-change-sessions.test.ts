import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AccountService } from '../../src/domain/accounts/account-service.ts';
import { hashTokenSecret } from '../../src/domain/accounts/mfa.ts';
import { MfaService } from '../../src/domain/accounts/mfa-service.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { forEachDialect, openTestStore, type TestStore } from '../support/databases.ts';
import { type HttpHarness, startHttp, type Who } from '../support/http-harness.ts';
import { Visitor } from './web-visitor.ts';

// A password change, a disabled account and a reset of MFA end every session of the user, whichever way they happen
// (the command line as well as a mailed reset): web pages, the landing page's MFA cookie, MFA session tokens, and
// (password change and disable) the OAuth access tokens of the user's clients (docs/web.md, Sessions end).

const HOME = '/MvcProjects/';

forEachDialect('credential changes end sessions', ({ dialect }) => {
  describe('every session of the user ends', () => {
    let db: TestStore;
    let h: HttpHarness;
    const ids = new RandomIdGenerator();
    before(async () => {
      db = await openTestStore(dialect);
      h = await startHttp(db);
    });
    after(async () => {
      await h.close();
      await db.store.close();
      await db.close();
    });

    const accounts = () => new AccountService({ store: h.store, clock: h.clock, ids });
    const mfa = () => new MfaService({ store: h.store, clock: h.clock, ids });

    /** Signs `who` in on the web pages and gives them an MFA session token, a landing-page web session and an OAuth token. */
    async function sessionsOf(who: Who) {
      const v = new Visitor(h);
      const signedIn = await v.signIn(h.who[who].email, h.who[who].password);
      assert.equal(signedIn.statusCode, 303, signedIn.body);
      assert.equal((await v.send('GET', HOME)).statusCode, 200);
      const userId = h.who[who].id;
      const now = h.clock.now();
      const mst = { id: ids.next(), secret: `${ids.next()}${ids.next()}` };
      const web = { id: ids.next(), secret: `${ids.next()}${ids.next()}` };
      const clientId = `client-${ids.next()}`;
      const tokenId = ids.next();
      await h.store.transaction(async (tx) => {
        await tx.mfa.replaceSessionToken({ id: mst.id, userId, tokenHash: hashTokenSecret(mst.secret), createdAt: now, expiresAt: now + 3_600_000 });
        await tx.mfa.insertWebSession({ id: web.id, userId, secretHash: hashTokenSecret(web.secret), createdAt: now, expiresAt: now + 3_600_000 });
        await tx.oauth.insertClient({ id: clientId, userId, name: 'integration', secretHash: 'x', createdAt: now, revokedAt: null });
        await tx.oauth.insertAccessToken({ id: tokenId, clientId, tokenHash: 'x', createdAt: now, expiresAt: now + 3_600_000, revokedAt: null });
      });
      return {
        /** The web page still answers for the old cookie. */
        webLive: async () => (await v.send('GET', HOME)).statusCode === 200,
        mfaTokenLive: async () => (await h.store.mfa.getSessionToken(mst.id)) !== null,
        landingLive: async () => (await h.store.mfa.getWebSession(web.id)) !== null,
        oauthLive: async () => (await h.store.oauth.findAccessToken(tokenId))?.revokedAt === null,
        clientLive: async () => (await h.store.oauth.findClient(clientId))?.revokedAt === null,
      };
    }

    it('apas user set-password ends web sessions, MFA session tokens and OAuth access tokens, not the OAuth client', async () => {
      const s = await sessionsOf('editor');
      await accounts().setPassword(h.who.editor.email, 'the editor has a new password');
      assert.equal(await s.webLive(), false, 'the web session ended');
      assert.equal(await s.mfaTokenLive(), false);
      assert.equal(await s.landingLive(), false);
      assert.equal(await s.oauthLive(), false, 'the access token is revoked');
      assert.equal(await s.clientLive(), true, 'the client (its own secret) stays; it gets a new token');
    });

    it('disabling a user ends the sessions, so enabling again brings none back', async () => {
      const s = await sessionsOf('reader');
      await accounts().setDisabled(h.who.reader.email, true);
      await accounts().setDisabled(h.who.reader.email, false);
      assert.equal(await s.webLive(), false, 'the web session ended');
      assert.equal(await s.mfaTokenLive(), false);
      assert.equal(await s.landingLive(), false);
      assert.equal(await s.oauthLive(), false);
    });

    it('enrolling in MFA (or enrolling again) and ending MFA end the sessions signed in without the new factor', async () => {
      const s = await sessionsOf('programAdmin');
      await mfa().enrol(h.who.programAdmin.email);
      assert.equal(await s.webLive(), false, 'a session signed in before the enrolment would count as MFA-verified');
      assert.equal(await s.mfaTokenLive(), false);
      assert.equal(await s.landingLive(), false);
      await mfa().disable(h.who.programAdmin.email);
      const again = await sessionsOf('applicant');
      await mfa().enrol(h.who.applicant.email);
      await h.store.transaction((tx) => tx.mfa.replaceSessionToken({ id: ids.next(), userId: h.who.applicant.id, tokenHash: 'x', createdAt: h.clock.now(), expiresAt: h.clock.now() + 60_000 }));
      await mfa().disable(h.who.applicant.email);
      assert.equal(await again.webLive(), false);
      assert.equal(await again.mfaTokenLive(), false);
    });

    it('a refused change ends nothing', async () => {
      const s = await sessionsOf('otherApplicant');
      await assert.rejects(accounts().setPassword(h.who.otherApplicant.email, 'short'), /at least 12 characters/);
      await assert.rejects(accounts().setPassword('nobody@example.org', 'a long enough password'), /no user/);
      await assert.rejects(mfa().disable(h.who.otherApplicant.email), /not enrolled/);
      assert.equal(await s.webLive(), true);
      assert.equal(await s.mfaTokenLive(), true);
      assert.equal(await s.landingLive(), true);
      assert.equal(await s.oauthLive(), true);
    });
  });
});
