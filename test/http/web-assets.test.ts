import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { SITE_STYLESHEET_PATH, USWDS_PREFIX, USWDS_SPRITE_PATH, USWDS_STYLESHEET_PATH, USWDS_VERSION } from '../../src/web/page-assets.ts';
import { forEachDialect } from '../support/databases.ts';
import { sharedHarness } from './http-helpers.ts';
import { webGet } from './web-page-helpers.ts';

// The pages' style sheets, fonts and icons: the U.S. Web Design System's files served from the installed package under
// its version, the site's own style sheet under a hash of its content, none of the package's script, nothing outside it.

const CSS_FILE = new URL(import.meta.resolve('@uswds/uswds/css/uswds.min.css'));
const PACKAGE = JSON.parse(fs.readFileSync(new URL('../../package.json', CSS_FILE), 'utf8')) as { version: string };
const YEAR = 'public, max-age=31536000, immutable';

forEachDialect('web assets', ({ dialect }) => {
  describe('over http', () => {
    const harness = sharedHarness(dialect);

    it('links every page to the design system’s style sheet and then the site’s, and serves both for a year', async () => {
      const h = harness();
      assert.equal(USWDS_VERSION, PACKAGE.version, 'the installed version is in the path');
      const page = (await webGet(h, '/MvcProjects/SignIn', null)).body;
      assert.match(page, new RegExp(`<link rel="stylesheet" href="${USWDS_STYLESHEET_PATH}"/><link rel="stylesheet" href="${SITE_STYLESHEET_PATH}"/>`));
      assert.doesNotMatch(page, /<script/);
      const uswds = await webGet(h, USWDS_STYLESHEET_PATH, null);
      assert.equal(uswds.statusCode, 200);
      assert.equal(uswds.headers['content-type'], 'text/css; charset=utf-8');
      assert.equal(uswds.headers['cache-control'], YEAR);
      assert.equal(uswds.body, fs.readFileSync(CSS_FILE, 'utf8'));
      const site = await webGet(h, SITE_STYLESHEET_PATH, null);
      assert.equal(site.statusCode, 200);
      assert.equal(site.headers['cache-control'], YEAR);
      assert.match(site.body, /\.usa-header \.usa-nav/);
    });

    it('serves the fonts and images the style sheet names and the icon sprite, and the CSP allows them (same origin, no script)', async () => {
      const h = harness();
      const css = (await webGet(h, USWDS_STYLESHEET_PATH, null)).body;
      const named = [...new Set([...css.matchAll(/url\(\.\.\/((?:fonts|img)\/[^)]+)\)/g)].map((m) => m[1]!))];
      assert.ok(named.length > 20, 'the style sheet names its fonts and icons');
      for (const file of named) {
        const res = await webGet(h, `${USWDS_PREFIX}/${file}`, null);
        assert.equal(res.statusCode, 200, file);
        assert.match(String(res.headers['content-type']), file.endsWith('.woff2') ? /^font\/woff2$/ : /^image\//, file);
      }
      const sprite = await webGet(h, USWDS_SPRITE_PATH, null);
      assert.equal(sprite.statusCode, 200);
      assert.equal(sprite.headers['content-type'], 'image/svg+xml');
      assert.match(sprite.body, /<symbol[^>]*id="navigate_next"/);
      const csp = String((await webGet(h, '/MvcProjects/SignIn', null)).headers['content-security-policy']);
      assert.match(csp, /default-src 'self'/);
      assert.match(csp, /font-src 'self'/);
      assert.match(csp, /img-src 'self'/);
      assert.match(csp, /style-src 'self'/);
      assert.match(csp, /script-src 'none'/);
    });

    it('serves none of the package’s script, nothing outside its style sheet, fonts and images, and no other version', async () => {
      const h = harness();
      for (const path of [
        `${USWDS_PREFIX}/js/uswds.min.js`, `${USWDS_PREFIX}/img/../js/uswds.min.js`, `${USWDS_PREFIX}/img/%2e%2e/js/uswds.min.js`,
        `${USWDS_PREFIX}/../../package.json`, `${USWDS_PREFIX}/img/%2e%2e%2f%2e%2e%2fpackage.json`, `${USWDS_PREFIX}/img/`,
        `${USWDS_PREFIX}/img/no-such-icon.svg`, `${USWDS_PREFIX}/css/uswds.css.map`, `${USWDS_PREFIX}/scss/_index.scss`,
        '/MvcProjects/assets/uswds-0.0.1/css/uswds.min.css', '/MvcProjects/assets/apas.css', '/MvcProjects/assets/apas-000000000000.css',
      ]) {
        const res = await webGet(h, path, null);
        assert.equal(res.statusCode, 404, path);
        assert.match(String(res.headers['content-type']), /^text\/html/, `${path}: the pages' 404`);
      }
    });
  });
});
