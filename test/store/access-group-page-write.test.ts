import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachDialect, onDatabase } from '../support/databases.ts';
import { IDS, project, seedProgram } from '../support/fixtures.ts';

// A recount writes a page's moved memberships in a few statements (setPageAccessGroups); the change step writes one
// project's (setProjectAccessGroups, that write of a page of one). Two twin sets of projects start in the same groups
// and are moved the same way, one set as a page and one project at a time: the projects' column and the membership rows
// must come out the same, and be what was asked.

/** Each case's groups before and after: moved in, moved out, moved between, unchanged, empty before and after. */
const CASES: [string, string[], string[]][] = [
  ['in', [], ['north']],
  ['out', ['north'], []],
  ['between', ['north'], ['south', 'islands']],
  ['more', ['south'], ['south', 'islands']],
  ['unchanged', ['south'], ['south']],
  ['empty', [], []],
  ['in2', [], ['north']],
];

forEachDialect('store: a page of a recount writes the same memberships as each project alone', ({ open }) => {
  it('moved in, moved out, moved between, unchanged and empty give the same column and rows both ways', async () => {
    const { store, config } = await open();
    await seedProgram(store);
    const id = (set: string, name: string) => `PROJECT${set}${name.toUpperCase()}`.padEnd(16, 'X');
    await store.transaction(async (tx) => {
      for (const set of ['A', 'B']) {
        for (const [name, before] of CASES) {
          await tx.projects.insertProject(project(id(set, name)));
          await tx.projects.setProjectAccessGroups(IDS.program, id(set, name), before, []);
        }
      }
    });
    const written = await store.transaction(async (tx) => {
      const perProject: string[] = [];
      for (const [name, before, after] of CASES) {
        if (await tx.projects.setProjectAccessGroups(IDS.program, id('B', name), after, before)) perProject.push(id('B', name));
      }
      const page = await tx.projects.setPageAccessGroups(IDS.program, CASES.map(([name, before, after]) => ({ projectId: id('A', name), groups: after, before })));
      return { page, perProject };
    });
    // The same projects count as written, in the order given, and not the unchanged or the empty one.
    assert.deepEqual(written.page.map((p) => p.slice(8)), written.perProject.map((p) => p.slice(8)));
    assert.deepEqual(written.page, ['in', 'out', 'between', 'more', 'in2'].map((n) => id('A', n)));
    const state = await onDatabase(config, async (db) => {
      const columns = await db.selectFrom('projects').select(['id', 'access_groups']).where('program_id', '=', IDS.program).orderBy('id').execute();
      const rows = await db.selectFrom('project_access_groups').select(['project_id', 'group_id', 'program_id']).orderBy('project_id').orderBy('group_id').execute();
      return { columns, rows };
    });
    const of = (set: string) => ({
      columns: state.columns.filter((c) => c.id.startsWith(`PROJECT${set}`)).map((c) => [c.id.slice(8), c.access_groups]),
      rows: state.rows.filter((r) => r.project_id.startsWith(`PROJECT${set}`)).map((r) => [r.project_id.slice(8), r.group_id, r.program_id]),
    });
    assert.deepEqual(of('A'), of('B'));
    // And what both wrote is what was asked: the new groups as JSON in the file's order (null for none), a row each.
    for (const [name, , after] of CASES) {
      const column = state.columns.find((c) => c.id === id('A', name))!.access_groups;
      assert.deepEqual(column === null ? [] : JSON.parse(column), after, name);
      assert.deepEqual(state.rows.filter((r) => r.project_id === id('A', name)).map((r) => r.group_id).sort(), [...after].sort(), name);
    }
  });

  it('a page larger than one insert of membership rows writes every row', async () => {
    const { store, config } = await open();
    await seedProgram(store);
    const ids = Array.from({ length: 600 }, (_, i) => `PROJECTBIG${String(i).padStart(5, '0')}`);
    const groups = ['north', 'south', 'islands'];
    await store.transaction(async (tx) => {
      for (const p of ids) await tx.projects.insertProject(project(p));
      assert.equal((await tx.projects.setPageAccessGroups(IDS.program, ids.map((p) => ({ projectId: p, groups, before: [] })))).length, 600);
    });
    const n = await onDatabase(config, async (db) => (await db.selectFrom('project_access_groups').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
    assert.equal(Number(n), 1800);
  });
});
