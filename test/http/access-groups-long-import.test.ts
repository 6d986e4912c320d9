import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ApiError } from '../../src/domain/api-error.ts';
import { formatProgramFile, programFileOf } from '../../src/domain/programs/program-export.ts';
import { importProgram, type ImportOptions } from '../../src/domain/programs/program-import.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import type { AccessGroup } from '../../src/model/model.ts';
import { MAX_WRITE_TRANSACTION_MS } from '../../src/store/store.ts';
import { StoreError } from '../../src/store/store-error.ts';
import { GROUPS, NORTH_KW, SOUTH_KW } from '../support/access-groups.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import type { HttpHarness } from '../support/http-harness.ts';
import { programsPaths } from '../../src/web/console/programs-paths.ts';
import { reviewed, upload } from './console-program-helpers.ts';
import { createSubmitted, slowHarness } from './http-helpers.ts';
import { webPost } from './web-page-helpers.ts';

// An import that changes an access group's condition recounts every project's membership in its one transaction,
// which like every change may take 30 s (MAX_WRITE_TRANSACTION_MS). Rolled back for time, it changes nothing and says
// why and what to do (`--long-transaction`); the operator's per-import bound (ImportOptions.maxTransactionMs, the CLI's
// --long-transaction) raises the bound for that import only. The store's clock is moved past the bound inside the
// transaction, so nothing here is slow.

/** The territories swapped: every project moves. */
const SWAPPED: AccessGroup[] = GROUPS.map((g) => ({ ...g, if: g.customId === 'north' ? 'kw >= 10.0' : 'kw < 10.0' }));

/** The fixture program's file with `groups`, as `program export` writes it (its initial status named as a file names it). */
async function fileWith(h: HttpHarness, groups: AccessGroup[]) {
  const program = (await h.store.programs.findProgram(IDS.program))!;
  const file = programFileOf(await h.store.programs.loadProgramModel(program));
  return { ...file, statuses: file.statuses.map((s) => (s.initial ? { ...s, name: 'Unsubmitted' } : s)), accessGroups: groups };
}

async function importWith(h: HttpHarness, groups: AccessGroup[], options: ImportOptions = {}) {
  return importProgram({ store: h.store, clock: h.clock, ids: new RandomIdGenerator(), checkers: programCheckers() }, 'acme', await fileWith(h, groups), options);
}

/** What an import changes: the program's groups and version, each project's groups, the membership counts. */
async function state(h: HttpHarness, ids: string[]) {
  const program = (await h.store.programs.findProgram(IDS.program))!;
  const projects = await Promise.all(ids.map(async (id) => (await h.store.projects.getProject(IDS.program, id))!.accessGroups ?? []));
  return {
    groups: program.accessGroups, version: (await h.store.programs.latestProgramVersion(IDS.program))?.version ?? 0, projects,
    counts: Object.fromEntries(await h.store.projects.countAccessGroups(IDS.program)),
  };
}

forEachDialect('Access groups: an import whose recount does not fit in its transaction\'s time', ({ open }) => {
  it('rolled back after 30 s: nothing changed, and the error gives the projects and names --long-transaction', async () => {
    const { h, setSlow } = await slowHarness(open);
    try {
      await importWith(h, GROUPS);
      const ids = [(await createSubmitted(h, 'applicant', { kw: NORTH_KW })).projectId, (await createSubmitted(h, 'applicant', { kw: SOUTH_KW })).projectId];
      const before = await state(h, ids);
      assert.deepEqual(before.projects, [['north'], ['south']]);
      setSlow(async () => void h.clock.advance(MAX_WRITE_TRANSACTION_MS + 1));
      await assert.rejects(importWith(h, SWAPPED), (error: unknown) => {
        assert.ok(error instanceof ApiError);
        assert.equal(error.code, 'SERVICE_UNAVAILABLE');
        assert.match(error.message, /^Program solar has 2 projects; recounting their access groups did not fit in the 30 s a change may take, so the import was rolled back and nothing was changed\./);
        assert.match(error.message, /`apas program import FILE --long-transaction 3` \(minutes\)/);
        assert.equal(error.headers['Retry-After'], undefined, 'trying again as it was would fail the same way');
        return true;
      });
      setSlow(null);
      assert.deepEqual(await state(h, ids), before);
      // Too long with a bound of its own too: the message gives that bound and asks for more.
      setSlow(async () => void h.clock.advance(2 * 60_000 + 1));
      await assert.rejects(importWith(h, SWAPPED, { maxTransactionMs: 2 * 60_000 }), /did not fit in the 2 minutes given by --long-transaction, .* --long-transaction 4`/);
      setSlow(null);
      assert.deepEqual(await state(h, ids), before);
    } finally {
      await h.close();
    }
  });

  it('the import\'s own bound lets it take longer than 30 s; every other transaction keeps the 30 s', async () => {
    const { h, setSlow } = await slowHarness(open);
    try {
      await importWith(h, GROUPS);
      const ids = [(await createSubmitted(h, 'applicant', { kw: NORTH_KW })).projectId, (await createSubmitted(h, 'applicant', { kw: SOUTH_KW })).projectId];
      setSlow(async () => void h.clock.advance(MAX_WRITE_TRANSACTION_MS + 1));
      const report = await importWith(h, SWAPPED, { maxTransactionMs: 5 * 60_000 });
      assert.equal(report.version, 2);
      assert.deepEqual((await state(h, ids)).projects, [['south'], ['north']]);
      // The bound was this import's only: the next transaction, an import without one, is rolled back at 30 s.
      await assert.rejects(h.store.transaction(async () => undefined), (e: unknown) => e instanceof StoreError && e.code === 'TRANSACTION_TOO_LONG');
      await assert.rejects(importWith(h, GROUPS), /did not fit in the 30 s a change may take/);
      // An import that recounts nothing keeps the store's own answer (no advice about access groups).
      await assert.rejects(importWith(h, SWAPPED.map((g) => ({ ...g, name: `${g.name}!` }))), (e: unknown) => e instanceof StoreError && e.code === 'TRANSACTION_TOO_LONG');
    } finally {
      setSlow(null);
      await h.close();
    }
  });

  it('published on the console and rolled back for time: the review page says why and to import it with --long-transaction', async () => {
    const { h, setSlow } = await slowHarness(open);
    try {
      await importWith(h, GROUPS);
      const ids = [(await createSubmitted(h, 'applicant', { kw: NORTH_KW })).projectId];
      const before = await state(h, ids);
      const r = await reviewed(h, h.who.admin, await upload(h, h.who.admin, 'solar.yaml', formatProgramFile({ ...(await fileWith(h, SWAPPED)), numberPrefix: 'SOL' }, 'yaml')));
      // Only the publishing transaction (the one that records version 2) runs long: the request's others do not.
      setSlow(async (tx) => {
        if ((await tx.programs.latestProgramVersion(IDS.program))!.version > before.version) h.clock.advance(MAX_WRITE_TRANSACTION_MS + 1);
      });
      const published = await webPost(h, programsPaths.publish(r.uploadId), 'admin', { sha256: r.sha256, version: r.version });
      setSlow(null);
      assert.equal(published.statusCode, 503, published.body);
      assert.match(published.body, /Program solar has 1 project; recounting their access groups did not fit in the 30 s a change may take, so the import was rolled back and nothing was changed\./);
      assert.match(published.body, /apas program import FILE --long-transaction 3/);
      // The review is shown again (the fixture's number prefix, not one a file may give, changes with the groups).
      assert.match(published.body, /Publish version 2/);
      assert.deepEqual(await state(h, ids), before);
    } finally {
      setSlow(null);
      await h.close();
    }
  });
});
