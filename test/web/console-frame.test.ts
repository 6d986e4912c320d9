import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AccountService } from '../../src/domain/accounts/account-service.ts';
import { systemClock } from '../../src/model/clock.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { CONSOLE_AREAS, CONSOLE_PATH } from '../../src/web/console/console-paths.ts';
import { DEMO, startWebServer, type WebServer } from '../support/browser.ts';
import { DIALECTS } from '../support/databases.ts';

// Who the console is for: the demo's agency admin sees every area; a program admin (the built-in admin role in one
// program) sees the areas of a program's admin and not the agency's; an applicant, an editor and a role without
// administerProgram get 403. The header links to the console only for those who may use it.

const PROGRAM_ADMIN = { email: 'pat.programadmin@example.org', password: 'program-admin-password-1' };

function basic(who: { email: string; password: string }): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${who.email}:${who.password}`).toString('base64')}` };
}

for (const dialect of DIALECTS) {
  describe(`the console's frame [${dialect}]`, () => {
    let server: WebServer;
    before(async () => {
      server = await startWebServer(dialect);
      const accounts = new AccountService({ store: server.store, clock: systemClock, ids: new RandomIdGenerator() });
      await accounts.createUser({ agency: 'demo', email: PROGRAM_ADMIN.email, name: 'Pat Programadmin', password: PROGRAM_ADMIN.password });
      await accounts.grant(PROGRAM_ADMIN.email, 'RES-SOLAR', 'admin');
    });
    after(async () => server?.close());

    const get = (who: { email: string; password: string }, path = CONSOLE_PATH) => fetch(`${server.baseUrl}${path}`, { headers: basic(who) });
    const areaLinks = (html: string) => CONSOLE_AREAS.filter((a) => html.includes(`href="${a.path}"`)).map((a) => a.id);

    it('shows an agency admin every area, and links to it from the header', async () => {
      const answer = await get(DEMO.admin);
      assert.equal(answer.status, 200);
      const html = await answer.text();
      assert.deepEqual(areaLinks(html), CONSOLE_AREAS.map((a) => a.id));
      assert.match(html, /every program and the agency itself/);
      assert.match(html, /<a href="\/MvcProjects\/">Demo Agency<\/a>/, 'the header names the agency');
      assert.match(html, /<a class="usa-nav__link usa-current" aria-current="page" href="\/MvcProjects\/Console">/, 'the header marks the console current');
      const home = await (await get(DEMO.admin, '/MvcProjects/')).text();
      assert.match(home, /<a class="usa-nav__link" href="\/MvcProjects\/Console"><span>Administration</);
      assert.match(home, /<a class="usa-nav__link usa-current" aria-current="page" href="\/MvcProjects\/"><span>Work queues</);
    });

    it('shows a program admin only the areas of a program\'s admin, naming the program', async () => {
      const answer = await get(PROGRAM_ADMIN);
      assert.equal(answer.status, 200);
      const html = await answer.text();
      assert.deepEqual(areaLinks(html), CONSOLE_AREAS.filter((a) => !a.agencyAdminOnly).map((a) => a.id));
      assert.match(html, /You administer Residential Solar/);
    });

    const others = [DEMO.applicant, DEMO.reviewer, { email: 'planreviewer@demo.apas.local', password: 'demo-plan-reviewer-password' }];
    for (const who of others) {
      it(`refuses ${who.email} with 403 and no header link`, async () => {
        const answer = await get(who);
        assert.equal(answer.status, 403);
        const home = await (await get(who, '/MvcProjects/')).text();
        assert.doesNotMatch(home, /MvcProjects\/Console/);
      });
    }
  });
}
