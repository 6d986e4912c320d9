import chromium from '@sparticuz/chromium';
import type { LaunchOptions } from 'playwright-core';

/** Where a test file finds the test run's one shared Chromium: a Playwright browser server's WebSocket endpoint. */
export const BROWSER_ENV = 'APAS_TEST_BROWSER_WS';

// The package's flags are made for AWS Lambda: one process (closing the last page would end the browser) and web
// security switched off, which would hide exactly what the tests check (CSP, same-origin rules).
const LAMBDA_ONLY = new Set(['--single-process', '--disable-web-security', '--allow-running-insecure-content', '--disable-site-isolation-trials']);

/** How to launch the Chromium that the @sparticuz/chromium package ships (no system browser, no download). */
export async function chromiumLaunchOptions(): Promise<LaunchOptions> {
  return { executablePath: await chromium.executablePath(), args: chromium.args.filter((a) => !LAMBDA_ONLY.has(a)), headless: true };
}
