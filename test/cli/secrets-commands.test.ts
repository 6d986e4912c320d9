import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteBinding as Database } from '../../src/store/sqlite-binding.ts';
import type { DatabaseConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createSecretBox, newSecretKeyLine, parseSecretKeys } from '../../src/store/secret-box.ts';
import { DIALECTS, openTestStore } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { type ApasResult, runApas, runApasInProcess } from '../support/run-apas.ts';
import { addSealedProjects, SEALED_TEXTS, SEALED_WEBHOOK, seedSealedValues, withSealedStore } from '../support/sealed-fixtures.ts';

// Secrets at rest as an operator meets them: the key file made beside a SQLite database, the sealed TOTP secret in
// the database file, `apas secrets status|rotate`, and a server that refuses to start without the key it needs.

type Result = ApasResult;

let dir = '';
let dbFile = '';

/** Runs an `apas` command line: `serve` in a process of its own (it owns its process), the others in this one. */
function apas(args: string[], env: Record<string, string> = {}, stdin = ''): Promise<Result> {
  const run = args[0] === 'serve' ? runApas : runApasInProcess;
  return run(args, { cwd: dir, stdin, env: { APAS_LOG_LEVEL: 'warn', DATABASE_URL: dbFile, APAS_SECRET_KEYS: '', APAS_SECRET_KEY_FILE: '', ...env } });
}

/** The one fatal JSON log line of a failed start, with no stack trace anywhere. */
function fatalLine(run: Result): Record<string, unknown> {
  assert.doesNotMatch(run.stdout + run.stderr, /\n\s+at .+:\d+:\d+/, 'no stack trace');
  const fatal = run.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.level === 60);
  assert.equal(fatal.length, 1, run.stdout + run.stderr);
  return fatal[0]!;
}

function storedTotpSecrets(): string[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    return (db.prepare('select secret from user_mfa').all() as { secret: string }[]).map((r) => r.secret);
  } finally {
    db.close();
  }
}

describe('apas secrets: encryption at rest of TOTP secrets', () => {
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-secrets-'));
    dbFile = path.join(dir, 'data', 'apas.db');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('seals a TOTP secret with a key file made beside the database; the database file alone reveals nothing', async () => {
    assert.equal((await apas(['agency', 'create', '--id', 'city', '--name', 'City'])).code, 0);
    const created = await apas(['user', 'create', '--agency', 'city', '--email', 'ops@city.example', '--name', 'Ops'], {}, 'a long enough password\n');
    assert.equal(created.code, 0, created.stderr);
    const keyFile = path.join(dir, 'data', 'apas-secret.key');
    const enrol = await apas(['user', 'mfa-enrol', '--email', 'ops@city.example']);
    assert.equal(enrol.code, 0, enrol.stderr);
    const secret = /secret=([A-Z2-7]+)/.exec(enrol.stdout)?.[1];
    assert.ok(secret, enrol.stdout);
    assert.equal(fs.statSync(keyFile).mode & 0o777, 0o600);
    const [stored] = storedTotpSecrets();
    assert.ok(stored?.startsWith('sealed:v1:'), stored);
    assert.equal(fs.readFileSync(dbFile).includes(secret), false, 'the database file holds no clear TOTP secret');
    const status = await apas(['secrets', 'status']);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /^1 sealed with k\d{8}[0-9a-f]{6}\n$/);
  });

  it('rotates to a new first key; the server then starts with the new key alone, and refuses a key list that cannot open them', async () => {
    const oldKeys = fs.readFileSync(path.join(dir, 'data', 'apas-secret.key'), 'utf8').split('\n').filter((l) => /^k\w+:/.test(l));
    const newKey = (await apas(['secrets', 'new-key'])).stdout.trim();
    assert.match(newKey, /^k\d{8}[0-9a-f]{6}:[A-Za-z0-9+/]{43}=$/);
    const rotated = await apas(['secrets', 'rotate'], { APAS_SECRET_KEYS: [newKey, ...oldKeys].join(',') });
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.match(rotated.stdout, new RegExp(`^Re-wrapped 1 secrets: 1 sealed with ${newKey.split(':')[0]}\\.`));

    const wrong = await apas(['serve'], { APAS_SECRET_KEYS: newSecretKeyLine(), APAS_PORT: '0', APAS_LOG_LEVEL: 'info' });
    assert.equal(wrong.code, 1);
    const fatal = fatalLine(wrong);
    assert.equal(fatal.setting, 'APAS_SECRET_KEYS');
    assert.match(String(fatal.msg), /^The database holds secrets sealed with the key\(s\) k\w+, which the configured keys do not include: restore the key file/);
    const status = await apas(['secrets', 'status'], { APAS_SECRET_KEYS: newKey });
    assert.equal(status.code, 0, status.stderr);
  });

  it('refuses to serve on PostgreSQL without a configured key, naming the settings', async () => {
    const r = await apas(['serve'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', APAS_LOG_LEVEL: 'info' });
    assert.equal(r.code, 1);
    const fatal = fatalLine(r);
    assert.equal(fatal.setting, 'APAS_SECRET_KEY_FILE');
    assert.match(String(fatal.msg), /^On PostgreSQL set APAS_SECRET_KEY_FILE \(the same key file on every instance\) or APAS_SECRET_KEYS/);
  });

  it('refuses malformed keys and both settings at once', async () => {
    const bad = await apas(['secrets', 'status'], { APAS_SECRET_KEYS: 'k1:short' });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /APAS_SECRET_KEYS: every key must be ID:BASE64/);
    const both = await apas(['secrets', 'status'], { APAS_SECRET_KEYS: newSecretKeyLine(), APAS_SECRET_KEY_FILE: '/x' });
    assert.match(both.stderr, /Set APAS_SECRET_KEYS or APAS_SECRET_KEY_FILE, not both/);
  });
});

/** The stored rows that hold sealed values, read as they are (counts, and the webhook's state). */
async function sealedState(config: DatabaseConfig) {
  const raw = await openDatabase(config);
  try {
    const count = async (table: 'user_mfa' | 'project_values' | 'project_drafts') => Number((await raw.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const hook = await raw.db.selectFrom('webhook_subscriptions').select(['enabled', 'disabled_reason', 'secret', 'previous_secret']).executeTakeFirstOrThrow();
    const audit = await raw.db.selectFrom('audit_log').select(['action', 'project_id', 'detail']).where('action', 'like', '%drop_unreadable').orderBy('action').execute();
    return { mfa: await count('user_mfa'), values: await count('project_values'), drafts: await count('project_drafts'), hook, audit };
  } finally {
    await raw.changes.close();
    await raw.db.destroy();
  }
}

for (const dialect of DIALECTS) {
  describe(`apas secrets drop-unreadable: the way out of a lost key [${dialect}]`, () => {
    it('drops exactly the values no configured key opens, audited, and leaves the others', async () => {
      const lost = newSecretKeyLine();
      const kept = newSecretKeyLine();
      const db = await openTestStore(dialect, { secrets: createSecretBox(parseSecretKeys(lost, 'lost')) });
      try {
        await seedSealedValues(db.store, ['PROJECT00001']);
        // A project written after the new key came: its values open with it.
        const keptBox = createSecretBox(parseSecretKeys(kept, 'kept'));
        await withSealedStore(db.config, keptBox, (store) => addSealedProjects(store, ['PROJECT00002']));
        const env = { DATABASE_URL: db.config.kind === 'sqlite' ? db.config.file : db.config.url, APAS_SECRET_KEYS: kept };
        const before = await sealedState(db.config);

        const status = await apas(['secrets', 'status'], env);
        assert.equal(status.code, 1, status.stdout);
        assert.match(status.stderr, new RegExp(`not configured and cannot be read: ${lost.split(':')[0]}`));
        const dry = await apas(['secrets', 'drop-unreadable', '--dry-run'], env);
        assert.equal(dry.code, 0, dry.stderr);
        assert.equal(dry.stdout, 'Would drop 5 values that no configured key opens: 1 TOTP secret, 2 webhook signing secrets, 1 submitted value of a sensitive field, 1 draft value of a sensitive field. Nothing was changed.\n');
        assert.deepEqual(await sealedState(db.config), before, 'a dry run changes nothing');

        const drop = await apas(['secrets', 'drop-unreadable'], env);
        assert.equal(drop.code, 0, drop.stderr);
        assert.match(drop.stdout, /^Dropped 5 values that no configured key opened: 1 TOTP secret, 2 webhook signing secrets, 1 submitted value of a sensitive field, 1 draft value of a sensitive field\. Recorded in the audit log as secrets\.drop_unreadable\.\n$/);
        const after = await sealedState(db.config);
        assert.deepEqual([after.mfa, after.values, after.drafts], [0, before.values - 1, before.drafts - 1]);
        assert.equal(after.hook.enabled, 0);
        assert.match(String(after.hook.disabled_reason), /signing secret could not be opened .* rotate the secret and enable the subscription again/);
        assert.equal(after.hook.previous_secret, null);
        assert.deepEqual(after.audit.map((a) => [a.action, a.project_id]), [['project.values.drop_unreadable', 'PROJECT00001'], ['secrets.drop_unreadable', null]]);
        const detail = JSON.parse(after.audit[1]!.detail) as Record<string, unknown>;
        assert.deepEqual(detail.keyIds, [lost.split(':')[0]]);
        assert.deepEqual(detail.fieldValues, [{ projectId: 'PROJECT00001', fieldId: IDS.name }]);
        assert.deepEqual(detail.totpUsers, [IDS.admin]);

        await withSealedStore(db.config, keptBox, async (store) => {
          assert.equal(await store.mfa.getMfa(IDS.admin), null);
          const hook = await store.webhooks.findSubscription(IDS.program, SEALED_WEBHOOK);
          assert.match(String(hook?.secret), /^whsec_/, 'the new secret opens');
          assert.notEqual(hook?.secret, SEALED_TEXTS.webhook);
          assert.deepEqual((await store.projects.getValues('PROJECT00001', [IDS.name, IDS.kw])).map((v) => [v.fieldId, v.value]), [[IDS.kw, '7.5']]);
          assert.deepEqual(await store.projects.getDraft('PROJECT00001', IDS.form), []);
          assert.deepEqual((await store.projects.getValues('PROJECT00002', [IDS.name])).map((v) => v.value), [SEALED_TEXTS.name], 'a value the key opens stays');
          assert.deepEqual((await store.projects.getDraft('PROJECT00002', IDS.form)).map((v) => v.value), [SEALED_TEXTS.draft]);
        });
        assert.equal((await apas(['secrets', 'status'], env)).code, 0);
        const again = await apas(['secrets', 'drop-unreadable'], env);
        assert.equal(again.stdout, 'All 3 sealed values open with the configured keys: nothing to drop.\n');
      } finally {
        await db.close();
      }
    });
  });
}

describe('apas secrets without the key file of a SQLite database that holds sealed values', () => {
  it('makes no key file; status and a dry run say so, and drop-unreadable makes one and drops what it cannot open', async () => {
    const db = await openTestStore('sqlite', { secrets: createSecretBox(parseSecretKeys(newSecretKeyLine(), 'lost')) });
    try {
      await seedSealedValues(db.store, ['PROJECT00001']);
      const keyFile = path.join(path.dirname((db.config as { file: string }).file), 'apas-secret.key');
      const env = { DATABASE_URL: (db.config as { file: string }).file };
      const status = await apas(['secrets', 'status'], env);
      assert.equal(status.code, 1);
      assert.match(status.stderr, /The database holds sealed secrets, but their key file .*apas-secret\.key is missing .* "apas secrets drop-unreadable" drops the values it sealed\. No new key was made\./);
      assert.equal(fs.existsSync(keyFile), false, 'no key file is made for a database that holds sealed values');
      const dry = await apas(['secrets', 'drop-unreadable', '--dry-run'], env);
      assert.match(dry.stdout, /^Would drop 5 values/);
      assert.equal(fs.existsSync(keyFile), false);
      const drop = await apas(['secrets', 'drop-unreadable'], env);
      assert.equal(drop.code, 0, drop.stderr);
      assert.match(drop.stderr, /Made the key file .*apas-secret\.key/);
      assert.match(drop.stdout, /^Dropped 5 values/);
      assert.ok(fs.existsSync(keyFile));
      const after = await apas(['secrets', 'status'], env);
      assert.equal(after.code, 0, after.stderr);
      assert.match(after.stdout, /^1 sealed with k\w+\n$/, 'only the webhook\'s new secret is sealed, with the new key');
    } finally {
      await db.close();
    }
  });
});
