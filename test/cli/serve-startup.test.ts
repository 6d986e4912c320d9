import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SqliteBinding as BetterSqlite3 } from '../../src/store/sqlite-binding.ts';
import { DIALECTS, emptyTestDatabase, openTestStore } from '../support/databases.ts';
import { seedSealedValues } from '../support/sealed-fixtures.ts';
import { createSecretBox, newSecretKeyLine, parseSecretKeys } from '../../src/store/secret-box.ts';
import { readSigningCertificate } from '../../src/domain/documents/pdf-sealer.ts';
import { makeSelfSignedP12 } from '../../src/domain/documents/self-signed-p12.ts';
import { runApasInProcess } from '../support/run-apas.ts';

// `apas serve` and `apas migrate` as an operator meets them when something is wrong: a database that accepts
// connections but never answers, a port in use, a blob directory or database that cannot be written, a database a
// newer version upgraded. Each ends with one JSON line (serve) or one plain line (the CLI) naming the setting and the
// place, and a non-zero exit; never a stack trace, never a hang, never a server that then fails every upload.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'apas.js');

// Serve on PostgreSQL needs the keys of the secrets at rest; on SQLite they would otherwise come from a file beside the database.
const SECRET_KEYS = newSecretKeyLine();

interface Run { code: number | null; out: string; err: string; ms: number; timedOut: boolean }

/** Runs `apas ARGS`; stops it with SIGTERM once its output matches `until` (if given), SIGKILL after `limitMs`. */
function apas(args: string[], env: Record<string, string>, limitMs: number, until?: RegExp): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT, env: { ...process.env, APAS_HOST: '127.0.0.1', APAS_PORT: '0', APAS_LOG_LEVEL: 'info', APAS_SECRET_KEYS: SECRET_KEYS, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let timedOut = false;
    const check = () => {
      if (until?.test(out)) child.kill('SIGTERM');
    };
    child.stdout.on('data', (d) => {
      out += d;
      check();
    });
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, limitMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err, ms: Date.now() - started, timedOut });
    });
  });
}

/**
 * Runs `apas ARGS` in this process (runApasInProcess: the CLI's own code, the same exit code and output) with the
 * environment `apas` gives its processes: for the commands that end by themselves, whose output and exit code are what
 * these tests read. `serve` (its JSON log, its exit, a hang) always runs as a process of its own through `apas`, and so
 * does one refused `apas migrate` (its one line on the real stderr).
 */
async function apasHere(args: string[], env: Record<string, string>): Promise<Run> {
  const started = Date.now();
  const { code, stdout, stderr } = await runApasInProcess(args, { env: { APAS_HOST: '127.0.0.1', APAS_PORT: '0', APAS_LOG_LEVEL: 'info', APAS_SECRET_KEYS: SECRET_KEYS, ...env } });
  return { code, out: stdout, err: stderr, ms: Date.now() - started, timedOut: false };
}

/** Every line of a serve's standard output, each of which must be JSON. */
function logLines(run: Run): Record<string, unknown>[] {
  return run.out.split('\n').filter((l) => l.trim() !== '').map((line) => {
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch {
      return assert.fail(`a log line that is not JSON: ${line}\n--- stderr:\n${run.err}`);
    }
  });
}

/** Asserts a failed start: exit 1 in time, no stack, and one fatal JSON line naming `setting` and `where`. */
function assertFailedStart(run: Run, setting: string, where: string | RegExp, message: RegExp): Record<string, unknown> {
  assert.equal(run.timedOut, false, `serve did not exit:\n${run.out}\n${run.err}`);
  assert.equal(run.code, 1, `${run.out}\n${run.err}`);
  assert.doesNotMatch(run.out + run.err, /\n\s+at .+:\d+:\d+/, 'no stack trace');
  const fatal = logLines(run).filter((l) => l.level === 60);
  assert.equal(fatal.length, 1, run.out);
  const line = fatal[0]!;
  assert.equal(line.setting, setting, run.out);
  if (typeof where === 'string') assert.equal(line.path, where);
  else assert.match(String(line.path), where);
  assert.match(String(line.msg), message);
  return line;
}

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-startup-'));
});
after(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('apas serve start-up failures', () => {
  it('retries a database host that accepts connections but never answers, one JSON line per attempt, then exits 1', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => sockets.push(s));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const run = await apas(['serve'], {
        DATABASE_URL: `postgres://apas:secret-pw@127.0.0.1:${port}/apas`, APAS_DB_CONNECT_TIMEOUT_MS: '500', APAS_DB_START_ATTEMPTS: '2',
      }, 60_000);
      assertFailedStart(run, 'DATABASE_URL', `127.0.0.1:${port}/apas`, /cannot be opened after 2 attempts .*did not answer in time/);
      const retries = logLines(run).filter((l) => l.msg === 'database not reachable yet; trying again');
      assert.deepEqual(retries.map((l) => [l.attempt, l.attempts]), [[1, 2]]);
      assert.doesNotMatch(run.out + run.err, /secret-pw/, 'the password is never logged');
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });

  it('names APAS_PORT when the port is in use', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', () => resolve()));
    const { port } = taken.address() as net.AddressInfo;
    try {
      const run = await apas(['serve'], { DATABASE_URL: path.join(dir, 'port.db'), APAS_PORT: String(port) }, 60_000);
      assertFailedStart(run, 'APAS_PORT', `127.0.0.1:${port}`, new RegExp(`port ${port} on 127.0.0.1 is already in use`));
    } finally {
      taken.close();
    }
  });

  it('names APAS_BLOB_DIR when uploads cannot be stored there, instead of serving and failing every upload', async () => {
    const file = path.join(dir, 'not-a-directory');
    fs.writeFileSync(file, '');
    const blobDir = path.join(file, 'blobs');
    const run = await apas(['serve'], { DATABASE_URL: path.join(dir, 'blobs.db'), APAS_BLOB_DIR: blobDir }, 60_000, /apas is serving/);
    assertFailedStart(run, 'APAS_BLOB_DIR', blobDir, /uploads cannot be stored in the blob directory/);
  });

  it('names APAS_S3_BUCKET when the bucket cannot be reached, before serving', async () => {
    const env = {
      DATABASE_URL: path.join(dir, 's3.db'), APAS_BLOB_STORE: 's3', APAS_S3_BUCKET: 'apas-files', APAS_S3_ENDPOINT: 'http://127.0.0.1:9',
      APAS_S3_FORCE_PATH_STYLE: 'true', APAS_S3_ACCESS_KEY_ID: 'key', APAS_S3_SECRET_ACCESS_KEY: 'secret',
    };
    const run = await apas(['serve'], env, 60_000, /apas is serving/);
    assertFailedStart(run, 'APAS_S3_BUCKET', 's3://apas-files/', /uploads cannot be stored in s3:\/\/apas-files\/ at http:\/\/127\.0\.0\.1:9 \(.*ECONNREFUSED/);
    assert.doesNotMatch(run.out + run.err, /NodeVersionSupportWarning/, "the SDK's Node warning stays out of the JSON log");
  });

  it('names APAS_SIGNING_P12 when the signing certificate cannot be read or is no PKCS#12 file, before opening the database', async () => {
    const missing = path.join(dir, 'missing.p12');
    const dbFile = path.join(dir, 'signing-missing.db');
    const run = await apas(['serve'], { DATABASE_URL: dbFile, APAS_SIGNING_P12: missing }, 60_000, /apas is serving/);
    assertFailedStart(run, 'APAS_SIGNING_P12', missing, /cannot read the signing certificate file .*missing\.p12 \(ENOENT\)/);
    assert.equal(fs.existsSync(dbFile), false, 'checked before the database is made');
    const notP12 = path.join(dir, 'not.p12');
    fs.writeFileSync(notP12, '-----BEGIN CERTIFICATE-----\n');
    const garbage = await apas(['serve'], { DATABASE_URL: dbFile, APAS_SIGNING_P12: notP12 }, 60_000, /apas is serving/);
    assertFailedStart(garbage, 'APAS_SIGNING_P12', notP12, /cannot be used: the file is not a PKCS#12/);
  });

  it('names APAS_SIGNING_P12_PASSPHRASE when the passphrase does not open the file, and serves with the right one', async () => {
    const file = path.join(dir, 'seal.p12');
    fs.writeFileSync(file, makeSelfSignedP12('Test Agency', 'right passphrase', Date.now()));
    const env = { DATABASE_URL: path.join(dir, 'signing.db'), APAS_SIGNING_P12: file };
    const wrong = await apas(['serve'], { ...env, APAS_SIGNING_P12_PASSPHRASE: 'wrong passphrase' }, 60_000, /apas is serving/);
    assertFailedStart(wrong, 'APAS_SIGNING_P12_PASSPHRASE', file, /the passphrase does not open the PKCS#12 file/);
    assert.doesNotMatch(wrong.out + wrong.err, /wrong passphrase/, 'the passphrase is never logged');
    const right = await apas(['serve'], { ...env, APAS_SIGNING_P12_PASSPHRASE: 'right passphrase' }, 60_000, /apas is serving/);
    assert.equal(right.timedOut, false, right.out + right.err);
    const sealed = logLines(right).find((l) => l.msg === 'signed PDFs are sealed');
    assert.equal(sealed?.file, file, right.out);
    assert.equal(sealed?.certificate, 'CN=Test Agency document seal, O=Test Agency');
  });

  it('apas demo makes a self-signed signing certificate beside the database, keeps it on a second run, and serve uses it', async () => {
    const dbFile = path.join(dir, 'demo', 'apas.db');
    const env = { DATABASE_URL: dbFile };
    const first = await apasHere(['demo'], env);
    assert.equal(first.code, 0, first.err);
    const file = path.join(dir, 'demo', 'apas-signing.p12');
    assert.ok(first.out.includes(`made the self-signed signing certificate ${file}`), first.out);
    const bytes = fs.readFileSync(file);
    const certificate = readSigningCertificate(bytes, '');
    assert.equal(certificate.subject, 'CN=Demo Agency document seal, O=Demo Agency');
    const years = (certificate.notAfter.getTime() - certificate.notBefore.getTime()) / (365.25 * 86_400_000);
    assert.ok(years > 2.99 && years < 3.01, String(years));
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const second = await apasHere(['demo'], env);
    assert.equal(second.code, 0, second.err);
    assert.doesNotMatch(second.out, /signing certificate/);
    assert.ok(fs.readFileSync(file).equals(bytes), 'never replaced');
    const served = await apas(['serve'], env, 60_000, /apas is serving/);
    assert.equal(logLines(served).find((l) => l.msg === 'signed PDFs are sealed')?.file, file, served.out);
  });

  it('names DATABASE_URL and the file when the SQLite database cannot be created', async () => {
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, '');
    const dbFile = path.join(file, 'apas.db');
    const run = await apas(['serve'], { DATABASE_URL: dbFile, APAS_BLOB_DIR: path.join(dir, 'b') }, 60_000, /apas is serving/);
    assertFailedStart(run, 'DATABASE_URL', dbFile, /the SQLite database .* cannot be opened/);
  });
});

for (const dialect of DIALECTS) {
  describe(`migrations as the operator sees them [${dialect}]`, () => {
    it('serve logs each migration it applies; apas migrate and --status say what was applied and what is pending', async () => {
      const db = await emptyTestDatabase(dialect);
      try {
        const env = { DATABASE_URL: db.url, APAS_BLOB_DIR: path.join(dir, `m-${dialect}`) };
        const status = await apasHere(['migrate', '--status'], env);
        assert.equal(status.code, 0, status.err);
        assert.match(status.out, /Applied \(0\):\nPending \(\d+\):\n {2}001-initial\n/);
        const pendingCount = Number(/Pending \((\d+)\)/.exec(status.out)?.[1]);
        assert.ok(pendingCount >= 18);
        // --status changed nothing: migrating now applies all of them.
        const migrate = await apasHere(['migrate'], env);
        assert.equal(migrate.code, 0, migrate.err);
        const applied = migrate.out.split('\n').filter((l) => l.startsWith('Applied migration '));
        assert.equal(applied.length, pendingCount, migrate.out);
        assert.equal(applied[0], 'Applied migration 001-initial');
        assert.match(migrate.out, new RegExp(`is up to date: applied ${pendingCount} migrations \\(${pendingCount} in all\\)\\.`));
        const again = await apasHere(['migrate'], env);
        assert.match(again.out, /is up to date: no migration was pending/);
        assert.doesNotMatch(again.out, /Applied migration/);
        const after = await apasHere(['migrate', '--status'], env);
        assert.match(after.out, new RegExp(`Applied \\(${pendingCount}\\):\\n {2}001-initial {2}\\d{4}-\\d\\d-\\d\\dT`));
        assert.match(after.out, /Pending \(0\): none/);
      } finally {
        await db.remove();
      }
    });

    it('serve logs, in JSON, each migration it applies to a new database', async () => {
      const db = await emptyTestDatabase(dialect);
      try {
        const run = await apas(['serve'], { DATABASE_URL: db.url, APAS_BLOB_DIR: path.join(dir, `s-${dialect}`) }, 90_000, /apas is serving/);
        assert.equal(run.timedOut, false, run.out + run.err);
        const migrations = logLines(run).filter((l) => l.msg === 'applied database migration').map((l) => l.migration);
        assert.ok(migrations.length >= 18, run.out);
        assert.equal(migrations[0], '001-initial');
        assert.ok(logLines(run).some((l) => l.msg === 'database open and up to date' && l.attempt === 1));
        // The heap growth it set for itself (APAS_HEAP_GROWTH_PERCENT; test/cli/heap-growth.test.ts shows its effect).
        assert.ok(logLines(run).some((l) => l.heapGrowthPercent === 40), run.out);
      } finally {
        await db.remove();
      }
    });

    it('refuses a database a newer version upgraded: one sentence, exit 1, from serve and from migrate', async () => {
      const db = await emptyTestDatabase(dialect);
      try {
        const env = { DATABASE_URL: db.url, APAS_BLOB_DIR: path.join(dir, `n-${dialect}`) };
        assert.equal((await apasHere(['migrate'], env)).code, 0);
        const insert = "insert into kysely_migration (name, timestamp) values ('999-from-the-future', '2030-01-01T00:00:00.000Z')";
        if (db.config.kind === 'sqlite') {
          const raw = new BetterSqlite3(db.config.file);
          raw.exec(insert);
          raw.close();
        } else {
          const client = new pg.Client({ connectionString: db.url });
          await client.connect();
          await client.query(insert);
          await client.end();
        }
        const serve = await apas(['serve'], env, 60_000, /apas is serving/);
        assertFailedStart(serve, 'DATABASE_URL', /./, /^cannot start: the database was upgraded by a newer version of apas \(it has migration 999-from-the-future, which this version does not know\); run that newer version, or restore a backup taken before the upgrade$/);
        const migrate = await apas(['migrate'], env, 60_000);
        assert.equal(migrate.code, 1);
        assert.match(migrate.err, /^apas: .*: the database was upgraded by a newer version of apas \(it has migration 999-from-the-future/);
        assert.equal(migrate.err.trim().split('\n').length, 1, migrate.err);
        assert.doesNotMatch(migrate.err, /corrupted migrations|\n\s+at /);
        const status = await apasHere(['migrate', '--status'], env);
        assert.equal(status.code, 1);
        assert.match(status.out, /Unknown to this version \(1\):\n {2}999-from-the-future/);
      } finally {
        await db.remove();
      }
    });
  });
}

describe('apas serve and the key file of a SQLite database', () => {
  it('makes the key file for a new database, but never for one that holds sealed values: it refuses, naming the file, and writes nothing', async () => {
    const fresh = await emptyTestDatabase('sqlite');
    const restored = await openTestStore('sqlite', { secrets: createSecretBox(parseSecretKeys(newSecretKeyLine(), 'lost with the old server')) });
    try {
      const freshKey = path.join(path.dirname(fresh.url), 'apas-secret.key');
      const started = await apas(['serve'], { DATABASE_URL: fresh.url, APAS_SECRET_KEYS: '', APAS_BLOB_DIR: path.join(dir, 'k-fresh') }, 90_000, /apas is serving/);
      assert.ok(logLines(started).some((l) => l.msg === 'apas is serving'), started.out);
      assert.ok(fs.existsSync(freshKey), 'a new installation gets its key file');

      await seedSealedValues(restored.store);
      const dbFile = (restored.config as { file: string }).file;
      const keyFile = path.join(path.dirname(dbFile), 'apas-secret.key');
      const env = { DATABASE_URL: dbFile, APAS_SECRET_KEYS: '', APAS_BLOB_DIR: path.join(dir, 'k-restored') };
      const refused = await apas(['serve'], env, 90_000, /apas is serving/);
      assert.equal(fs.existsSync(keyFile), false, 'a refused start writes no key');
      assertFailedStart(refused, 'APAS_SECRET_KEY_FILE', keyFile, /^The database holds sealed secrets, but their key file .* is missing \(a backup restored without it\?\).*No new key was made/);
    } finally {
      await restored.close();
      await fresh.remove();
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`apas serve after a lost key [${dialect}]`, () => {
    it('refuses to start while values sealed with the lost key are stored, and serves once drop-unreadable has dropped them', async () => {
      const db = await openTestStore(dialect, { secrets: createSecretBox(parseSecretKeys(newSecretKeyLine(), 'lost')) });
      try {
        await seedSealedValues(db.store);
        const env = { DATABASE_URL: db.config.kind === 'sqlite' ? db.config.file : db.config.url, APAS_BLOB_DIR: path.join(dir, `lost-${dialect}`) };
        const refused = await apas(['serve'], env, 90_000, /apas is serving/);
        assertFailedStart(refused, 'APAS_SECRET_KEYS', 'the environment', /which the configured keys do not include: restore the key file .* or, if it is lost, run "apas secrets drop-unreadable"/);
        const drop = await apasHere(['secrets', 'drop-unreadable'], env);
        assert.equal(drop.code, 0, drop.err);
        assert.match(drop.out, /^Dropped 5 values/);
        const served = await apas(['serve'], env, 90_000, /apas is serving/);
        assert.equal(served.timedOut, false, served.out + served.err);
        assert.ok(logLines(served).some((l) => l.msg === 'apas is serving'), served.out);
      } finally {
        await db.close();
      }
    });
  });
}
