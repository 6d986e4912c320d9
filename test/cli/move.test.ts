import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { runCli } from '../../src/cli/main.ts';
import { loadConfig } from '../../src/config.ts';
import { buildApp } from '../../src/http/app.ts';
import { createBlobStore } from '../../src/store/create-blob-store.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createKyselyStore } from '../../src/store/kysely-store.ts';
import { moveInstallation } from '../../src/store/move-installation.ts';
import { createSecretBox, newSecretKeyLine, parseSecretKeys } from '../../src/store/secret-box.ts';
import type { Store } from '../../src/store/store.ts';
import { DIALECTS, emptyTestDatabase, onDatabase, openTestStore, type TestDialect, type TestStore } from '../support/databases.ts';
import { IDS, seedProgram } from '../support/fixtures.ts';
import { attr, attrs, authHeaders, type HttpHarness, requester, startHttp } from '../support/http-harness.ts';
import { TINY_PDF } from '../support/tiny-pdf.ts';
import { API, COMPLETE, createProject, createSubmitted, projectPath, setDraft } from '../http/http-helpers.ts';

// `apas move` between the databases and blob stores: an installation built through the API (projects, a sealed
// value, files in two versions, history, events, an idempotency key, a deadline, a schedule mark, a session) is moved
// with an interruption in the middle, then served from the target by the app: the same answers, the same bytes, the
// feed continuing from a cursor, new projects and events numbered after the old ones. The source is never changed.

const KEY = newSecretKeyLine();
const secrets = () => createSecretBox(parseSecretKeys(KEY, 'the test key'));
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface Result { code: number; stdout: string; stderr: string }

/** Runs the CLI in this process with `env` as its whole environment. */
async function apas(args: string[], env: Record<string, string>): Promise<Result> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { out: (t) => (stdout += `${t}\n`), err: (t) => (stderr += `${t}\n`), readStdin: async () => '', stdinIsTty: false, env, cwd: os.tmpdir() });
  return { code, stdout, stderr };
}

function urlOf(db: TestStore['config']): string {
  return db.kind === 'sqlite' ? db.file : db.url;
}

/** What the source answers, to compare the target's answers with. */
interface Seen { projects: string[]; data: string; file: Buffer; feedAfter: string; cursor: number; head: number; number: string; sourceBytes: () => string }

/** The installation: two projects (one submitted) with a sealed value, a file in two versions (one under an Idempotency-Key), a deadline, a schedule mark and a session. */
async function build(h: HttpHarness, store: Store): Promise<{ projects: string[]; number: string }> {
  const submitted = await createSubmitted(h);
  const draft = await createProject(h);
  await setDraft(h, draft, { name: 'Second Applicant', kw: '3' });
  for (const [version, key] of [[1, 'upload-key-1'], [2, undefined]] as const) {
    h.clock.advance();
    const res = await h.app.inject({
      method: 'POST', url: `${projectPath(draft)}/Forms/application/Attachments/photo`, payload: Buffer.concat([TINY_PDF, Buffer.from(`v${version}`)]),
      headers: { ...authHeaders(h.who.applicant), 'content-type': 'image/png', 'content-disposition': 'attachment; filename="plan.png"', ...(key ? { 'idempotency-key': key } : {}) },
    });
    assert.equal(res.statusCode, 200, res.body);
  }
  await store.transaction(async (tx) => {
    await tx.deadlines.startProjectDeadline({ id: 'DEADLINE0001', projectId: submitted.projectId, programId: IDS.program, deadlineId: 'review', startedAt: h.clock.now(), dueDate: '2026-02-01', dueAt: h.clock.now() + 86_400_000, startedBy: null });
    await tx.schedules.markScheduled(IDS.program, 'nightly', submitted.projectId, '2026-01-01');
  });
  await store.sessions.insertBrowserSession({ id: 'SESSION00001', userId: IDS.admin, secretHash: 'x'.repeat(64), createdAt: h.clock.now(), lastSeenAt: h.clock.now(), expiresAt: h.clock.now() + 3_600_000, mfaPending: false });
  return { projects: [submitted.projectId, draft], number: submitted.number };
}

/** The first project's submitted data, the second one's file, and the feed after `cursor`. */
async function observe(request: HttpHarness['request'], projects: string[], cursor: number): Promise<Pick<Seen, 'data' | 'file' | 'feedAfter'>> {
  const data = await request({ method: 'GET', url: `${projectPath(projects[0]!)}/Forms/application/Data` });
  assert.equal(data.statusCode, 200, data.body);
  const file = await request({ method: 'GET', url: `${projectPath(projects[1]!)}/Attachments/photo` });
  assert.equal(file.statusCode, 200, file.body);
  const feed = await request({ method: 'GET', url: `${API}/Events?after=${cursor}&limit=100` });
  assert.equal(feed.statusCode, 200, feed.body);
  return { data: data.body, file: file.rawPayload, feedAfter: feed.body };
}

// The bytes of a SQLite source (file and WAL), or on PostgreSQL every row of it in a stable spelling.
async function sourceFingerprint(config: TestStore['config']): Promise<string> {
  if (config.kind === 'sqlite') return [config.file, `${config.file}-wal`].map((f) => (fs.existsSync(f) ? sha256(fs.readFileSync(f)) : '-')).join(' ');
  const opened = await openDatabase(config, { migrate: false });
  try {
    const tables = (await sql<{ t: string }>`select table_name as t from information_schema.tables where table_schema = current_schema() order by 1`.execute(opened.db)).rows;
    const parts: string[] = [];
    for (const { t } of tables) parts.push(`${t}:${JSON.stringify((await sql`select * from ${sql.table(t)} order by 1`.execute(opened.db)).rows)}`);
    return sha256(Buffer.from(parts.join('\n')));
  } finally {
    await opened.changes.close();
    await opened.db.destroy();
  }
}

// The tables of a database whose names are like `pattern`.
async function tablesLike(config: TestStore['config'], pattern: string): Promise<string[]> {
  const opened = await openDatabase(config, { migrate: false });
  try {
    const query = config.kind === 'sqlite'
      ? sql<{ t: string }>`select name as t from sqlite_master where type = 'table' and name like ${pattern}`
      : sql<{ t: string }>`select table_name as t from information_schema.tables where table_schema = current_schema() and table_name like ${pattern}`;
    return (await query.execute(opened.db)).rows.map((r) => r.t);
  } finally {
    await opened.changes.close();
    await opened.db.destroy();
  }
}

const DIRECTIONS: [TestDialect, TestDialect][] = DIALECTS.includes('postgres') ? [['sqlite', 'postgres'], ['postgres', 'sqlite']] : [['sqlite', 'sqlite']];

for (const [from, to] of DIRECTIONS) {
  // SQLite sources keep files in a directory and move them into the database; PostgreSQL sources the other way round.
  const fromBlobs = from === 'sqlite' ? 'local' : 'database';
  const toBlobs = fromBlobs === 'local' ? 'database' : 'local';
  describe(`apas move ${from} (${fromBlobs} files) → ${to} (${toBlobs} files)`, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-move-'));
    let source: TestStore;
    let h: HttpHarness;
    let target: Awaited<ReturnType<typeof emptyTestDatabase>>;
    let sourceEnv: Record<string, string>;
    let seen: Seen;
    let before0 = '';
    const moveArgs = () => ['move', '--to', target.url, '--blobs', toBlobs, ...(toBlobs === 'local' ? ['--blob-dir', path.join(dir, 'target-blobs')] : [])];

    before(async () => {
      source = await openTestStore(from, { secrets: secrets() });
      const blobEnv: Record<string, string> = fromBlobs === 'local' ? { APAS_BLOB_STORE: 'local', APAS_BLOB_DIR: path.join(dir, 'source-blobs') } : { APAS_BLOB_STORE: 'database' };
      h = await startHttp(source, blobEnv);
      const built = await build(h, source.store);
      const head = await source.store.events.lastSequence();
      const cursor = head - 3;
      seen = { ...built, ...(await observe(h.request, built.projects, cursor)), cursor, head, sourceBytes: () => '' };
      assert.match(seen.feedAfter, /Sequence=/);
      await h.close();
      sourceEnv = { DATABASE_URL: urlOf(source.config), APAS_SECRET_KEYS: KEY, APAS_LOG_LEVEL: 'warn', ...blobEnv };
      target = await emptyTestDatabase(to);
      before0 = await sourceFingerprint(source.config);
    });
    after(async () => {
      await target?.remove();
      await source?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('refuses a target that holds an installation, and writes nothing into it', async () => {
      const other = await openTestStore(to, { secrets: secrets() });
      try {
        await seedProgram(other.store);
        const res = await apas(['move', '--to', urlOf(other.config), '--blobs', 'database'], sourceEnv);
        assert.equal(res.code, 3, res.stderr);
        assert.match(res.stderr, /the target is not empty/);
        assert.deepEqual(await tablesLike(other.config, 'apas_move%'), []);
      } finally {
        await other.close();
      }
    });

    it('refuses a target whose key does not open the sealed values', async () => {
      const res = await apas(moveArgs(), { ...sourceEnv, APAS_SECRET_KEYS: newSecretKeyLine() });
      assert.equal(res.code, 5, res.stderr);
      assert.match(res.stderr, /sealed secrets/);
    });

    it('copies the files first, then the tables with an interruption, continues, and --check then finds no difference', async () => {
      const sourceConfig = loadConfig(sourceEnv);
      const targetConfig = loadConfig({ ...sourceEnv, DATABASE_URL: target.url, APAS_BLOB_STORE: toBlobs, APAS_BLOB_DIR: path.join(dir, 'target-blobs') });
      // First the files alone, as while the source still serves; the tables stay empty.
      const files = await apas([...moveArgs(), '--files-only'], sourceEnv);
      assert.equal(files.code, 0, files.stderr);
      assert.match(files.stdout, /Copied 2 files; stop the server/);
      const tablesLater = await apas(['move', '--check', ...moveArgs().slice(1)], sourceEnv);
      assert.equal(tablesLater.code, 6, tablesLater.stdout);
      assert.match(tablesLater.stdout, /table projects: 2 rows in the source, 0 in the target/);
      assert.doesNotMatch(tablesLater.stdout, /file/);
      // Then stopped in the middle of the events, two rows at a time: the tables before it are done, events half copied.
      await assert.rejects(moveInstallation({
        source: sourceConfig, target: targetConfig, batchRows: 2,
        afterBatch: (table, copied) => {
          if (table === 'events' && copied >= 2) throw new Error('interrupted');
        },
      }), /interrupted/);
      const unfinished = await apas(['move', '--check', '--to', target.url, '--blobs', toBlobs, '--blob-dir', path.join(dir, 'target-blobs')], sourceEnv);
      assert.equal(unfinished.code, 6, unfinished.stdout);
      assert.match(unfinished.stdout, /unfinished/);
      assert.match(unfinished.stdout, /table events: \d+ rows in the source, 2 in the target/);
      // The unfinished target belongs to this source: a move from another installation is refused.
      const stranger = await emptyTestDatabase('sqlite');
      try {
        assert.equal((await apas(['migrate'], { DATABASE_URL: stranger.url })).code, 0);
        const refused = await apas(moveArgs(), { ...sourceEnv, DATABASE_URL: stranger.url, APAS_BLOB_STORE: 'local', APAS_BLOB_DIR: path.join(dir, 'stranger-blobs') });
        assert.equal(refused.code, 3, refused.stderr);
        assert.match(refused.stderr, /holds an unfinished move from /);
      } finally {
        await stranger.remove();
      }
      const moved = await apas(moveArgs(), sourceEnv);
      assert.equal(moved.code, 0, moved.stderr);
      assert.match(moved.stderr, /Continuing the unfinished move/);
      const checked = await apas(['move', '--check', ...moveArgs().slice(1)], sourceEnv);
      assert.equal(checked.code, 0, checked.stdout + checked.stderr);
      assert.match(checked.stdout, /the same \d+ rows in \d+ tables and the same 2 files/);
      // A finished target is an installation like any other: a second move into it is refused.
      assert.equal((await apas(moveArgs(), sourceEnv)).code, 3);
      assert.equal(await sourceFingerprint(source.config), before0, 'the source changed');
    });

    it('--check reports a changed row and a changed file with exit 6, and nothing once they are put back', async () => {
      const config = loadConfig({ DATABASE_URL: target.url }).database;
      const blobDir = path.join(dir, 'target-blobs');
      const fileOf = (key: string) => path.join(blobDir, key.slice(0, 2), key.slice(2, 4), key);
      const key = await onDatabase(config, async (db) => (await sql<{ blob_key: string }>`select blob_key from attachments order by version limit 1`.execute(db)).rows[0]!.blob_key);
      const kept = await onDatabase(config, async (db) => (toBlobs === 'database'
        ? (await sql<{ data: Buffer }>`select data from blob_chunks where blob_key = ${key} and seq = 0`.execute(db)).rows[0]!.data
        : fs.readFileSync(fileOf(key))));
      const putFile = (data: Buffer) => onDatabase(config, async (db) => {
        if (toBlobs === 'database') await sql`update blob_chunks set data = ${data} where blob_key = ${key} and seq = 0`.execute(db);
        else fs.writeFileSync(fileOf(key), data);
      });
      await onDatabase(config, (db) => sql`update status_history set changed_at = changed_at + 1`.execute(db));
      await putFile(Buffer.from('tampered'));
      const checked = await apas(['move', '--check', ...moveArgs().slice(1)], sourceEnv);
      assert.equal(checked.code, 6, checked.stdout);
      assert.match(checked.stdout, /table status_history: the same \d+ rows in number, but their contents differ/);
      assert.match(checked.stdout, /the target's file [0-9a-f]{32} differs from the source's/);
      assert.equal(checked.stdout.trim().split('\n').length, 2, checked.stdout);
      await onDatabase(config, (db) => sql`update status_history set changed_at = changed_at - 1`.execute(db));
      await putFile(kept);
      const again = await apas(['move', '--check', ...moveArgs().slice(1)], sourceEnv);
      assert.equal(again.code, 0, again.stdout);
    });

    it('serves the moved installation: the same answers, files, feed, marks and session; new numbers after the old', async () => {
      const config = loadConfig({ ...sourceEnv, DATABASE_URL: target.url, APAS_BLOB_STORE: toBlobs, APAS_BLOB_DIR: path.join(dir, 'target-blobs'), APAS_PUBLIC_URL: 'http://apas.test', APAS_SIGNIN_LOCK_USER_AFTER: '1000000', APAS_SIGNIN_LOCK_ADDRESS_AFTER: '1000000', APAS_SIGNIN_ACCOUNT_SLOW_AFTER: '1000000' });
      const store = createKyselyStore(await openDatabase(config.database), { secrets: secrets(), clock: h.clock });
      const app = await buildApp({ config, store, clock: h.clock, logger: false, sleep: async () => {}, blobs: createBlobStore(config, store, h.clock) });
      try {
        const request = requester(app, h.who);
        const now = await observe(request, seen.projects, seen.cursor);
        assert.equal(now.data, seen.data);
        // The sensitive value stays sealed in the rows and opens with the source's key.
        const name = (await store.projects.getValues(seen.projects[0]!, [IDS.name]))[0];
        assert.equal(name?.value, 'Jane Doe');
        const raw = await onDatabase(config.database, async (db) => (await sql<{ value: string }>`select value from project_values where field_id = ${IDS.name}`.execute(db)).rows);
        assert.ok(raw.length > 0 && raw.every((r) => r.value.startsWith('sealed:v1:')), JSON.stringify(raw));
        assert.equal(sha256(now.file), sha256(seen.file));
        assert.equal(now.feedAfter, seen.feedAfter);
        assert.equal((await store.deadlines.listProjectDeadlines(seen.projects[0]!))[0]?.dueDate, '2026-02-01');
        assert.equal(await store.schedules.scheduleMark(IDS.program, 'nightly', seen.projects[0]!), '2026-01-01');
        assert.equal((await store.sessions.getBrowserSession('SESSION00001'))?.userId, IDS.admin);
        // The same Idempotency-Key answers from the stored answer, without a third version.
        const replay = await app.inject({
          method: 'POST', url: `${projectPath(seen.projects[1]!)}/Forms/application/Attachments/photo`, payload: Buffer.concat([TINY_PDF, Buffer.from('v1')]),
          headers: { ...authHeaders(h.who.applicant), 'content-type': 'image/png', 'content-disposition': 'attachment; filename="plan.png"', 'idempotency-key': 'upload-key-1' },
        });
        assert.equal(replay.statusCode, 200, replay.body);
        const versions = await request({ method: 'GET', url: `${projectPath(seen.projects[1]!)}/Attachments/photo/Versions/3` });
        assert.equal(versions.statusCode, 404, versions.body);
        // A new project: a new id, the next number, and its events after the source's last.
        h.clock.advance();
        const created = await request({ method: 'POST', url: `${API}/Programs/solar/NewProject`, as: 'applicant' });
        assert.equal(created.statusCode, 200, created.body);
        assert.ok(!seen.projects.includes(attr(created.body, 'Project', 'ProjectId')!));
        const feed = await request({ method: 'GET', url: `${API}/Events?after=${seen.head}&limit=100` });
        const sequences = attrs(feed.body, 'Event', 'Sequence').map(Number);
        assert.ok(sequences.length > 0 && sequences.every((s) => s > seen.head), feed.body);
        await setDraft({ ...h, app, store, request }, attr(created.body, 'Project', 'ProjectId')!, { ...COMPLETE, size: [...COMPLETE.size] });
      } finally {
        await app.close();
        await store.close();
      }
    });

    // Last, since it writes to the source as a server still running on it would.
    it('refuses to finish a move during which the source was written', async () => {
      const other = await emptyTestDatabase(to);
      try {
        const targetConfig = loadConfig({ ...sourceEnv, DATABASE_URL: other.url, APAS_BLOB_STORE: toBlobs, APAS_BLOB_DIR: path.join(dir, 'other-blobs') });
        await assert.rejects(moveInstallation({
          source: loadConfig(sourceEnv), target: targetConfig,
          afterBatch: async (table) => {
            if (table !== 'browser_sessions') return;
            await source.store.sessions.insertBrowserSession({ id: 'SESSION00002', userId: IDS.admin, secretHash: 'y'.repeat(64), createdAt: h.clock.now(), lastSeenAt: h.clock.now(), expiresAt: h.clock.now() + 3_600_000, mfaPending: false });
          },
        }), /the source changed while it was moved \(browser_sessions has 2 rows now, 1 were copied\)/);
        assert.deepEqual(await tablesLike(other.config, 'apas_move_state'), ['apas_move_state'], 'the move stays unfinished');
      } finally {
        await other.remove();
      }
    });
  });
}
