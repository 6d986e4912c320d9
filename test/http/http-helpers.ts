import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { Project } from '../../src/model/model.ts';

import type { Store, StoreWriter } from '../../src/store/store.ts';
import { openTestStore, type TestDialect, type TestStore, type TestStoreOptions } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, attrs, dataRequest, type HttpHarness, NS, startHttp, TestClock, type Who } from '../support/http-harness.ts';

/** The API base path every operation lives under. */
export const API = '/services/v2';
/** The fixture program's address by custom id. */
export const PROGRAM = `${API}/Programs/solar`;

/** Every identity of the harness, in the order the role matrices list them. */
export const EVERYONE: readonly Who[] = ['admin', 'programAdmin', 'editor', 'reader', 'applicant', 'otherApplicant', 'outsider'];

/** A complete, valid draft of the fixture form. */
export const COMPLETE = { name: 'Jane Doe', size: ['S', 'M'], kw: '7.5' } as const;

/**
 * Builds one harness (fresh database, fixture program, one identity per role) before the enclosing
 * describe and closes it after; the stores of forEachDialect's `open` would be closed after every test.
 * `database()` gives its test database (to open it raw, say).
 */
export function sharedHarness(dialect: TestDialect, env: Record<string, string> = {}, wrap?: (store: Store) => Store): (() => HttpHarness) & { database: () => TestStore } {
  let db: TestStore | undefined;
  let harness: HttpHarness | undefined;
  before(async () => {
    db = await openTestStore(dialect);
    harness = await startHttp(wrap ? { ...db, store: wrap(db.store) } : db, env);
  });
  after(async () => {
    await harness?.close();
    if (db) await closeStore(db);
  });
  const get = () => {
    if (!harness) throw new Error('the harness is built in before()');
    return harness;
  };
  return Object.assign(get, {
    database: () => {
      if (!db) throw new Error('the harness is built in before()');
      return db;
    },
  });
}

/**
 * Closes a test store and deletes its database. pg-pool's end() resolves before its idle connections are
 * really closed, so dropping the database WITH (FORCE) right away can terminate a live connection (an
 * uncaught 'error' when the pool has no listener). The pool is ended first and given a moment to let go.
 */
async function closeStore(db: TestStore): Promise<void> {
  await db.store.close();
  if (db.store.dialect === 'postgres') await new Promise((resolve) => setTimeout(resolve, 100));
  await db.close();
}

/**
 * Sends until the answer has `status`, for at most `ms`: a change made elsewhere reaches this instance's read caches
 * at once on SQLite (from the next turn of the event loop) and within a notification's delay on PostgreSQL.
 */
export async function eventually(send: () => Promise<LightMyRequestResponse>, status: number, ms: number): Promise<LightMyRequestResponse> {
  // The next request comes in a later turn of the event loop, where SQLite's signal looks again.
  await new Promise((resolve) => setImmediate(resolve));
  const until = Date.now() + ms;
  for (;;) {
    const res = await send();
    if (res.statusCode === status || Date.now() > until) return res;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The path of one project. */
export function projectPath(projectId: string): string {
  return `${PROGRAM}/Projects/${projectId}`;
}

/** The draft-data path of the fixture form of a project. */
export function draftPath(projectId: string, form = 'application'): string {
  return `${projectPath(projectId)}/Forms/${form}/Draft/Data`;
}

/** The submitted-data path of the fixture form of a project. */
export function dataPath(projectId: string, form = 'application'): string {
  return `${projectPath(projectId)}/Forms/${form}/Data`;
}

/** The submit path of the fixture form of a project. */
export function submitPath(projectId: string, form = 'application'): string {
  return `${projectPath(projectId)}/Forms/${form}/Draft/Submit`;
}

/** Creates a project through CreateNewProject as `who` and returns its id; the clock moves on first. */
export async function createProject(h: HttpHarness, who: Who = 'applicant'): Promise<string> {
  h.clock.advance();
  const res = await h.request({ method: 'POST', url: `${PROGRAM}/NewProject`, as: who });
  assert.equal(res.statusCode, 200, res.body);
  const id = attr(res.body, 'Project', 'ProjectId');
  assert.ok(id, res.body);
  return id;
}

/** Writes draft values through SetProjectData (draft) as `who`; the clock moves on first. */
export async function setDraft(h: HttpHarness, projectId: string, values: Record<string, string | string[] | null>, who: Who = 'applicant'): Promise<void> {
  h.clock.advance();
  const res = await h.request({ method: 'POST', url: draftPath(projectId), as: who, body: dataRequest(values) });
  assert.equal(res.statusCode, 200, res.body);
}

/** Fills the draft completely (with `values` in place of COMPLETE's) and submits it as `who`; returns the submit response. */
export async function createSubmitted(h: HttpHarness, who: Who = 'applicant', values: Record<string, string> = {}): Promise<{ projectId: string; number: string }> {
  const projectId = await createProject(h, who);
  await setDraft(h, projectId, { ...COMPLETE, size: [...COMPLETE.size], ...values }, who);
  h.clock.advance();
  const res = await h.request({ method: 'POST', url: submitPath(projectId), as: who });
  assert.equal(res.statusCode, 200, res.body);
  const number = attr(res.body, 'Project', 'ProjectNumber');
  assert.ok(number, res.body);
  return { projectId, number };
}

/** The ids of the projects GetProjects lists for `who` (XSD-checked). */
export async function listedIds(h: HttpHarness, who: Who = 'admin', query = ''): Promise<string[]> {
  const res = await h.request({ method: 'GET', url: `${PROGRAM}/Projects${query}`, as: who });
  assert.equal(res.statusCode, 200, res.body);
  assertValidXml(h, res, 'ProjectsResponse');
  return attrs(res.body, 'Project', 'ProjectId');
}

/** Every project of the fixture program as stored, in creation order. */
export async function storedProjects(h: HttpHarness): Promise<Project[]> {
  return h.store.projects.listProjects({ programId: IDS.program, limit: 1000, offset: 0 });
}

/** Everything a refused write could have changed about one project, read straight from the store. */
export async function projectState(h: HttpHarness, projectId: string) {
  const sortValues = <T extends { fieldId: string }>(vs: T[]) => [...vs].sort((a, b) => a.fieldId.localeCompare(b.fieldId));
  return {
    project: await h.store.projects.getProject(IDS.program, projectId),
    draft: sortValues(await h.store.projects.getDraft(projectId, IDS.form)),
    values: sortValues(await h.store.projects.getValues(projectId, [IDS.name, IDS.size, IDS.kw])),
    history: await h.store.projects.getHistory(projectId),
    audit: await h.store.audit.list({ projectId }),
    events: await h.store.events.listProjectEvents(projectId),
  };
}

/** Everything of the whole program a refused write could have changed: its projects, the audit log and the outbox. */
export async function programState(h: HttpHarness) {
  return { projects: await storedProjects(h), audit: await h.store.audit.list({ limit: 1000 }), events: await h.store.events.listAfter(0, 100_000) };
}

/** The DataField element of a response for a field id, as text. */
export function dataField(xml: string, fieldId: string): string {
  const m = new RegExp(`<DataField [^>]*DataFieldId="${fieldId}"[^>]*?(/>|>.*?</DataField>)`, 's').exec(xml);
  assert.ok(m, `no DataField ${fieldId} in\n${xml}`);
  return m[0];
}

/** The Value elements inside a multi-value DataField of a response. */
export function fieldValues(xml: string, fieldId: string): string[] | null {
  const field = dataField(xml, fieldId);
  if (!field.includes('<Values>')) return null;
  return [...field.matchAll(/<Value>([^<]*)<\/Value>/g)].map((m) => m[1]!);
}

/** The Value attribute of a single-value DataField of a response. */
export function fieldValue(xml: string, fieldId: string): string | undefined {
  return attr(dataField(xml, fieldId), 'DataField', 'Value');
}

/** The (Code, DataFieldId) pairs of the FieldError elements of an error answer, sorted. */
export function fieldErrors(res: LightMyRequestResponse): string[] {
  const errors = [...res.body.matchAll(/<FieldError\b[^>]*\/>/g)].map((m) => `${attr(m[0], 'FieldError', 'DataFieldId')}:${attr(m[0], 'FieldError', 'Code')}`);
  return errors.sort();
}

/** A ProjectByNumberRequest body. */
export function byNumberRequest(numbers: string[], ns = NS): string {
  return `<ProjectByNumberRequest xmlns="${ns}">${numbers.map((n) => `<Project ProjectNumber="${n}"/>`).join('')}</ProjectByNumberRequest>`;
}

/** A SetProjectOwnerRequest body. */
export function ownerRequest(email: string): string {
  return `<SetProjectOwnerRequest xmlns="${NS}"><OwnerEmail>${email}</OwnerEmail></SetProjectOwnerRequest>`;
}

/** Who sends a request in a role matrix: an identity, nobody (no credentials), or the admin with a wrong API key. */
export type Sender = Who | 'anonymous' | 'badKey';

/** One row of a role matrix: who asks, and the status (and error code) they get. */
export interface MatrixRow { who: Sender; status: number; code?: string }

/** The two rows every matrix ends with: no credentials at all, and a well-formed key with the wrong secret. */
export const UNAUTHENTICATED: readonly MatrixRow[] = [
  { who: 'anonymous', status: 401, code: 'AUTHENTICATION_REQUIRED' },
  { who: 'badKey', status: 401, code: 'INVALID_CREDENTIALS' },
];

/** The matrix of an admin-only operation: admins of the program may, every other identity gets 403. */
export const ADMIN_ONLY: readonly MatrixRow[] = [
  { who: 'admin', status: 200 },
  { who: 'programAdmin', status: 200 },
  { who: 'editor', status: 403, code: 'FORBIDDEN' },
  { who: 'reader', status: 403, code: 'FORBIDDEN' },
  { who: 'applicant', status: 403, code: 'FORBIDDEN' },
  { who: 'otherApplicant', status: 403, code: 'FORBIDDEN' },
  { who: 'outsider', status: 403, code: 'FORBIDDEN' },
  ...UNAUTHENTICATED,
];

/** A matrix row as a test title: `who → status CODE`. */
export function rowLabel(row: MatrixRow): string {
  return `${row.who} → ${row.status}${row.code ? ` ${row.code}` : ''}`;
}

/** Sends a request as a matrix sender. */
export function send(h: HttpHarness, who: Sender, opts: { method: string; url: string; body?: string; headers?: Record<string, string> }): Promise<LightMyRequestResponse> {
  if (who === 'anonymous') return h.request({ ...opts, as: null });
  if (who === 'badKey') {
    const wrong = h.who.admin.apiKey.replace(/_[^_]+$/, `_${'z'.repeat(32)}`);
    return h.request({ ...opts, as: 'admin', headers: { ...opts.headers, 'x-apikey': wrong } });
  }
  return h.request({ ...opts, as: who });
}

/** Checks a matrix row's expectation: the success status with a valid body, or the error. */
export function assertRow(h: HttpHarness, res: LightMyRequestResponse, row: MatrixRow, schema?: string): void {
  if (row.code) {
    assertError(h, res, row.status, row.code);
    return;
  }
  assert.equal(res.statusCode, row.status, `${row.who}: ${res.body}`);
  assertValidXml(h, res, schema);
}

/** What a slow harness runs inside a write transaction after its work, just before it commits. */
export type SlowStep = (tx: StoreWriter) => Promise<void>;

/**
 * A harness whose store runs `setSlow`'s step (while one is set) at the end of every write transaction, and
 * `setBefore`'s step once, before the next transaction begins (to race a request between its reads and its writes).
 */
export interface SlowHarness { h: HttpHarness; db: TestStore; setSlow(step: SlowStep | null): void; setBefore(step: () => Promise<void>): void }

/**
 * Builds a harness (closed with the test by forEachDialect's `open`, apart from `h.close()`) on a store that shares
 * the harness's test clock, so a step that advances the clock makes the transaction take that long.
 */
export async function slowHarness(open: (options?: TestStoreOptions) => Promise<TestStore>, env: Record<string, string> = {}): Promise<SlowHarness> {
  const clock = new TestClock();
  const db = await open({ clock });
  let slow: SlowStep | null = null;
  let before: (() => Promise<void>) | null = null;
  const inner = db.store;
  const store: Store = {
    ...inner,
    transaction: async (work, options) => {
      const step = before;
      before = null;
      if (step) await step();
      return inner.transaction(async (tx) => {
        const result = await work(tx);
        if (slow) await slow(tx);
        return result;
      }, options);
    },
  };
  const h = await startHttp({ ...db, store }, env, clock);
  return { h, db, setSlow: (step) => { slow = step; }, setBefore: (step) => { before = step; } };
}
