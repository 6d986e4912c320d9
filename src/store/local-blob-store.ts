import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { type BlobStore, type ByteRange, copyCounted, isBlobKey, missingBlob, newBlobKey, type StoredBlob } from './blob-store.ts';

const TEMP_SUFFIX = '.part';

/** fsync of a directory, so that a new or renamed entry in it survives a power loss. */
export async function syncDirectory(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch (error) {
    // Some platforms (Windows) cannot open or fsync a directory; there the rename is as durable as it gets.
    if (!['EISDIR', 'EPERM', 'EINVAL', 'EBADF'].includes(String((error as NodeJS.ErrnoException).code))) throw error;
  } finally {
    await handle?.close();
  }
}

/** Creates `dir` and any missing parents, syncing each parent that gained an entry. */
async function makeDirectory(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    try {
      await fs.access(d);
      break;
    } catch {
      missing.unshift(d);
      if (path.dirname(d) === d) break;
    }
  }
  for (const d of missing) {
    await fs.mkdir(d, { recursive: true });
    await syncDirectory(path.dirname(d));
  }
}

async function writeAll(handle: fs.FileHandle, chunk: Buffer): Promise<void> {
  for (let offset = 0; offset < chunk.length;) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
    offset += bytesWritten;
  }
}

async function entries(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Blobs as files under one directory: `<dir>/<k[0..1]>/<k[2..3]>/<key>`. A write goes to `<dir>/tmp/<key>.part`
 * first and is fsynced, renamed into place and its directory fsynced, so a blob either exists whole or not at all.
 */
export class LocalBlobStore implements BlobStore {
  readonly kind = 'local';
  readonly #dir: string;

  /** A store under `dir`, which is created on the first write. */
  constructor(dir: string) {
    this.#dir = dir;
  }

  /** Where a blob's file is. */
  pathOf(key: string): string {
    if (!isBlobKey(key)) throw new Error(`not a blob key: ${JSON.stringify(key)}`);
    return path.join(this.#dir, key.slice(0, 2), key.slice(2, 4), key);
  }

  /** The directory this store writes to. */
  get directory(): string {
    return this.#dir;
  }

  // A real write (create, write, remove), not access(2): that also catches a read-only mount or a full inode table.
  async checkWritable(): Promise<void> {
    const tempDir = path.join(this.#dir, 'tmp');
    await makeDirectory(tempDir);
    const probe = path.join(tempDir, `probe-${newBlobKey()}${TEMP_SUFFIX}`);
    const handle = await fs.open(probe, 'wx', 0o600);
    try {
      await writeAll(handle, Buffer.from('ok'));
    } finally {
      await handle.close();
      await fs.rm(probe, { force: true });
    }
  }

  async write(source: Readable, limitBytes: number): Promise<StoredBlob> {
    const key = newBlobKey();
    const tempDir = path.join(this.#dir, 'tmp');
    await makeDirectory(tempDir);
    const temp = path.join(tempDir, `${key}${TEMP_SUFFIX}`);
    const handle = await fs.open(temp, 'wx', 0o600);
    let open = true;
    try {
      const { size, sha256 } = await copyCounted(source, limitBytes, (chunk) => writeAll(handle, chunk));
      await handle.sync();
      await handle.close();
      open = false;
      const target = this.pathOf(key);
      await makeDirectory(path.dirname(target));
      await fs.rename(temp, target);
      await syncDirectory(path.dirname(target));
      return { key, size, sha256 };
    } catch (error) {
      if (open) await handle.close().catch(() => {});
      await fs.rm(temp, { force: true });
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.pathOf(key);
    try {
      // Opened here, so that a missing file fails before any answer has started.
      const handle = await fs.open(file, 'r');
      return handle.createReadStream(range === undefined ? {} : { start: range.start, end: range.end });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw missingBlob(key, file);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  async sweepOrphans(referenced: (key: string) => Promise<boolean>, olderThanMs: number): Promise<number> {
    const cutoff = Date.now() - olderThanMs;
    const old = async (file: string) => (await fs.stat(file)).mtimeMs < cutoff;
    let removed = 0;
    const tempDir = path.join(this.#dir, 'tmp');
    for (const name of await entries(tempDir)) {
      const file = path.join(tempDir, name);
      if (name.endsWith(TEMP_SUFFIX) && (await old(file))) {
        await fs.rm(file, { force: true });
        removed++;
      }
    }
    const shard = /^[0-9a-f]{2}$/;
    for (const a of (await entries(this.#dir)).filter((n) => shard.test(n))) {
      for (const b of (await entries(path.join(this.#dir, a))).filter((n) => shard.test(n))) {
        for (const key of await entries(path.join(this.#dir, a, b))) {
          if (!isBlobKey(key) || key.slice(0, 2) !== a || key.slice(2, 4) !== b) continue;
          const file = path.join(this.#dir, a, b, key);
          if ((await old(file)) && !(await referenced(key))) {
            await fs.rm(file, { force: true });
            removed++;
          }
        }
      }
    }
    return removed;
  }
}
