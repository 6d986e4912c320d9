import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { assertAccessible, DEMO, launchBrowser, screenshot, signIn, startWebServer, type WebServer } from '../support/browser.ts';

// The console's Audit trail in a real browser: the demo agency admin filters the trail by action, pages through it
// by its cursor links (a row written meanwhile neither repeats nor shifts one), narrows it by user and day, and
// downloads the same filter as CSV.

const DAY = Date.UTC(2026, 5, 15, 18);
const ROWS = 70;

describe('Console: audit trail in the browser', () => {
  let server: WebServer;
  let browser: Browser;
  let adminId: string;
  let agencyId: string;
  before(async () => {
    server = await startWebServer('sqlite');
    browser = await launchBrowser();
    const admin = (await server.store.accounts.findUserByEmail(DEMO.admin.email))!;
    adminId = admin.id;
    agencyId = admin.agencyId;
    await server.store.transaction(async (tx) => {
      for (let n = 0; n < ROWS; n++) {
        await tx.audit.write({ action: 'drill.step', actorId: n % 2 === 0 ? adminId : null, agencyId: admin.agencyId, programId: server.programId, detail: { step: n } }, DAY + n * 60_000, `DRILL${String(n).padStart(7, '0')}`);
      }
    });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const steps = async (page: Page) => [...(await page.getByRole('table', { name: 'Audited changes, newest first' }).textContent() ?? '').matchAll(/"step":(\d+)/g)].map((m) => Number(m[1]));

  it('filters, pages by cursor and downloads CSV', async () => {
    const page = await (await browser.newContext({ acceptDownloads: true })).newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, server.baseUrl, DEMO.admin);
    await page.goto(`${server.baseUrl}/MvcProjects/Console/Audit`);
    await assertAccessible(page);
    await page.getByLabel('Action').fill('drill');
    await page.getByRole('button', { name: 'Filter' }).click();
    const first = await steps(page);
    assert.deepEqual(first, Array.from({ length: 50 }, (_, i) => ROWS - 1 - i));
    await assertAccessible(page);
    await screenshot(page, 'console-audit');
    await server.store.transaction((tx) => tx.audit.write({ action: 'drill.step', actorId: adminId, agencyId, programId: server.programId, detail: { step: 999 } }, DAY + 10 * 86_400_000, 'DRILLLATER01'));
    await page.getByRole('link', { name: 'Older changes' }).click();
    assert.deepEqual(await steps(page), Array.from({ length: ROWS - 50 }, (_, i) => ROWS - 51 - i));
    assert.equal(await page.getByRole('link', { name: 'Older changes' }).count(), 0);
    await page.getByRole('link', { name: 'Newest changes' }).click();
    assert.equal((await steps(page))[0], 999, 'the first page shows the row written meanwhile');

    await page.getByLabel('User (e-mail address)').fill(DEMO.admin.email);
    await page.getByLabel('From (day)').fill('2026-06-15');
    await page.getByLabel('To (day, included)').fill('2026-06-15');
    await page.getByRole('button', { name: 'Filter' }).click();
    const mine = await steps(page);
    assert.deepEqual(mine, Array.from({ length: ROWS / 2 }, (_, i) => ROWS - 2 - 2 * i));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    assert.equal(download.suggestedFilename(), 'audit-trail.csv');
    // The shared browser runs in another process: the file is saved here to be read.
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'apas-audit-')), 'audit-trail.csv');
    await download.saveAs(file);
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\r\n');
    assert.equal(lines[0], 'Time,User,Action,Program,Project,Request,Id,Detail');
    assert.deepEqual(lines.slice(1).map((l) => Number(/step"":(\d+)/.exec(l)?.[1])), mine);
    assert.ok(lines.slice(1).every((l) => l.includes(`,${DEMO.admin.email},drill.step,`)), lines[1]);
  });
});
