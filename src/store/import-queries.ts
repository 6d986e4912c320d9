import type { Kysely } from 'kysely';
import { bindDb } from './bind-db.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

// Well below SQLite's 32766 bound parameters per statement.
const IDS_PER_READ = 500;

/** The projects of a program with these external ids: external id → project id (ids without a project are left out). */
export async function findExternalIds(db: Db, programId: string, externalIds: readonly string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let i = 0; i < externalIds.length; i += IDS_PER_READ) {
    const rows = await db.selectFrom('project_external_ids').select(['external_id', 'project_id'])
      .where('program_id', '=', programId).where('external_id', 'in', externalIds.slice(i, i + IDS_PER_READ)).execute();
    for (const r of rows) found.set(r.external_id, r.project_id);
  }
  return found;
}

/** The external id of a project, or null. */
export async function externalIdOf(db: Db, projectId: string): Promise<string | null> {
  const row = await db.selectFrom('project_external_ids').select('external_id').where('project_id', '=', projectId).executeTakeFirst();
  return row?.external_id ?? null;
}

/**
 * Gives a project its external id in its program. False, and nothing written, when another project of the program
 * holds that id already (an import of the same row committed meanwhile).
 */
export async function recordExternalId(db: Db, row: { programId: string; externalId: string; projectId: string; at: number }): Promise<boolean> {
  const result = await db.insertInto('project_external_ids')
    .values({ program_id: row.programId, external_id: row.externalId, project_id: row.projectId, created_at: row.at })
    .onConflict((oc) => oc.columns(['program_id', 'external_id']).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

const READS = { findExternalIds, externalIdOf };

/** The external ids' reads (data import). */
export function importReader(db: Db) {
  return bindDb(db, READS);
}

/** The external ids over a transaction: read, and recorded in a project's creation. */
export function importRepository(db: Db) {
  return bindDb(db, { ...READS, recordExternalId });
}

/** The external ids' reads. */
export type ImportReader = ReturnType<typeof importReader>;

/** The external ids' reads and writes. */
export type ImportRepository = ReturnType<typeof importRepository>;
