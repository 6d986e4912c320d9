import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Project } from '../../src/model/model.ts';
import type { FieldCondition, ProjectSearch, SearchTuning } from '../../src/model/records.ts';
import { openDatabase } from '../../src/store/database.ts';
import { planSearch } from '../../src/store/search-queries.ts';
import type { Store } from '../../src/store/store.ts';
import type { QueueKey, WorkQueueQuery } from '../../src/store/work-queue-queries.ts';
import { forEachDialect, type TestStore } from '../support/databases.ts';
import { IDS, programRows, project, seedProgram, T0, value } from '../support/fixtures.ts';

// A search with filters runs one of two plans: driven by its most selective filter (read that filter's projects,
// test each against the others) or, when every filter is broad, walking the result order and testing each project.
// `broadAt` moves the line between them, so each search below runs both ways (and mixed) against what it must find.

const N = 60;
/**
 * Broad at 1 (every filter walks), at 8 (filters with fewer than 8 matches drive), never broad (always driven); walks
 * of the whole program (the default window) and of windows of 1 and 7 projects, past which the rest is driven.
 */
const TUNINGS: SearchTuning[] = [{ broadAt: 1 }, { broadAt: 1, walkWindow: 7 }, { broadAt: 1, walkWindow: 1 }, { broadAt: 8 }, { broadAt: 8, walkWindow: 7 }, { broadAt: 1_000_000 }];

interface Row { p: Project; name: string | null; kw: number | null; sizes: string[]; submittedAt: number | null }

function rowOf(i: number): Row {
  const submitted = i % 3 === 0;
  // Ids run against creation order, and two projects share each creation time, so order ties are broken by id.
  const p = project(`PROJECT${String(1000 - i).padStart(5, '0')}`, {
    createdAt: T0 + Math.floor(i / 2) * 1000, updatedAt: T0 + ((i * 7) % 30) * 500, statusId: submitted ? IDS.submitted : IDS.draft,
    ownerId: i % 4 === 0 ? IDS.admin : IDS.applicant,
  });
  if (i % 11 === 0) return { p, name: null, kw: null, sizes: [], submittedAt: submitted ? T0 + i * 100 : null };
  // Only the last five projects created are called Late: a selective filter whose matches come last in every order.
  const name = i >= N - 5 ? 'Late' : i % 2 === 0 ? 'Jane' : 'Bob';
  const sizes = i % 3 === 0 ? ['S', 'M'] : i % 3 === 1 ? ['L'] : [];
  return { p, name, kw: i % 10, sizes, submittedAt: submitted ? T0 + i * 100 : null };
}

const ROWS = Array.from({ length: N }, (_, i) => rowOf(i));

async function load(store: Store): Promise<void> {
  await seedProgram(store);
  // The plans compare text in every way (contains, order), which only a field that is not sensitive allows: the
  // fixture's sensitive text field is made an ordinary one here (sealed fields are searched in sealed-field-values.test.ts).
  const rows = programRows(T0 + 5);
  await store.transaction((tx) => tx.programs.saveProgramDefinition({ ...rows, fields: rows.fields.map((f) => ({ ...f, sensitive: false })) }));
  await store.transaction(async (tx) => {
    for (const r of ROWS) {
      await tx.projects.insertProject(r.p);
      if (r.name !== null) {
        await tx.projects.upsertValues(r.p.id, IDS.form, [value(IDS.name, r.name), value(IDS.kw, String(r.kw)), value(IDS.size, r.sizes)]);
      }
      if (r.submittedAt !== null) {
        await tx.projects.insertHistory({ id: `H${r.p.id}`, projectId: r.p.id, statusId: IDS.submitted, changedAt: r.submittedAt, changedBy: IDS.applicant, reportAs: 'normal' });
      }
    }
  });
}

const text = (fieldId: string, op: FieldCondition['op'], content: string): FieldCondition => ({ fieldId, kind: 'text', op, content, number: null });
const num = (op: FieldCondition['op'], n: number): FieldCondition => ({ fieldId: IDS.kw, kind: 'number', op, content: String(n), number: n });
const multi = (op: FieldCondition['op'], content: string | null): FieldCondition => ({ fieldId: IDS.size, kind: 'multi', op, content, number: null });

/** A search case: its conditions and which rows must match them, written out in plain code. */
interface Case { name: string; search: Partial<ProjectSearch>; matches: (r: Row) => boolean }

const CASES: Case[] = [
  { name: 'one broad filter', search: { fields: [text(IDS.name, 'eq', 'Jane')] }, matches: (r) => r.name === 'Jane' },
  { name: 'two filters', search: { fields: [text(IDS.name, 'eq', 'Jane'), num('gt', 4)] }, matches: (r) => r.name === 'Jane' && r.kw !== null && r.kw > 4 },
  { name: 'a filter matching only the last created', search: { fields: [text(IDS.name, 'eq', 'Late'), num('ge', 0)] }, matches: (r) => r.name === 'Late' },
  {
    name: 'a multi-value filter, a number range and a status', search: { statusIn: [IDS.submitted], fields: [num('ge', 2), multi('eq', 'S')] },
    matches: (r) => r.p.statusId === IDS.submitted && r.kw !== null && r.kw >= 2 && r.sizes.includes('S'),
  },
  { name: 'ne (an anti-join) with a range', search: { fields: [text(IDS.name, 'ne', 'Jane'), num('lt', 5)] }, matches: (r) => r.name !== 'Jane' && r.kw !== null && r.kw < 5 },
  {
    name: 'a status date with a range', search: { statusDates: [{ statusId: IDS.submitted, op: 'gt', at: T0 + 2000 }], fields: [num('gt', 3)] },
    matches: (r) => r.submittedAt !== null && r.submittedAt > T0 + 2000 && r.kw !== null && r.kw > 3,
  },
  {
    name: "one owner's projects (an applicant's access limit)", search: { owner: { ownerId: IDS.applicant, organizationIds: [] }, fields: [text(IDS.name, 'eq', 'Jane'), num('gt', 1)] },
    matches: (r) => r.p.ownerId === IDS.applicant && r.name === 'Jane' && r.kw !== null && r.kw > 1,
  },
  {
    name: 'contains and notempty', search: { fields: [text(IDS.name, 'contains', 'A'), multi('notempty', null)] },
    matches: (r) => (r.name?.toLowerCase().includes('a') ?? false) && r.sizes.length > 0,
  },
  { name: 'a filter nothing matches, with a broad one', search: { fields: [text(IDS.name, 'eq', 'Nobody'), num('ge', 0)] }, matches: () => false },
  { name: 'excluded statuses', search: { statusNotIn: [IDS.submitted], fields: [num('le', 6)] }, matches: (r) => r.p.statusId !== IDS.submitted && r.kw !== null && r.kw <= 6 },
];

const byCreation = (a: Project, b: Project) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1);
const byUpdateDesc = (a: Project, b: Project) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1);
const ids = (ps: { id: string }[]) => ps.map((p) => p.id);

// Deadlines for the due-date order: every third project one running (due times shared by pairs, so ties fall to the
// id), every ninth a second, earlier one; every fourth one that passed or was satisfied, which the order ignores.
function deadlinesOf(i: number): { deadlineId: string; dueAt: number; state: 'running' | 'passed' | 'satisfied' }[] {
  const out: { deadlineId: string; dueAt: number; state: 'running' | 'passed' | 'satisfied' }[] = [];
  if (i % 3 === 1) out.push({ deadlineId: 'answer', dueAt: T0 + Math.floor(i / 6) * 60_000, state: 'running' });
  if (i % 9 === 1) out.push({ deadlineId: 'inspection', dueAt: T0 + Math.floor(i / 6) * 60_000 - 90_000, state: 'running' });
  if (i % 4 === 0) out.push({ deadlineId: 'earlier', dueAt: T0 - 1000, state: i % 8 === 0 ? 'passed' : 'satisfied' });
  return out;
}

async function loadDeadlines(store: Store): Promise<void> {
  await store.transaction(async (tx) => {
    for (const [i, r] of ROWS.entries()) {
      for (const d of deadlinesOf(i)) {
        const id = `${r.p.id}-${d.deadlineId}`;
        await tx.deadlines.startProjectDeadline({ id, projectId: r.p.id, programId: IDS.program, deadlineId: d.deadlineId, startedAt: T0, dueDate: '2026-01-01', dueAt: d.dueAt, startedBy: null });
        if (d.state !== 'running') await tx.deadlines.endProjectDeadline(id, d.state, T0, null);
      }
    }
  });
}

/** The due-date order's key of a project: its earliest running due time, or past every other key when it has none. */
function dueKey(projectId: string, direction: 'asc' | 'desc'): number {
  const i = ROWS.findIndex((r) => r.p.id === projectId);
  const running = deadlinesOf(i).filter((d) => d.state === 'running').map((d) => d.dueAt);
  return running.length > 0 ? Math.min(...running) : direction === 'asc' ? Number.MAX_SAFE_INTEGER : -1;
}

function byDue(direction: 'asc' | 'desc') {
  const sign = direction === 'asc' ? 1 : -1;
  return (a: Project, b: Project) => sign * (dueKey(a.id, direction) - dueKey(b.id, direction) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

forEachDialect('store: search plans (driven by a selective filter, or walking the order past broad ones)', ({ open }) => {
  let opened: TestStore;

  async function plans(s: Partial<ProjectSearch>, broadAt: number): Promise<string> {
    const { db } = await openDatabase(opened.config, 1);
    try {
      const plan = await planSearch(db, { statusDates: [], fields: [], ...s }, broadAt);
      return 'walk' in plan ? 'walk' : `drive ${plan.drive}`;
    } finally {
      await db.destroy();
    }
  }

  it('GetProjectsByData finds the same projects in creation order with either plan, for every page', async () => {
    opened = await open();
    const { store } = opened;
    await load(store);
    for (const c of CASES) {
      const expected = ROWS.filter(c.matches).map((r) => r.p).sort(byCreation);
      for (const tuning of TUNINGS) {
        for (const [limit, offset] of [[100, 0], [3, 0], [4, 5], [10, expected.length - 2], [5, expected.length + 3], [0, 0]] as const) {
          const search: ProjectSearch = { programId: IDS.program, statusDates: [], fields: [], ...c.search, limit, offset: Math.max(0, offset), tuning };
          const found = await store.projects.searchProjects(search);
          assert.deepEqual(ids(found), ids(expected.slice(Math.max(0, offset), Math.max(0, offset) + limit)), `${c.name}, ${JSON.stringify(tuning)}, limit ${limit} offset ${offset}`);
        }
      }
    }
    // The plans the cases above ran: every filter broad walks; the fewest matches below broadAt drive.
    assert.equal(await plans(CASES[1]!.search, 1), 'walk');
    assert.equal(await plans(CASES[2]!.search, 8), 'drive 0', 'Late (5 projects) drives');
    assert.equal(await plans(CASES[2]!.search, 1_000_000), 'drive 0');
    assert.equal(await plans(CASES[1]!.search, 8), 'walk', 'Jane and kw > 4 both match 8 or more');
    const jane = ROWS.filter((r) => r.name === 'Jane').length;
    const above4 = ROWS.filter((r) => r.kw !== null && r.kw > 4).length;
    assert.notEqual(jane, above4);
    assert.equal(await plans(CASES[1]!.search, 1_000_000), jane < above4 ? 'drive 0' : 'drive 1', 'the filter with fewer matches drives');
    assert.equal(await plans(CASES[8]!.search, 1), 'drive 0', 'a filter with no match drives, whatever broadAt');
    assert.equal(await plans({ fields: [text(IDS.name, 'ne', 'Jane')] }, 8), 'walk', 'an anti-join is always a test');
  });

  it('the work queue pages by keyset through the same projects in its order with either plan', async () => {
    opened = await open();
    const { store } = opened;
    await load(store);
    await loadDeadlines(store);
    for (const c of CASES.filter((x) => x.search.statusDates === undefined && x.search.owner === undefined && x.search.statusNotIn === undefined)) {
      for (const [sort, direction] of [['updated', 'desc'], ['created', 'asc'], ['due', 'asc'], ['due', 'desc']] as const) {
        const order = sort === 'updated' ? byUpdateDesc : sort === 'created' ? byCreation : byDue(direction);
        const expected = ROWS.filter(c.matches).map((r) => r.p).sort(order);
        for (const tuning of TUNINGS) {
          const seen: string[] = [];
          let after: QueueKey | undefined;
          for (let page = 0; page < N; page++) {
            const q: WorkQueueQuery = { programId: IDS.program, fields: c.search.fields ?? [], sort, direction, limit: 4, tuning, after, ...(c.search.statusIn ? { statusIn: c.search.statusIn } : {}) };
            const rows = await store.projects.workQueuePage(q);
            seen.push(...rows.map((r) => r.project.id));
            if (rows.length < 4) break;
            const last = rows.at(-1)!;
            assert.equal(last.at, sort === 'updated' ? last.project.updatedAt : sort === 'created' ? last.project.createdAt : dueKey(last.project.id, direction));
            after = { at: last.at, id: last.project.id };
          }
          assert.deepEqual(seen, ids(expected), `${c.name}, ${sort} ${direction}, ${JSON.stringify(tuning)}`);
        }
      }
    }
  });
});
