import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { ApiError, ERROR_STATUS, type ErrorCode } from '../../src/domain/api-error.ts';
import { renderErrorPage } from '../../src/web/error-page.tsx';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { createProject, sharedHarness } from './http-helpers.ts';
import { webGet, webPost } from './web-page-helpers.ts';

// The error pages of the web application: the site's layout, plain words, the way back, no internal identifiers,
// and the same security headers as every page, also where no route of the pages answers (404, 405).

/** Asserts an answer is an error page in the site's layout with the way back, its security headers included. */
function assertErrorPage(res: LightMyRequestResponse, status: number, title: string): void {
  assert.equal(res.statusCode, status, res.body.slice(0, 300));
  assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
  assert.match(res.body, /<main id="main"/);
  assert.match(res.body, /<header class="usa-header usa-header--basic">/);
  assert.match(res.body, new RegExp(`<h1>${title}</h1>`));
  assert.match(res.body, /<a href="\/MvcProjects\/(SignIn)?">Go to (your start page|sign-in)<\/a>/);
  assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/);
  assert.match(String(res.headers['content-security-policy']), /script-src 'none'/);
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.equal(res.headers['referrer-policy'], 'same-origin');
  assert.equal(res.headers['cache-control'], 'no-store');
  for (const internal of [IDS.program, IDS.agency, 'operation', 'FORBIDDEN', 'NOT_FOUND']) assert.ok(!res.body.includes(internal), `the page shows ${internal}`);
}

describe('web error page', () => {
  it('says for every error code what happened in words, in the layout, and quotes no message of the API', () => {
    for (const code of Object.keys(ERROR_STATUS) as ErrorCode[]) {
      const html = renderErrorPage(new ApiError(code, `Program ${IDS.program} refused it`));
      assert.match(html, /<main id="main"/, code);
      assert.match(html, /<h1>[A-Z][^<]+<\/h1>/, code);
      assert.ok(!html.includes(IDS.program), `${code} quotes the API's message`);
      assert.ok(!html.includes(code), `${code} shows its code`);
    }
    assert.match(renderErrorPage(new ApiError('CONFLICT', 'x')), /<h1>Someone else changed this at the same time<\/h1>/);
  });
});

forEachDialect('web error pages', ({ dialect }) => {
  describe('over http', () => {
    const harness = sharedHarness(dialect);

    it('answers an unknown page (404) and a wrong method (405) with a page and the security headers', async () => {
      const h = harness();
      assertErrorPage(await webGet(h, '/MvcProjects/NoSuchPage', 'applicant'), 404, 'Page not found');
      assertErrorPage(await webGet(h, '/Projects/NoSuchPage', null), 404, 'Page not found');
      const wrong = await webGet(h, '/MvcProjects/SignOut', null);
      assertErrorPage(wrong, 405, 'This page cannot be used this way');
      assert.equal(wrong.headers.allow, 'POST');
    });

    it('answers a page the caller may not see (403) and one that is not there (404) without internal ids', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      // Addressed by the program's custom id: the generated one is nowhere on the page.
      assertErrorPage(await webGet(h, `/MvcProjects/Programs/solar/Projects/${projectId}/Review`, 'applicant'), 403, 'You cannot use this page');
      assertErrorPage(await webGet(h, `/MvcProjects/Programs/solar/Projects/${projectId}/Review`, 'otherApplicant'), 403, 'You cannot use this page');
      assertErrorPage(await webGet(h, '/MvcProjects/Programs/solar/Projects/NOSUCHPROJCT/Review', 'admin'), 404, 'Page not found');
    });

    it('answers a form without its CSRF token (403) with what to do', async () => {
      const h = harness();
      const res = await webPost(h, '/MvcProjects/NewProject', 'applicant', { ProgramId: IDS.program }, false);
      assertErrorPage(res, 403, 'This form has expired');
      assert.match(res.body, /nothing was changed/);
    });

    it('answers a fault (500) with a page that shows none of it', async () => {
      const h = harness();
      const accounts = h.store.accounts;
      const original = accounts.findAgency;
      accounts.findAgency = async () => {
        throw new Error(`disk on fire under ${IDS.agency}`);
      };
      try {
        const res = await webGet(h, '/MvcProjects/', 'applicant');
        assertErrorPage(res, 500, 'Something went wrong on our side');
        assert.doesNotMatch(res.body, /disk on fire/);
      } finally {
        accounts.findAgency = original;
      }
    });
  });

  describe('over https', () => {
    const harness = sharedHarness(dialect, { APAS_PUBLIC_URL: 'https://apas.test' });

    it('sends HSTS with the 404 and 405 pages as with every page', async () => {
      const h = harness();
      for (const url of ['/MvcProjects/NoSuchPage', '/MvcProjects/SignOut', '/MvcProjects/SignIn']) {
        const res = await webGet(h, url, null);
        assert.match(String(res.headers['strict-transport-security']), /max-age=\d+/, url);
        assert.match(String(res.headers['content-security-policy']), /upgrade-insecure-requests/, url);
      }
    });
  });
});
