import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Caller } from '../../src/domain/caller.ts';
import { PortalService } from '../../src/domain/portal/portal-service.ts';
import type { Store } from '../../src/store/store.ts';
import { forEachDialect } from '../support/databases.ts';
import type { HttpHarness, Who } from '../support/http-harness.ts';
import { COMPLETE, createProject, createSubmitted, setDraft, sharedHarness } from './http-helpers.ts';
import { openThread, setThreadStatus } from './inquiry-helpers.ts';

// "My projects" (PortalService.home): what waits for the applicant on each project, read in a number of store
// calls that does not grow with the number of projects.

type Repo = 'accounts' | 'programs' | 'projects' | 'attachments' | 'inquiries';

/** The store with every repository call counted (by repository and method). */
function counting(store: Store): { store: Pick<Store, Repo | 'transaction'>; calls: string[] } {
  const calls: string[] = [];
  const wrap = <T extends object>(name: string, repo: T): T => new Proxy(repo, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(`${name}.${String(prop)}`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return {
    calls,
    store: {
      accounts: wrap('accounts', store.accounts), programs: wrap('programs', store.programs), projects: wrap('projects', store.projects),
      attachments: wrap('attachments', store.attachments), inquiries: wrap('inquiries', store.inquiries), transaction: store.transaction.bind(store),
    },
  };
}

async function callerOf(h: HttpHarness, who: Who): Promise<Caller> {
  const user = await h.store.accounts.findUserById(h.who[who].id);
  assert.ok(user);
  const { passwordHash: _secret, ...plain } = user;
  return { user: plain, apiKeyId: '', grants: await h.store.accounts.listGrants(user.id) };
}

async function home(h: HttpHarness, who: Who) {
  const counted = counting(h.store);
  const portal = new PortalService({ store: counted.store, clock: h.clock, ids: { next: () => 'UNUSED' }, publicUrl: 'http://apas.test', maxNumbersPerRequest: 1000 });
  const view = await portal.home(await callerOf(h, who));
  return { view, calls: counted.calls, waiting: new Map(view.myProjects.map((p) => [p.projectId, p.waiting])) };
}

forEachDialect('My projects (PortalService.home)', ({ dialect }) => {
  const harness = sharedHarness(dialect);

  it('shows what waits on each project, in as many store calls for many projects as for one', async () => {
    const h = harness();
    const first = await createProject(h, 'applicant');
    const one = await home(h, 'applicant');
    assert.deepEqual([...one.waiting], [[first, ['Application: to complete']]]);

    const ready = await createProject(h, 'applicant');
    await setDraft(h, ready, { ...COMPLETE, size: [...COMPLETE.size] });
    const asked = (await createSubmitted(h, 'applicant')).projectId;
    await openThread(h, asked, { subject: 'Roof pitch', visible: true });
    const hidden = (await createSubmitted(h, 'applicant')).projectId;
    // Awaiting a response, but with no note the applicant may see: nothing shows it to them, so nothing waits.
    const internal = await openThread(h, hidden, { subject: 'Internal only', visible: false });
    await setThreadStatus(h, hidden, internal, 'AwaitingResponse');
    const quiet = (await createSubmitted(h, 'applicant')).projectId;
    const resolved = await openThread(h, quiet, { subject: 'Answered', visible: true });
    await setThreadStatus(h, quiet, resolved, 'Resolved');
    const others = await createProject(h, 'otherApplicant');
    for (let i = 0; i < 5; i++) await createProject(h, 'applicant');

    const many = await home(h, 'applicant');
    assert.equal(many.view.myProjects.length, 10);
    assert.equal(many.waiting.has(others), false, 'only their own projects');
    assert.deepEqual(many.waiting.get(first), ['Application: to complete']);
    assert.deepEqual(many.waiting.get(ready), ['Application: ready to submit']);
    assert.deepEqual(many.waiting.get(asked), ['Question to answer: Roof pitch']);
    assert.deepEqual(many.waiting.get(hidden), []);
    assert.deepEqual(many.waiting.get(quiet), []);
    assert.deepEqual(many.view.myProjects.map((p) => p.lastChange), [...many.view.myProjects.map((p) => p.lastChange)].sort((a, b) => b - a), 'latest change first');
    assert.deepEqual(many.calls, one.calls, `the same store calls for 10 projects as for 1: ${many.calls.join(', ')}`);
    assert.ok(many.calls.length <= 8, `a handful of calls: ${many.calls.join(', ')}`);

    const staff = await home(h, 'reader');
    assert.deepEqual(staff.view.myProjects, [], 'staff own no applications here');
    assert.equal(staff.view.programs[0]?.staff, true);
  });
});
