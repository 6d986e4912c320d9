import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { DEMO_AGENCY } from '../../src/domain/programs/demo.ts';
import { programFileOf } from '../../src/domain/programs/program-export.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';
import { systemClock } from '../../src/model/clock.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { assertAccessible, DEMO, launchBrowser, signIn, startWebServer, type WebServer } from '../support/browser.ts';

// The console's People page in a real browser for a program with access groups: the grant's groups are checkboxes
// (none ticked: every project), saved as the grant's limit and shown in the grants table; the page stays accessible.
// A reviewer so limited sees the dashboard of their groups' projects, saying so.

describe('web: limiting a grant to access groups on the console\'s People page', () => {
  let server: WebServer;
  let browser: Browser;
  before(async () => {
    server = await startWebServer('sqlite');
    const program = (await server.store.programs.findProgram(server.programId))!;
    const file = programFileOf(await server.store.programs.loadProgramModel(program));
    const accessGroups = [{ customId: 'north', name: 'North', if: 'SystemSizeKwDc < 7.0' }, { customId: 'south', name: 'South', if: 'SystemSizeKwDc >= 7.0' }];
    await importProgram({ store: server.store, clock: systemClock, ids: new RandomIdGenerator(), checkers: programCheckers() }, DEMO_AGENCY.customId, { ...file, accessGroups });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('ticks North for the demo reviewer, saves it as the grant\'s limit, and shows it', async () => {
    const page = await (await browser.newContext()).newPage();
    const reviewer = (await server.store.accounts.findUserByEmail(DEMO.reviewer.email))!;
    const program = (await server.store.programs.findProgram(server.programId))!;
    await signIn(page, server.baseUrl, DEMO.admin, `/MvcProjects/Console/People/${reviewer.id}`);
    await page.getByLabel(`North in ${program.name}`).check();
    await assertAccessible(page);
    await page.getByRole('button', { name: `Change the grant in ${program.name}` }).click();
    await page.getByText('The grant was saved.').waitFor();
    await page.getByText('only the projects of North').waitFor();
    assert.deepEqual((await server.store.accounts.findGrant(reviewer.id, program.id))?.accessGroups, ['north']);
    assert.equal(await page.getByLabel(`North in ${program.name}`).isChecked(), true);
    await page.getByLabel(`North in ${program.name}`).uncheck();
    await page.getByRole('button', { name: `Change the grant in ${program.name}` }).click();
    await page.getByText('The grant was saved.').waitFor();
    assert.equal((await server.store.accounts.findGrant(reviewer.id, program.id))?.accessGroups, undefined, 'none ticked: every project');
  });

  it('shows a reviewer limited to North the dashboard of North\'s projects, saying so (axe clean)', async () => {
    const reviewer = (await server.store.accounts.findUserByEmail(DEMO.reviewer.email))!;
    const grant = (await server.store.accounts.findGrant(reviewer.id, server.programId))!;
    await server.store.transaction((tx) => tx.accounts.setGrant({ ...grant, accessGroups: ['north'] }));
    try {
      const page = await (await browser.newContext()).newPage();
      await signIn(page, server.baseUrl, DEMO.reviewer, `/Projects/Dashboard?ProgramId=${server.programId}`);
      await page.getByText('Your access is limited to the access groups North: every figure counts only their projects.').waitFor();
      const north = (await server.store.transaction((tx) => tx.projects.projectGroupsPage(server.programId, null, 100_000))).filter((p) => p.accessGroups?.includes('north')).length;
      await page.getByRole('paragraph').filter({ hasText: `How many of the ${north} projects of your access groups are in each status now` }).waitFor();
      await assertAccessible(page);
    } finally {
      await server.store.transaction((tx) => tx.accounts.setGrant(grant));
    }
  });
});
