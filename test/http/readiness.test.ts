import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import { startHttp } from '../support/http-harness.ts';

// /readyz says whether this instance can do its work: the database answers and uploads can be stored. A blob
// directory that cannot be written must not pass readiness and then fail every upload with 500.

forEachDialect('readiness', ({ open }) => {
  it('is 503 while the local blob directory cannot be written, and 200 again once it can', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-ready-'));
    const blobDir = path.join(dir, 'blobs');
    const db = await open();
    const h = await startHttp(db, { APAS_BLOB_STORE: 'local', APAS_BLOB_DIR: blobDir });
    try {
      const ok = await h.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(ok.statusCode, 200, ok.body);
      // The directory becomes a file: nothing can be stored under it (a lost mount, a wrong volume), even as root.
      fs.rmSync(blobDir, { recursive: true, force: true });
      fs.writeFileSync(blobDir, '');
      const refused = await h.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(refused.statusCode, 503, refused.body);
      assert.equal(refused.body, 'uploads cannot be stored\n');
      fs.rmSync(blobDir);
      const back = await h.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(back.statusCode, 200, back.body);
    } finally {
      await h.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
