import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { createProject, dataPath, setDraft, sharedHarness, submitPath } from './http-helpers.ts';
import { openThread } from './inquiry-helpers.ts';
import { column, webGet } from './web-page-helpers.ts';

// Staff read what applicants read: choices by their labels, thread statuses and roles in words; the API keeps the
// stored codes. Every note of a thread starts internal unless ticked, and the form says so.

const QUEUE = `/Projects/ProjectList?ProgramId=${IDS.program}`;

forEachDialect('web labels for staff', ({ dialect }) => {
  const harness = sharedHarness(dialect);
  let projectId = '';
  before(async () => {
    const h = harness();
    projectId = await createProject(h, 'applicant');
    await setDraft(h, projectId, { name: 'Jane Doe', size: ['S', 'M'], kw: '7.5' });
    h.clock.advance();
    assert.equal((await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' })).statusCode, 200);
    await openThread(h, projectId, { subject: 'Roof age', text: 'How old is the roof?', visible: true });
  });
  const review = () => `/MvcProjects/Programs/${IDS.program}/Projects/${projectId}/Review`;

  it('shows choices by label, thread statuses and the role in words on the review page; the API keeps the codes', async () => {
    const h = harness();
    const page = (await webGet(h, review(), 'admin')).body;
    assert.match(page, /<th scope="row">System size<\/th><td>Small; Medium<\/td>/);
    assert.doesNotMatch(page, /<td>S; M<\/td>/);
    assert.match(page, /<span class="usa-tag">Awaiting the applicant’s response<\/span>/);
    assert.doesNotMatch(page, />AwaitingResponse</);
    assert.match(page, /<dt>Your role<\/dt><dd>Admin<\/dd>/);
    const api = await h.request({ method: 'GET', url: dataPath(projectId), as: 'admin' });
    assert.match(api.body, />S</);
    assert.doesNotMatch(api.body, /Small/);
  });

  it('defaults the first note and later notes alike to internal, and says so on the form', async () => {
    const page = (await webGet(harness(), review(), 'admin')).body;
    const boxes = [...page.matchAll(/<input class="usa-checkbox__input" type="checkbox" id="(thread-visible|note-visible-[^"]+)"[^>]*>/g)];
    assert.equal(boxes.length, 2, 'the new thread and the open thread each have the box');
    for (const box of boxes) {
      assert.doesNotMatch(box[0], /checked/, box[1]);
      assert.match(box[0], new RegExp(`aria-describedby="${box[1]}-hint"`));
      assert.match(page, new RegExp(`<p class="usa-hint" id="${box[1]}-hint">Left unticked, the note is internal: only staff see it.</p>`));
    }
  });

  it('filters the work queue by a choice label as well as by its stored value', async () => {
    const h = harness();
    for (const value of ['Medium', 'medium', 'M']) {
      const res = await webGet(h, `${QUEUE}&field=size&op=eq&value=${value}`, 'reader');
      assert.equal(res.statusCode, 200, res.body.slice(0, 300));
      assert.equal(column(res.body, 'Project').length, 1, value);
    }
    const none = await webGet(h, `${QUEUE}&field=size&op=eq&value=Large`, 'reader');
    assert.match(none.body, /No projects match these filters/);
  });
});
