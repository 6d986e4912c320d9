import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { DatabaseConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/store/database.ts';

/** Every file under `dir` (paths relative to it, sorted); empty when the directory does not exist. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

/** The number of rows in blob_chunks, read over a connection of its own (the Store has no reason to count them). */
export async function blobChunkRows(config: DatabaseConfig): Promise<number> {
  const { db } = await openDatabase(config, 1);
  try {
    const row = await db.selectFrom('blob_chunks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await db.destroy();
  }
}

/** `bytes` as a stream of pieces of `size` bytes (as a network would deliver them), without a known length. */
export function pieces(bytes: Buffer, size = 16 * 1024): Readable {
  return Readable.from((function* () {
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  })(), { objectMode: false });
}

/** A stream that delivers the first `after` bytes of `bytes`, then fails as a dropped connection would. */
export function breaksAfter(bytes: Buffer, after: number, error = new Error('connection reset by peer')): Readable {
  return Readable.from((async function* () {
    for (let i = 0; i < after; i += 8192) yield bytes.subarray(i, Math.min(i + 8192, after));
    await new Promise((resolve) => setTimeout(resolve, 5));
    throw error;
  })(), { objectMode: false });
}

/** Everything a stream delivers. */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as string));
  return Buffer.concat(chunks);
}

/** Deterministic pseudo-random bytes (so failures can be reproduced), starting with `prefix`. */
export function sampleBytes(size: number, seed = 1, prefix = ''): Buffer {
  const out = Buffer.alloc(size);
  const head = Buffer.from(prefix, 'latin1');
  head.copy(out, 0, 0, Math.min(head.length, size));
  let x = seed >>> 0 || 1;
  for (let i = head.length; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}
