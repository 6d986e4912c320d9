import { type Kysely, sql } from 'kysely';
import type { Database } from './tables.ts';
import { bindDb } from './bind-db.ts';

type Db = Kysely<Database>;

/** Stores one chunk of a blob (its own statement, so it commits on its own). */
export async function writeBlobChunk(db: Db, blobKey: string, seq: number, data: Buffer, at: number): Promise<void> {
  await db.insertInto('blob_chunks').values({ blob_key: blobKey, seq, data, created_at: at }).execute();
}

/** One chunk of a blob, or null past its last one. */
export async function readBlobChunk(db: Db, blobKey: string, seq: number): Promise<Buffer | null> {
  const row = await db.selectFrom('blob_chunks').select('data').where('blob_key', '=', blobKey).where('seq', '=', seq).executeTakeFirst();
  return row ? Buffer.from(row.data) : null;
}

/** The size in bytes of each chunk of a blob, in order (without reading their data), so that a range reads only its chunks. */
export async function blobChunkSizes(db: Db, blobKey: string): Promise<{ seq: number; bytes: number }[]> {
  const rows = await db.selectFrom('blob_chunks').select(['seq', sql<number>`length(data)`.as('bytes')]).where('blob_key', '=', blobKey).orderBy('seq').execute();
  return rows.map((r) => ({ seq: r.seq, bytes: Number(r.bytes) }));
}

/** Deletes every chunk of a blob. */
export async function deleteBlobChunks(db: Db, blobKey: string): Promise<void> {
  await db.deleteFrom('blob_chunks').where('blob_key', '=', blobKey).execute();
}

/** The keys of the blobs whose first chunk was written before `writtenBefore` (epoch ms). */
export async function listBlobKeys(db: Db, writtenBefore: number): Promise<string[]> {
  const rows = await db.selectFrom('blob_chunks').select('blob_key').where('seq', '=', 0).where('created_at', '<', writtenBefore).orderBy('blob_key').execute();
  return rows.map((r) => r.blob_key);
}

/** Blobs kept in the database, in chunks that each commit on their own. */
export type BlobChunkRepository = ReturnType<typeof blobChunkRepository>;

/** The blob chunks over a database (never inside another transaction). */
export function blobChunkRepository(db: Db) {
  return bindDb(db, { writeBlobChunk, readBlobChunk, blobChunkSizes, deleteBlobChunks, listBlobKeys });
}
