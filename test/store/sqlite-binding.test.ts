import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { SqliteBinding, sqliteBindingPackage } from '../../src/store/sqlite-binding.ts';

test('Node 22 and later get better-sqlite3 13 (Node-API), Node 20 gets 12', () => {
  assert.equal(sqliteBindingPackage('20.19.0'), 'better-sqlite3-node20');
  assert.equal(sqliteBindingPackage('20.20.2'), 'better-sqlite3-node20');
  assert.equal(sqliteBindingPackage('22.12.0'), 'better-sqlite3');
  assert.equal(sqliteBindingPackage('24.21.0'), 'better-sqlite3');
});

test('the binding loaded on this Node is the major version chosen for it', () => {
  const name = sqliteBindingPackage(process.versions.node);
  const { version } = createRequire(import.meta.url)(`${name}/package.json`) as { version: string };
  const major = Number(process.versions.node.split('.')[0]);
  assert.equal(Number(version.split('.')[0]), major >= 22 ? 13 : 12, `${name}@${version} on Node ${process.versions.node}`);
  assert.equal(SqliteBinding, createRequire(import.meta.url)(name));
});

test('the binding keeps WAL and synchronous=FULL, and statements collected by the GC do no harm', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-sqlite-binding-'));
  try {
    const db = new SqliteBinding(path.join(dir, 'x.db'));
    assert.equal(db.pragma('journal_mode = WAL', { simple: true }), 'wal');
    db.pragma('synchronous = FULL');
    assert.equal(db.pragma('synchronous', { simple: true }), 2);
    db.exec('create table t (n integer)');
    // Many statements prepared once and dropped: on Node 24 with better-sqlite3 12, collecting them could abort.
    // (One transaction: synchronous=FULL syncs every commit.)
    db.transaction(() => {
      for (let i = 0; i < 2000; i++) db.prepare(`insert into t values (${i})`).run();
    })();
    (globalThis as { gc?: () => void }).gc?.();
    assert.equal(db.prepare('select count(*) from t').pluck().get(), 2000);
    db.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
