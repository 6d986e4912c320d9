import { type Kysely, sql } from 'kysely';
import { ApiError } from '../domain/api-error.ts';
import { type Clock, systemClock } from '../domain/clock.ts';
import type { Program, ProgramModel } from '../domain/model.ts';
import * as accounts from './account-queries.ts';
import * as attachments from './attachment-queries.ts';
import * as blobChunks from './blob-chunk-queries.ts';
import * as bulk from './bulk-queries.ts';
import * as inquiries from './inquiry-queries.ts';
import * as mfa from './mfa-queries.ts';
import type { Dialect, OpenDatabase } from './database.ts';
import * as programs from './program-queries.ts';
import * as projects from './project-queries.ts';
import * as searches from './search-queries.ts';
import { MAX_WRITE_TRANSACTION_MS, type Store, type StoreReader, type StoreWriter } from './store.ts';
import type { Database } from './tables.ts';

type Cache = Map<string, { updatedAt: number; model: ProgramModel }>;

function reader(db: Kysely<Database>, cache: Cache, shareLoads = true): StoreReader {
  return {
    findAgency: (ref) => accounts.findAgency(db, ref),
    listAgencies: () => accounts.listAgencies(db),
    findUserByEmail: (email) => accounts.findUserByEmail(db, email),
    findUserById: (id) => accounts.findUserById(db, id),
    usersByIds: (ids) => accounts.usersByIds(db, ids),
    findApiKey: (id) => accounts.findApiKey(db, id),
    listApiKeys: (userId) => accounts.listApiKeys(db, userId),
    listGrants: (userId) => accounts.listGrants(db, userId),
    findGrant: (userId, programId) => accounts.findGrant(db, userId, programId),
    findProgram: (ref, agencyId) => programs.findProgram(db, ref, agencyId),
    listPrograms: (agencyId) => programs.listPrograms(db, agencyId),
    loadProgramModel: (program) => cachedModel(db, cache, program, shareLoads),
    loadProgramDefinition: (programId) => programs.loadProgramDefinition(db, programId),
    getProject: (programId, projectId) => projects.getProject(db, programId, projectId),
    listProjects: (q) => projects.listProjects(db, q),
    findProjectsByNumbers: (programId, numbers, ownerId) => projects.findProjectsByNumbers(db, programId, numbers, ownerId),
    searchProjects: (search) => searches.searchProjects(db, search),
    countProjectsInStatuses: (ids) => projects.countProjectsInStatuses(db, ids),
    getDraft: (projectId, formId) => projects.getDraft(db, projectId, formId),
    getValues: (projectId, fieldIds) => projects.getValues(db, projectId, fieldIds),
    getAllValues: (projectId) => projects.getAllValues(db, projectId),
    getHistory: (projectId) => projects.getHistory(db, projectId),
    getAttachment: (projectId, definitionId, version) => attachments.getAttachment(db, projectId, definitionId, version),
    listActiveAttachments: (projectId) => attachments.listActiveAttachments(db, projectId),
    isBlobReferenced: (blobKey) => attachments.isBlobReferenced(db, blobKey),
    listAudit: (filter) => projects.listAudit(db, filter),
    getMfa: (userId) => mfa.getMfa(db, userId),
    getSessionToken: (id) => mfa.getSessionToken(db, id),
    getWebSession: (id) => mfa.getWebSession(db, id),
    peekRequestCount: (bucket, windowStart) => projects.peekRequestCount(db, bucket, windowStart),
    listInquiryThreads: (projectId) => inquiries.listThreads(db, projectId),
    getInquiryThread: (projectId, threadId) => inquiries.getThread(db, projectId, threadId),
    findInquiryThreadByExternalId: (programId, externalId) => inquiries.findThreadByExternalId(db, programId, externalId),
    listInquiryNotes: (threadId) => inquiries.listNotes(db, threadId),
    listVisibleInquiryNotes: (projectId) => inquiries.listVisibleNotes(db, projectId),
  };
}

function writer(db: Kysely<Database>, cache: Cache): StoreWriter {
  return {
    ...reader(db, cache, false),
    insertAgency: (agency, at) => accounts.insertAgency(db, agency, at),
    insertUser: (user, hash, at) => accounts.insertUser(db, user, hash, at),
    updateUser: (id, changes, at) => accounts.updateUser(db, id, changes, at),
    insertApiKey: (key) => accounts.insertApiKey(db, key),
    revokeApiKey: (id, at) => accounts.revokeApiKey(db, id, at),
    setGrant: (grant) => accounts.setGrant(db, grant),
    deleteGrant: (userId, programId) => accounts.deleteGrant(db, userId, programId),
    saveProgramDefinition: (rows) => programs.saveProgramDefinition(db, rows),
    insertProject: (p) => projects.insertProject(db, p),
    updateProject: (id, version, changes) => projects.updateProject(db, id, version, changes),
    upsertDraft: (projectId, formId, values) => projects.upsertDraft(db, projectId, formId, values),
    upsertValues: (projectId, formId, values) => projects.upsertValues(db, projectId, formId, values),
    insertSubmission: (row) => projects.insertSubmission(db, row),
    insertHistory: (entry) => projects.insertHistory(db, entry),
    setHistoryReportAs: (entryId, reportAs) => projects.setHistoryReportAs(db, entryId, reportAs),
    takeProjectNumber: (programId) => projects.takeProjectNumber(db, programId),
    audit: (entry, at, id) => projects.audit(db, entry, at, id),
    insertAttachment: (attachment) => attachments.insertAttachment(db, attachment),
    updateAttachmentReview: (id, review) => attachments.updateAttachmentReview(db, id, review),
    countRequest: (bucket, windowStart) => projects.countRequest(db, bucket, windowStart),
    saveMfa: (userId, secret, at) => mfa.saveMfa(db, userId, secret, at),
    deleteMfa: (userId) => mfa.deleteMfa(db, userId),
    claimTotpStep: (userId, step) => mfa.claimTotpStep(db, userId, step),
    replaceSessionToken: (token) => mfa.replaceSessionToken(db, token),
    deleteSessionToken: (userId, id) => mfa.deleteSessionToken(db, userId, id),
    insertWebSession: (session) => mfa.insertWebSession(db, session),
    insertInquiryThread: (thread) => inquiries.insertThread(db, thread),
    updateInquiryThread: (id, changes) => inquiries.updateThread(db, id, changes),
    insertInquiryNote: (note) => inquiries.insertNote(db, note),
  };
}

// Program definitions change rarely and are read by nearly every request; programs.updated_at
// (read fresh each time) tells every instance when its cached copy is stale.
async function cachedModel(db: Kysely<Database>, cache: Cache, program: Program, share: boolean): Promise<ProgramModel> {
  const hit = cache.get(program.id);
  if (hit && hit.updatedAt === program.updatedAt) return hit.model;
  let current = program;
  // The definition is read in several queries; a save committed in between would mix two versions, so the
  // read is repeated until updated_at is the same before and after it.
  for (let attempt = 0; ; attempt++) {
    const model = await programs.loadProgramModel(db, current);
    const after = await programs.findProgram(db, current.id);
    if (!after) throw new Error(`program ${current.id} vanished while loading`);
    if (after.updatedAt === current.updatedAt || attempt >= 4) {
      // A transaction may see its own uncommitted definition, which a rollback undoes: only committed ones are shared.
      if (share && after.updatedAt === current.updatedAt) cache.set(program.id, { updatedAt: current.updatedAt, model });
      return model;
    }
    current = after;
  }
}

/** Options of a Store; tests pass a clock they move by hand. */
export interface KyselyStoreOptions {
  /** Times write transactions against MAX_WRITE_TRANSACTION_MS; the wall clock when left out. */
  clock?: Clock;
}

/** The Store over an open Kysely database (SQLite or PostgreSQL). */
export function createKyselyStore(opened: OpenDatabase, options: KyselyStoreOptions = {}): Store {
  const { db, dialect } = opened;
  const clock = options.clock ?? systemClock;
  const cache: Cache = new Map();
  const store: Store = {
    ...reader(db, cache),
    dialect: dialect as Dialect,
    transaction: (work) => db.transaction().execute(async (trx) => {
      const started = clock.now();
      const result = await work(writer(trx, cache));
      // Thrown inside the transaction, so the rollback and the client's error answer agree.
      const took = clock.now() - started;
      if (took > MAX_WRITE_TRANSACTION_MS) {
        throw new ApiError('SERVICE_UNAVAILABLE', `The change took too long (${took} ms) and was rolled back; nothing was changed, try again.`, {
          headers: { 'Retry-After': '1' },
        });
      }
      return result;
    }),
    countRequest: (bucket, windowStart) => projects.countRequest(db, bucket, windowStart),
    uncountRequest: (bucket, windowStart) => projects.uncountRequest(db, bucket, windowStart),
    claimTotpStep: (userId, step) => mfa.claimTotpStep(db, userId, step),
    bulkInsert: (batch) => bulk.bulkInsert(db, batch),
    reserveProjectNumbers: (programId, count) => bulk.reserveProjectNumbers(db, programId, count),
    sweepRequestCounts: async (windowStart) => {
      await db.deleteFrom('rate_limit_windows').where('window_start', '<', windowStart).execute();
    },
    writeBlobChunk: (blobKey, seq, data, at) => blobChunks.writeBlobChunk(db, blobKey, seq, data, at),
    readBlobChunk: (blobKey, seq) => blobChunks.readBlobChunk(db, blobKey, seq),
    deleteBlobChunks: (blobKey) => blobChunks.deleteBlobChunks(db, blobKey),
    listBlobKeys: (writtenBefore) => blobChunks.listBlobKeys(db, writtenBefore),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
  return store;
}
