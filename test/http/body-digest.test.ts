import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { setImmediate as turn } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { BodyDigest } from '../../src/http/body-digest.ts';

// A request body's digest (Idempotency-Key fingerprints). A client may reset the connection while nobody reads the
// digest yet (the upload's handler is still checking the caller) or after its reader stopped; an 'error' event
// without a listener would then end the process (issue 31, A.1).

/** An 'aborted' error as Node gives a request whose connection went before its body was whole. */
function aborted(): Error {
  return Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
}

/** Runs `act` and fails when anything threw outside it (an unhandled 'error' event) meanwhile. */
async function withoutUncaught(act: () => Promise<void>): Promise<void> {
  const thrown: unknown[] = [];
  const record = (error: unknown) => thrown.push(error);
  process.prependListener('uncaughtException', record);
  try {
    await act();
    await turn();
  } finally {
    process.removeListener('uncaughtException', record);
  }
  assert.deepEqual(thrown.map(String), [], 'nothing may be thrown outside the request');
}

describe('BodyDigest', () => {
  it('passes a body through unchanged and gives its SHA-256', async () => {
    const source = new PassThrough();
    const digest = BodyDigest.of(source);
    source.end(Buffer.from('hello'));
    const chunks: Buffer[] = [];
    for await (const chunk of digest) chunks.push(chunk as Buffer);
    assert.equal(Buffer.concat(chunks).toString(), 'hello');
    assert.equal(await digest.done, createHash('sha256').update('hello').digest('hex'));
    assert.equal(digest.hex, await digest.done);
  });

  it('fails quietly when the body breaks off before anyone reads it; a later reader and `done` get the error', async () => {
    await withoutUncaught(async () => {
      const source = new PassThrough();
      const digest = BodyDigest.of(source);
      source.write(Buffer.alloc(1000));
      source.destroy(aborted());
      await turn();
      await assert.rejects(digest.done, /aborted/);
      // What the upload's blob store does once the handler gets to the body.
      await assert.rejects(async () => {
        for await (const _ of digest.iterator({ destroyOnReturn: false })) { /* reading on */ }
      }, /aborted/);
      assert.equal(digest.hex, null);
    });
  });

  it('fails quietly when the body breaks off after its reader stopped', async () => {
    await withoutUncaught(async () => {
      const source = new PassThrough();
      const digest = BodyDigest.of(source);
      source.write(Buffer.alloc(100));
      // A reader that stops early (an upload over its limit) and leaves the digest as it is.
      for await (const _ of digest.iterator({ destroyOnReturn: false })) break;
      source.destroy(aborted());
      await turn();
      await assert.rejects(digest.done, /aborted/);
    });
  });
});
