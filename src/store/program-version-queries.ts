import type { Kysely, Selectable } from 'kysely';
import type { ProgramUpload, ProgramVersion } from '../model/program-version.ts';
import type { Database, ProgramVersionTable } from './tables.ts';

type Db = Kysely<Database>;

function versionOf(r: Omit<Selectable<ProgramVersionTable>, 'content' | 'id'>): ProgramVersion {
  return {
    programId: r.program_id, version: Number(r.version), publishedAt: Number(r.published_at), publishedBy: r.published_by,
    publisher: r.publisher, fileName: r.file_name, sha256: r.sha256, changes: JSON.parse(r.changes) as string[],
  };
}

const LISTED = ['program_id', 'version', 'published_at', 'published_by', 'publisher', 'file_name', 'sha256', 'changes'] as const;

/** The versions of a program, newest first (without their files). */
export async function listProgramVersions(db: Db, programId: string): Promise<ProgramVersion[]> {
  const rows = await db.selectFrom('program_versions').select(LISTED).where('program_id', '=', programId).orderBy('version', 'desc').execute();
  return rows.map(versionOf);
}

/** The newest version of a program, or null when none was recorded. */
export async function latestProgramVersion(db: Db, programId: string): Promise<ProgramVersion | null> {
  const r = await db.selectFrom('program_versions').select(LISTED).where('program_id', '=', programId).orderBy('version', 'desc').limit(1).executeTakeFirst();
  return r ? versionOf(r) : null;
}

/** One version of a program with the text of its file, or null. */
export async function findProgramVersion(db: Db, programId: string, version: number): Promise<(ProgramVersion & { content: string }) | null> {
  const r = await db.selectFrom('program_versions').selectAll().where('program_id', '=', programId).where('version', '=', version).executeTakeFirst();
  return r ? { ...versionOf(r), content: r.content } : null;
}

/** Records a version (in the import's transaction); the unique (program, number) refuses a second of the same number. */
export async function insertProgramVersion(db: Db, id: string, v: ProgramVersion & { content: string }): Promise<void> {
  await db.insertInto('program_versions').values({
    id, program_id: v.programId, version: v.version, published_at: v.publishedAt, published_by: v.publishedBy, publisher: v.publisher,
    file_name: v.fileName, sha256: v.sha256, content: v.content, changes: JSON.stringify(v.changes),
  }).execute();
}

/**
 * Takes the program's row lock until the transaction ends (PostgreSQL; SQLite runs one write transaction at a time),
 * so that two publications of one program take turns and the second sees the first's version.
 */
export async function lockProgram(db: Db, programId: string): Promise<void> {
  await db.updateTable('programs').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', programId).execute();
}

/** Keeps an uploaded program file until it is published or expires. */
export async function insertProgramUpload(db: Db, u: ProgramUpload): Promise<void> {
  await db.insertInto('program_uploads').values({
    id: u.id, agency_id: u.agencyId, uploaded_by: u.uploadedBy, uploaded_at: u.uploadedAt, file_name: u.fileName, sha256: u.sha256, content: u.content,
  }).execute();
}

/** An uploaded program file, or null. */
export async function findProgramUpload(db: Db, id: string): Promise<ProgramUpload | null> {
  const r = await db.selectFrom('program_uploads').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? { id: r.id, agencyId: r.agency_id, uploadedBy: r.uploaded_by, uploadedAt: Number(r.uploaded_at), fileName: r.file_name, sha256: r.sha256, content: r.content } : null;
}

/** Removes an upload (published), and every upload older than `before` (abandoned reviews). */
export async function deleteProgramUploads(db: Db, id: string | null, before: number): Promise<void> {
  let query = db.deleteFrom('program_uploads').where('uploaded_at', '<', before);
  if (id !== null) query = db.deleteFrom('program_uploads').where((eb) => eb.or([eb('id', '=', id), eb('uploaded_at', '<', before)]));
  await query.execute();
}

/** The reads of versions and uploads. */
export const PROGRAM_VERSION_READS = { listProgramVersions, latestProgramVersion, findProgramVersion, findProgramUpload };

/** The writes of versions and uploads (inside a transaction). */
export const PROGRAM_VERSION_WRITES = { insertProgramVersion, lockProgram, insertProgramUpload, deleteProgramUploads };
