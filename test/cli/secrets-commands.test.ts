import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteBinding as Database } from '../../src/store/sqlite-binding.ts';
import { newSecretKeyLine } from '../../src/store/secret-box.ts';
import { type ApasResult, runApas, runApasInProcess } from '../support/run-apas.ts';

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
