import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import type { FastifyInstance } from 'fastify';
import { type Browser, type BrowserContext, type Page, chromium as playwright } from 'playwright-core';
import { freePort } from '../../scripts/faults/server-process.ts';
import { BROWSER_ENV, chromiumLaunchOptions } from './chromium.ts';
import { loadConfig } from '../../src/config.ts';
import { DEMO_CREDENTIALS, seedDemo } from '../../src/domain/programs/demo.ts';
import { buildApp } from '../../src/http/app.ts';
import { type Clock, systemClock } from '../../src/model/clock.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import type { Store } from '../../src/store/store.ts';
import { openTestStore, type TestDialect, type TestStore } from './databases.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';

/** The demo accounts by role, as the browser tests sign in with them. */
export const DEMO = Object.fromEntries(DEMO_CREDENTIALS.map((c) => [c.role, c])) as Record<'admin' | 'applicant' | 'reviewer', (typeof DEMO_CREDENTIALS)[number]>;

/** A running server on loopback with the demo seeded, for a real browser. */
export interface WebServer { baseUrl: string; app: FastifyInstance; store: Store; programId: string; close(): Promise<void> }

/**
 * Starts the service on a fresh database with the demo (agency, solar program, three accounts) on 127.0.0.1; `env` adds
 * settings, `clock` is the service's (the wall clock unless a test moves it).
 */
export async function startWebServer(dialect: TestDialect = 'sqlite', env: Record<string, string> = {}, wrap?: (store: Store) => Store, clock: Clock = systemClock): Promise<WebServer> {
  const db: TestStore = await openTestStore(dialect);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig({ APAS_PUBLIC_URL: baseUrl, APAS_PORT: String(port), APAS_TIME_ZONE: 'America/Denver', ...env });
  const ids = new RandomIdGenerator();
  const report = await seedDemo({ store: db.store, clock: systemClock, ids, checkers: programCheckers() });
  const app = await buildApp({ config, store: wrap ? wrap(db.store) : db.store, logger: false, sleep: async () => {}, blobs: new DatabaseBlobStore(db.store, systemClock), clock });
  await app.listen({ host: '127.0.0.1', port });
  return {
    baseUrl, app, store: db.store, programId: report.programId,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

/**
 * The browser of a test file: a connection to the test run's one Chromium (scripts/run-tests.ts starts it when the run
 * has browser tests, so files share it instead of each starting its own), or, for a file run on its own, a Chromium
 * of its own. Closing it ends the connection (and the contexts it made) or that browser.
 */
export async function launchBrowser(): Promise<Browser> {
  const shared = process.env[BROWSER_ENV];
  return shared ? playwright.connect(shared) : playwright.launch(await chromiumLaunchOptions());
}

/** Signs in on the sign-in page with a demo account and waits for the page it leads to. */
export async function signIn(page: Page, baseUrl: string, who: { email: string; password: string }, next = '/MvcProjects/'): Promise<void> {
  await page.goto(`${baseUrl}/MvcProjects/SignIn?next=${encodeURIComponent(next)}`);
  await page.getByLabel('E-mail address').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForLoadState('domcontentloaded');
}

/** Signed-in pages of several users side by side, one browser context each; close() ends them all. */
export class SignedInPages {
  readonly #contexts: BrowserContext[] = [];

  /** A page of a new context signed in as `who`; a step that cannot find its element fails within 20 s instead of at the run's end. */
  async as(browser: Browser, baseUrl: string, who: { email: string; password: string }): Promise<Page> {
    const context = await browser.newContext();
    this.#contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signIn(page, baseUrl, who);
    return page;
  }

  /** Closes every context opened so far. */
  async close(): Promise<void> {
    for (const c of this.#contexts.splice(0)) await c.close();
  }
}

/** Fails when axe finds a serious or critical accessibility violation on the page as it is now. */
export async function assertAccessible(page: Page): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`), [], `axe on ${page.url()}`);
}

const SCREENSHOT_DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

/**
 * Takes a screenshot of the page. With APAS_WRITE_SCREENSHOTS=1 it goes to docs/screenshots/NAME.png (how the
 * documentation's pictures are made); otherwise to a temporary directory, so a test run changes no tracked file.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = process.env.APAS_WRITE_SCREENSHOTS === '1' ? SCREENSHOT_DIR : fs.mkdtempSync(path.join(os.tmpdir(), 'apas-shots-'));
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
