import type {
  Agency, AttachmentDefinition, AttachmentRecord, AuditEntry, CustomList, DataField, FieldValue, Form, HistoryEntry, Program,
  ProgramGrant, ProgramModel, Project, Status, User,
} from '../domain/model.ts';
import type { AttachmentReview } from './attachment-queries.ts';
import type { BulkBatch } from './bulk-queries.ts';
import type { Dialect } from './database.ts';
import type { CountedThread, ThreadChanges } from './inquiry-queries.ts';
import type { InquiryNote, InquiryThread } from '../domain/inquiry-thread.ts';

/** A user with the secret needed to check a password. */
export interface UserWithSecret extends User { passwordHash: string }

/** An API key record: its public id, the user it belongs to and its hashed secret. */
export interface ApiKeyRecord { id: string; userId: string; name: string; secretHash: string; createdAt: number; revokedAt: number | null }

/** A user's TOTP enrolment: the base-32 secret and the last time step accepted. */
export interface MfaEnrolment { userId: string; secret: string; enrolledAt: number; lastStep: number }

/** An MFA session token: only the SHA-256 of its secret is stored. */
export interface MfaSessionTokenRecord { id: string; userId: string; tokenHash: string; createdAt: number; expiresAt: number }

/** A web-page session of a user enrolled in MFA (the second factor of the landing page's cookie). */
export interface WebSessionRecord { id: string; userId: string; secretHash: string; createdAt: number; expiresAt: number }

/** Which projects of a program a listing may return, in creation order. */
export interface ProjectQuery {
  programId: string;
  /** Only projects owned by this user (applicants see their own projects only). */
  ownerId?: string;
  changedSince?: number;
  limit: number;
  offset: number;
}

/** One condition of GetProjectsByData on a submitted value, resolved to a field and how to compare it. */
export interface FieldCondition {
  fieldId: string;
  /** number: compared as numbers; text (and dates, as yyyy-MM-dd): as text; multi…: each value of a multi-value field. */
  kind: 'text' | 'number' | 'multi' | 'multiNumber';
  op: 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'contains' | 'empty' | 'notempty';
  content: string | null;
  number: number | null;
}

/** GetProjectsByData's filters resolved to ids, combined with AND, with paging. */
export interface ProjectSearch {
  programId: string;
  ownerId?: string;
  statusIn?: string[];
  statusNotIn?: string[];
  statusDates: { statusId: string; op: 'eq' | 'lt' | 'le' | 'gt' | 'ge'; at: number }[];
  fields: FieldCondition[];
  limit: number;
  offset: number;
}

/** Everything of a program definition that an import writes, keyed by generated ids. */
export interface ProgramDefinitionRows {
  program: Program & { createdAt: number };
  lists: CustomList[];
  statuses: Status[];
  fields: DataField[];
  forms: Form[];
}

/** Reads, usable inside and outside a transaction. */
export interface StoreReader {
  findAgency(ref: string): Promise<Agency | null>;
  listAgencies(): Promise<Agency[]>;
  findUserByEmail(email: string): Promise<UserWithSecret | null>;
  findUserById(id: string): Promise<UserWithSecret | null>;
  usersByIds(ids: string[]): Promise<User[]>;
  findApiKey(id: string): Promise<ApiKeyRecord | null>;
  listApiKeys(userId: string): Promise<ApiKeyRecord[]>;
  listGrants(userId: string): Promise<ProgramGrant[]>;
  findGrant(userId: string, programId: string): Promise<ProgramGrant | null>;
  /** A program by generated id, or by custom id within an agency (any agency when agencyId is null). */
  findProgram(ref: string, agencyId?: string | null): Promise<Program | null>;
  listPrograms(agencyId: string): Promise<Program[]>;
  /** The active definition (retired parts left out) of a program. */
  loadProgramModel(program: Program): Promise<ProgramModel>;
  /** Every definition row including retired ones, for imports that must keep generated ids stable. */
  loadProgramDefinition(programId: string): Promise<(ProgramDefinitionRows & { retired: string[] }) | null>;
  getProject(programId: string, projectId: string): Promise<Project | null>;
  listProjects(query: ProjectQuery): Promise<Project[]>;
  findProjectsByNumbers(programId: string, numbers: string[], ownerId?: string): Promise<Project[]>;
  /** GetProjectsByData: projects matching every filter, in creation order. */
  searchProjects(search: ProjectSearch): Promise<Project[]>;
  countProjectsInStatuses(statusIds: string[]): Promise<number>;
  getDraft(projectId: string, formId: string): Promise<FieldValue[]>;
  getValues(projectId: string, fieldIds: string[]): Promise<FieldValue[]>;
  /** Every submitted value of a project, with the form that last saved it. */
  getAllValues(projectId: string): Promise<(FieldValue & { formId: string })[]>;
  getHistory(projectId: string): Promise<HistoryEntry[]>;
  /** One version of a project's file for an attachment definition; the active (highest) one when `version` is left out. */
  getAttachment(projectId: string, definitionId: string, version?: number): Promise<AttachmentRecord | null>;
  /** The active file of every attachment definition of a project that has one. */
  listActiveAttachments(projectId: string): Promise<AttachmentRecord[]>;
  /** True when some attachment version points at the blob (the orphan sweep keeps it). */
  isBlobReferenced(blobKey: string): Promise<boolean>;
  getMfa(userId: string): Promise<MfaEnrolment | null>;
  getSessionToken(id: string): Promise<MfaSessionTokenRecord | null>;
  getWebSession(id: string): Promise<WebSessionRecord | null>;
  /** The count of a request-counting bucket in a window, without counting. */
  peekRequestCount(bucket: string, windowStart: number): Promise<number>;
  listAudit(filter: { projectId?: string; action?: string; limit?: number }): Promise<(AuditEntry & { at: number; id: string })[]>;
  /** A project's inquiry threads in creation order, with their note counts. */
  listInquiryThreads(projectId: string): Promise<CountedThread[]>;
  /** One inquiry thread of a project; null when the project has no such thread. */
  getInquiryThread(projectId: string, threadId: string): Promise<CountedThread | null>;
  /** The thread of a program that carries an external id, if any. */
  findInquiryThreadByExternalId(programId: string, externalId: string): Promise<InquiryThread | null>;
  /** A thread's notes, oldest first. */
  listInquiryNotes(threadId: string): Promise<InquiryNote[]>;
  /** The notes visible to the applicant of every thread of a project, by thread and oldest first. */
  listVisibleInquiryNotes(projectId: string): Promise<InquiryNote[]>;
}

/** Writes; only available inside a transaction, so every change commits with its audit row or not at all. */
export interface StoreWriter extends StoreReader {
  insertAgency(agency: Agency, createdAt: number): Promise<void>;
  insertUser(user: User, passwordHash: string, at: number): Promise<void>;
  updateUser(id: string, changes: { name?: string; passwordHash?: string; agencyAdmin?: boolean; disabled?: boolean }, at: number): Promise<void>;
  insertApiKey(key: ApiKeyRecord): Promise<void>;
  revokeApiKey(id: string, at: number): Promise<boolean>;
  setGrant(grant: ProgramGrant): Promise<void>;
  deleteGrant(userId: string, programId: string): Promise<boolean>;
  /** Creates or replaces a program definition; rows absent from `rows` but stored are marked retired. */
  saveProgramDefinition(rows: ProgramDefinitionRows): Promise<void>;
  insertProject(project: Project): Promise<void>;
  /** Applies changes if the project still has `expectedVersion`, bumping it; false when someone else won. */
  updateProject(
    id: string, expectedVersion: number,
    changes: Partial<Pick<Project, 'number' | 'statusId' | 'statusAt' | 'updatedAt' | 'updatedBy' | 'ownerId' | 'assigneeId'>>,
  ): Promise<boolean>;
  upsertDraft(projectId: string, formId: string, values: FieldValue[]): Promise<void>;
  upsertValues(projectId: string, formId: string, values: FieldValue[]): Promise<void>;
  insertSubmission(row: { id: string; projectId: string; formId: string; at: number; by: string }): Promise<void>;
  insertHistory(entry: HistoryEntry): Promise<void>;
  /** Changes how one history entry is reported; the entry itself (status, time, who) stays as it was. */
  setHistoryReportAs(entryId: string, reportAs: string): Promise<void>;
  /** Takes the next project number of a program; never returns the same number twice. */
  takeProjectNumber(programId: string): Promise<number>;
  audit(entry: AuditEntry, at: number, id: string): Promise<void>;
  /** Stores a new version of a project's file; the unique (project, definition, version) refuses a race. */
  insertAttachment(attachment: AttachmentRecord): Promise<void>;
  /** Records a review of one attachment version. */
  updateAttachmentReview(id: string, review: AttachmentReview): Promise<void>;
  /** Counts one request in a fixed window and returns the count so far. */
  countRequest(bucket: string, windowStart: number): Promise<number>;
  saveMfa(userId: string, secret: string, at: number): Promise<void>;
  deleteMfa(userId: string): Promise<boolean>;
  /** Records a TOTP time step as used; false when it or a later one was used before. */
  claimTotpStep(userId: string, step: number): Promise<boolean>;
  /** Stores a user's session token, deleting the user's earlier one. */
  replaceSessionToken(token: MfaSessionTokenRecord): Promise<void>;
  deleteSessionToken(userId: string, id: string): Promise<boolean>;
  /** Stores a web session, deleting the user's expired ones. */
  insertWebSession(session: WebSessionRecord): Promise<void>;
  insertInquiryThread(thread: InquiryThread): Promise<void>;
  /** Changes a thread's status or external id and stamps who changed it when. */
  updateInquiryThread(id: string, changes: ThreadChanges): Promise<void>;
  /** Appends a note after the thread's last one and returns it with its position. */
  insertInquiryNote(note: Omit<InquiryNote, 'seq'>): Promise<InquiryNote>;
}

/**
 * The longest a write transaction may run, from its start to its commit, in milliseconds. Work that took longer is
 * rolled back and refused with a retryable SERVICE_UNAVAILABLE, so a client never gets an error answer for a change
 * that committed, and a change never commits long after the time it was stamped with inside its transaction.
 * Generous, because waits for another transaction's row lock count: many changes of one project queue behind each
 * other, and on a loaded machine a short bound would refuse changes that were merely waiting their turn.
 */
export const MAX_WRITE_TRANSACTION_MS = 30_000;

/** The one persistence seam of the service, implemented with Kysely for SQLite and PostgreSQL. */
export interface Store extends StoreReader {
  readonly dialect: Dialect;
  /**
   * Runs `work` in one transaction: it commits when `work` resolves and rolls back when it throws. Work that ran
   * longer than MAX_WRITE_TRANSACTION_MS is rolled back with a retryable SERVICE_UNAVAILABLE.
   */
  transaction<T>(work: (tx: StoreWriter) => Promise<T>): Promise<T>;
  /** Counts a request outside any other transaction (rate limiting). */
  countRequest(bucket: string, windowStart: number): Promise<number>;
  /** Takes back one count of countRequest (never below zero), outside any other transaction. */
  uncountRequest(bucket: string, windowStart: number): Promise<void>;
  /** Records a TOTP time step as used (one atomic statement); false when it or a later one was used before. */
  claimTotpStep(userId: string, step: number): Promise<boolean>;
  /** Loads whole projects in one transaction, without per-row checks (benchmarks and data migrations). */
  bulkInsert(batch: BulkBatch): Promise<void>;
  /** Takes `count` consecutive project numbers of a program and returns the first. */
  reserveProjectNumbers(programId: string, count: number): Promise<number>;
  /** Deletes request counts of windows before `windowStart`. */
  sweepRequestCounts(windowStart: number): Promise<void>;
  /** Stores one chunk of a blob kept in the database; each chunk commits on its own, outside any transaction. */
  writeBlobChunk(blobKey: string, seq: number, data: Buffer, at: number): Promise<void>;
  /** One chunk of a blob kept in the database, or null past its last one. */
  readBlobChunk(blobKey: string, seq: number): Promise<Buffer | null>;
  /** Deletes every chunk of a blob kept in the database. */
  deleteBlobChunks(blobKey: string): Promise<void>;
  /** The keys of the blobs kept in the database whose writing began before `writtenBefore`. */
  listBlobKeys(writtenBefore: number): Promise<string[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type { AttachmentDefinition };
