import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CreateBucketCommand, DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { sql } from 'kysely';
import { runCli } from '../../src/cli/main.ts';
import { loadConfig } from '../../src/config.ts';
import { buildApp } from '../../src/http/app.ts';
import { createBlobStore } from '../../src/store/create-blob-store.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createKyselyStore } from '../../src/store/kysely-store.ts';
import { createSecretBox, newSecretKeyLine, parseSecretKeys } from '../../src/store/secret-box.ts';
import { DIALECTS, emptyTestDatabase, onDatabase, openTestStore, type TestStore } from '../support/databases.ts';
import { authHeaders, type HttpHarness, requester, startHttp } from '../support/http-harness.ts';
import { type S3Server, startS3Server } from '../support/s3-server.ts';
import { TINY_PDF } from '../support/tiny-pdf.ts';
import { createProject, projectPath } from '../http/http-helpers.ts';

// `apas move --blobs s3`: an installation on SQLite with its files in a directory moves into the test run's
// PostgreSQL with its files in a bucket (a real s3rver). A prefix that already holds files is refused before anything
// is written; the moved installation passes --check and serves the same bytes from the bucket.

const KEY = newSecretKeyLine();
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const to = DIALECTS.includes('postgres') ? 'postgres' : 'sqlite';

async function apas(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { out: (t) => (stdout += `${t}\n`), err: (t) => (stderr += `${t}\n`), readStdin: async () => '', stdinIsTty: false, env, cwd: os.tmpdir() });
  return { code, stdout, stderr };
}

/** How many tables a database holds (0: nothing was migrated into it). */
function tableCount(config: TestStore['config']): Promise<number> {
  return onDatabase(config, async (db) => {
    const count = config.kind === 'sqlite'
      ? sql<{ n: number | string }>`select count(*) as n from sqlite_master where type = 'table'`
      : sql<{ n: number | string }>`select count(*) as n from information_schema.tables where table_schema = current_schema()`;
    return Number((await count.execute(db)).rows[0]!.n);
  });
}

describe(`apas move sqlite (local files) → ${to} (files in S3)`, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-move-s3-'));
  let s3: S3Server;
  let source: TestStore;
  let h: HttpHarness;
  let target: Awaited<ReturnType<typeof emptyTestDatabase>>;
  let sourceEnv: Record<string, string>;
  let projectId = '';
  const files: Buffer[] = [];
  const moveArgs = () => ['move', '--to', target.url, '--blobs', 's3'];

  before(async () => {
    s3 = await startS3Server('apas-move', 'moved');
    const blobEnv = { APAS_BLOB_STORE: 'local', APAS_BLOB_DIR: path.join(dir, 'source-blobs') };
    source = await openTestStore('sqlite', { secrets: createSecretBox(parseSecretKeys(KEY, 'the test key')) });
    h = await startHttp(source, blobEnv);
    projectId = await createProject(h);
    for (const version of [1, 2]) {
      h.clock.advance();
      const res = await h.app.inject({
        method: 'POST', url: `${projectPath(projectId)}/Forms/application/Attachments/photo`, payload: Buffer.concat([TINY_PDF, Buffer.from(`v${version}`)]),
        headers: { ...authHeaders(h.who.applicant), 'content-type': 'image/png', 'content-disposition': 'attachment; filename="plan.png"' },
      });
      assert.equal(res.statusCode, 200, res.body);
      const file = await h.request({ method: 'GET', url: `${projectPath(projectId)}/Attachments/photo/Versions/${version}` });
      assert.equal(file.statusCode, 200, file.body);
      files.push(file.rawPayload);
    }
    await h.close();
    // The bucket's settings are the environment's; the source keeps its files in its directory.
    sourceEnv = { ...s3.env, DATABASE_URL: source.config.kind === 'sqlite' ? source.config.file : '', APAS_SECRET_KEYS: KEY, APAS_LOG_LEVEL: 'warn', ...blobEnv };
    target = await emptyTestDatabase(to);
  });
  after(async () => {
    await target?.remove();
    await source?.close();
    await s3?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a prefix that holds files, writing nothing into the database or the bucket', async () => {
    const taken = `moved/${'a'.repeat(32)}`;
    await s3.client.send(new PutObjectCommand({ Bucket: 'apas-move', Key: taken, Body: 'another installation\'s file' }));
    // Another prefix of the same bucket is another installation's business: it does not make this one non-empty.
    await s3.client.send(new PutObjectCommand({ Bucket: 'apas-move', Key: `other/${'b'.repeat(32)}`, Body: 'elsewhere' }));
    const keys = await s3.keys();
    const res = await apas(moveArgs(), sourceEnv);
    assert.equal(res.code, 3, res.stderr);
    assert.match(res.stderr, /the target is not empty: the bucket apas-move holds files under the prefix "moved\/"/);
    assert.equal(await tableCount(target.config), 0, 'the target database was written');
    assert.deepEqual(await s3.keys(), keys);
    await s3.client.send(new DeleteObjectCommand({ Bucket: 'apas-move', Key: taken }));
  });

  it('moves the files into the bucket, --check finds no difference, and the moved installation serves the same bytes', async () => {
    const moved = await apas(moveArgs(), sourceEnv);
    assert.equal(moved.code, 0, moved.stderr);
    assert.match(moved.stdout, /Moved \d+ rows and 2 files/);
    const checked = await apas([...moveArgs(), '--check'], sourceEnv);
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
    assert.match(checked.stdout, /the same 2 files/);
    const config = loadConfig({ ...sourceEnv, ...s3.env, DATABASE_URL: target.url, APAS_PUBLIC_URL: 'http://apas.test' });
    const store = createKyselyStore(await openDatabase(config.database), { secrets: createSecretBox(parseSecretKeys(KEY, 'the test key')), clock: h.clock });
    const app = await buildApp({ config, store, clock: h.clock, logger: false, sleep: async () => {}, blobs: createBlobStore(config, store, h.clock) });
    try {
      // The attachment rows name the objects under the prefix, and nothing else of the installation is there.
      const rows = await onDatabase(config.database, async (db) => (await sql<{ blob_key: string }>`select blob_key from attachments order by blob_key`.execute(db)).rows);
      const stored = (await s3.keys()).filter((k) => k.startsWith('moved/')).map((k) => k.slice('moved/'.length));
      assert.deepEqual(stored, rows.map((r) => r.blob_key));
      const request = requester(app, h.who);
      for (const [i, bytes] of files.entries()) {
        const file = await request({ method: 'GET', url: `${projectPath(projectId)}/Attachments/photo/Versions/${i + 1}` });
        assert.equal(file.statusCode, 200, file.body);
        assert.equal(sha256(file.rawPayload), sha256(bytes));
      }
    } finally {
      await app.close();
      await store.close();
    }
  });

  it('--check reports a file changed in the bucket (exit 6)', async () => {
    const key = (await s3.keys()).find((k) => k.startsWith('moved/'))!;
    await s3.client.send(new PutObjectCommand({ Bucket: 'apas-move', Key: key, Body: 'tampered' }));
    const checked = await apas([...moveArgs(), '--check'], sourceEnv);
    assert.equal(checked.code, 6, checked.stdout);
    assert.match(checked.stdout, /the target's file [0-9a-f]{32} differs from the source's/);
  });
});

describe(`apas move sqlite (files in S3) → ${to} (files in another bucket, or another prefix)`, () => {
  let s3: S3Server;
  let source: TestStore;
  let sourceEnv: Record<string, string>;
  const targets: Awaited<ReturnType<typeof emptyTestDatabase>>[] = [];

  before(async () => {
    s3 = await startS3Server('apas-source', 'live');
    await s3.client.send(new CreateBucketCommand({ Bucket: 'apas-target' }));
    source = await openTestStore('sqlite', { secrets: createSecretBox(parseSecretKeys(KEY, 'the test key')) });
    const h = await startHttp(source, s3.env);
    const projectId = await createProject(h);
    for (const version of [1, 2]) {
      h.clock.advance();
      const res = await h.app.inject({
        method: 'POST', url: `${projectPath(projectId)}/Forms/application/Attachments/photo`, payload: Buffer.concat([TINY_PDF, Buffer.from(`s3 v${version}`)]),
        headers: { ...authHeaders(h.who.applicant), 'content-type': 'image/png', 'content-disposition': 'attachment; filename="plan.png"' },
      });
      assert.equal(res.statusCode, 200, res.body);
    }
    await h.close();
    sourceEnv = { ...s3.env, DATABASE_URL: source.config.kind === 'sqlite' ? source.config.file : '', APAS_SECRET_KEYS: KEY, APAS_LOG_LEVEL: 'warn' };
  });
  after(async () => {
    for (const target of targets) await target.remove();
    await source?.close();
    await s3?.stop();
  });

  /** The object keys of `bucket` (under any prefix), sorted. */
  async function keysOf(bucket: string): Promise<string[]> {
    const page = await s3.client.send(new ListObjectsV2Command({ Bucket: bucket }));
    return (page.Contents ?? []).map((o) => o.Key ?? '').sort();
  }

  for (const [what, options, bucket, prefix] of [
    ['another bucket', ['--s3-bucket', 'apas-target', '--s3-prefix', 'moved'], 'apas-target', 'moved/'],
    ['another prefix of the same bucket', ['--s3-prefix', 'next'], 'apas-source', 'next/'],
  ] as const) {
    it(`copies the files to ${what}, leaves the source's objects alone, and --check finds no difference`, async () => {
      const target = await emptyTestDatabase(to);
      targets.push(target);
      const sourceKeys = (await keysOf('apas-source')).filter((k) => k.startsWith('live/'));
      assert.equal(sourceKeys.length, 2);
      const args = ['move', '--to', target.url, ...options];
      const moved = await apas(args, sourceEnv);
      assert.equal(moved.code, 0, moved.stderr);
      assert.match(moved.stdout, /Moved \d+ rows and 2 files/);
      const checked = await apas([...args, '--check'], sourceEnv);
      assert.equal(checked.code, 0, checked.stdout + checked.stderr);
      assert.match(checked.stdout, /the same 2 files/);
      assert.deepEqual((await keysOf('apas-source')).filter((k) => k.startsWith('live/')), sourceKeys, 'the source\'s objects are as they were');
      const rows = await onDatabase(target.config, async (db) => (await sql<{ blob_key: string }>`select blob_key from attachments order by blob_key`.execute(db)).rows);
      const copied = (await keysOf(bucket)).filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
      assert.deepEqual(copied, rows.map((r) => r.blob_key));
    });
  }

  it('refuses --s3-prefix for a target that keeps its files elsewhere, writing nothing', async () => {
    const target = await emptyTestDatabase(to);
    targets.push(target);
    const res = await apas(['move', '--to', target.url, '--blobs', 'database', '--s3-prefix', 'x'], sourceEnv);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /--s3-bucket and --s3-prefix name the target's bucket: use them with --blobs s3/);
    assert.equal(await tableCount(target.config), 0);
  });
});
