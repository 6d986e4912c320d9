import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { createProject, sharedHarness } from './http-helpers.ts';
import { webGet, webPost } from './web-page-helpers.ts';

// Saved views, chosen columns, the bounded count and needs attention on the staff work queue (issue 22 items 1-2).

const QUEUE = `/Projects/ProjectList?ProgramId=${IDS.program}`;
const VIEWS = '/Projects/ProjectList/Views';

forEachDialect('HTTP work queue views', ({ dialect }) => {
  const harness = sharedHarness(dialect);

  describe('saved views', () => {
    it('saves a personal view that only its owner sees and changes; a refused delete changes nothing', async () => {
      const h = harness();
      await createProject(h, 'applicant');
      const saved = await webPost(h, VIEWS, 'editor', { ProgramId: IDS.program, name: 'Mine only', query: 'col=status&col=daysInStatus&order=created-asc' });
      assert.equal(saved.statusCode, 303, saved.body);
      const viewId = /view=([^&]+)/.exec(String(saved.headers.location))?.[1];
      assert.ok(viewId);
      const own = await webGet(h, String(saved.headers.location), 'editor');
      assert.equal(own.statusCode, 200);
      assert.match(own.body, />Mine only</);
      assert.match(own.body, /<th scope="col">Days in status<\/th>/);
      const other = await webGet(h, QUEUE, 'reader');
      assert.doesNotMatch(other.body, /Mine only/);
      const refused = await webPost(h, `${VIEWS}/Delete`, 'reader', { ProgramId: IDS.program, viewId });
      assert.equal(refused.statusCode, 404);
      const renamed = await webPost(h, VIEWS, 'reader', { ProgramId: IDS.program, viewId, name: 'Taken', query: '' });
      assert.equal(renamed.statusCode, 404);
      const after = await webGet(h, QUEUE, 'editor');
      assert.match(after.body, />Mine only</);
      assert.doesNotMatch(after.body, /Taken/);
    });

    it('refuses to share a view without the privilege assign, and stores nothing', async () => {
      const h = harness();
      const res = await webPost(h, VIEWS, 'reader', { ProgramId: IDS.program, name: 'Shared by reader', shared: '1', query: '' });
      assert.equal(res.statusCode, 403);
      assert.doesNotMatch((await webGet(h, QUEUE, 'reader')).body, /Shared by reader/);
    });
  });

  describe('count and needs attention', () => {
    it('shows the count and refuses an unknown column with 400', async () => {
      const h = harness();
      await createProject(h, 'applicant');
      const res = await webGet(h, QUEUE, 'reader');
      assert.match(res.body, /<p id="queue-count">\d+ projects? match/);
      const bad = await webGet(h, `${QUEUE}&col=nosuch`, 'reader');
      assert.equal(bad.statusCode, 400);
      const attention = await webGet(h, `${QUEUE}&attention=any`, 'reader');
      assert.equal(attention.statusCode, 200);
      assert.match(attention.body, /id="attention-any">\d+</);
    });
  });
});
