import type { AccountReader, AccountRepository } from './account-queries.ts';
import type { AgencyPolicyReader, AgencyPolicyRepository } from './agency-policy-queries.ts';
import type { AccountTokenReader, AccountTokenRepository } from './account-token-queries.ts';
import type { AttachmentReader, AttachmentRepository } from './attachment-queries.ts';
import type { AuditReader, AuditRepository } from './audit-queries.ts';
import type { BacklogReader } from './backlog-queries.ts';
import type { BlobChunkRepository } from './blob-chunk-queries.ts';
import type { BrowserSessionRepository } from './browser-session-queries.ts';
import type { BulkActionReader, BulkActionRepository } from './bulk-action-queries.ts';
import type { BulkLoader } from './bulk-queries.ts';
import type { DashboardZoneKeeper } from './dashboard-queries.ts';
import type { CounterRepository } from './counter-queries.ts';
import type { Dialect } from './dialect.ts';
import type { DashboardReader, DashboardRepository } from './dashboard-queries.ts';
import type { DeadlineReader, DeadlineRepository } from './deadline-queries.ts';
import type { DocumentRequestReader, DocumentRequestRepository } from './document-request-queries.ts';

import type { EnvelopeReader, EnvelopeRepository } from './envelope-queries.ts';
import type { EventReader, EventRepository } from './event-queries.ts';
import type { IdempotencyReader, IdempotencyRepository } from './idempotency-queries.ts';
import type { InquiryReader, InquiryRepository } from './inquiry-queries.ts';
import type { MailReader, MailRepository } from './mail-queries.ts';
import type { MfaReader, MfaRepository } from './mfa-queries.ts';
import type { OAuthReader, OAuthRepository } from './oauth-queries.ts';
import type { OrganizationReader, OrganizationRepository } from './organization-queries.ts';
import type { ProgramReader, ProgramRepository } from './program-queries.ts';
import type { ProjectReader, ProjectRepository } from './project-repository.ts';
import type { ResealMode, ResealReport } from './reseal-secrets.ts';
import type { DropContext, SealedValueReport } from './unreadable-secrets.ts';
import type { SecretBox } from './secret-box.ts';
import type { RelationReader, RelationRepository } from './relation-queries.ts';
import type { QueueViewRepository } from './queue-view-queries.ts';
import type { ScheduleReader, ScheduleRepository } from './schedule-queries.ts';
import type { WebhookReader, WebhookRepository } from './webhook-queries.ts';
import type { SignOnRepository } from './sign-on-queries.ts';
import type { ImportReader, ImportRepository } from './import-queries.ts';

import type { ConnectionReader, ConnectionRepository } from './connection-queries.ts';

import type { ListRowReader, ListRowRepository } from './list-row-queries.ts';

/** The repositories' reads, usable inside and outside a transaction (counters and claims are single statements). */
export interface StoreReader {
  readonly accounts: AccountReader;
  readonly programs: ProgramReader;
  readonly projects: ProjectReader;
  readonly attachments: AttachmentReader;
  readonly inquiries: InquiryReader;
  readonly mfa: MfaReader;
  readonly oauth: OAuthReader;
  readonly audit: AuditReader;
  readonly counters: CounterRepository;
  readonly sessions: BrowserSessionRepository;
  readonly idempotency: IdempotencyReader;
  readonly events: EventReader;
  readonly webhooks: WebhookReader;
  readonly mail: MailReader;
  readonly accountTokens: AccountTokenReader;
  /** Projects' deadlines (migration 026). */
  readonly deadlines: DeadlineReader;
  /** Scheduled automations' daily runs (migration 029). */
  readonly schedules: ScheduleReader;
  /** The work queue's saved views and kept needs-attention columns (migration 035). */
  readonly queueViews: QueueViewRepository;
  /** Organizations, their members and invitations (migration 037). */
  readonly organizations: OrganizationReader;
  /** How much mail and webhook work waits or failed (metrics, operators). */
  readonly backlog: BacklogReader;
  /** The work queue's bulk actions and their per-project results (migration 031). */
  readonly bulkActions: BulkActionReader;
  /** The dashboards' summary counts (migration 036). */
  readonly dashboards: DashboardReader;
  /** Requests to generate a program's documents for projects (migration 046). */
  readonly documents: DocumentRequestReader;

  /** E-signature envelopes, their signers, audit trails and signing links (migration 047). */
  readonly envelopes: EnvelopeReader;
  /** Agencies' single sign-on settings and the sign-ins under way (migration 051). */
  readonly signOn: SignOnRepository;
  /** Agencies' self-service policies (migration 052). */
  readonly agencyPolicies: AgencyPolicyReader;
  /** Projects' external ids, by which a data import finds the projects it made (migration 058). */
  readonly imports: ImportReader;

  /** Relations between projects (migration 056). */
  readonly relations: RelationReader;

  /** Connections' settings, allowed hosts and calls (migration 054). */
  readonly connections: ConnectionReader;

  /** The rows of long lists loaded from CSV files (migration 055). */
  readonly listRows: ListRowReader;
}

/** The repositories inside a transaction: reads and writes, so every change commits with its audit row or not at all. */
export interface StoreWriter extends StoreReader {
  readonly accounts: AccountRepository;
  readonly programs: ProgramRepository;
  readonly projects: ProjectRepository;
  readonly attachments: AttachmentRepository;
  readonly inquiries: InquiryRepository;
  readonly mfa: MfaRepository;
  readonly oauth: OAuthRepository;
  readonly audit: AuditRepository;
  readonly idempotency: IdempotencyRepository;
  /** The outbox: events appended in a transaction are written just before it commits. */
  readonly events: EventRepository;
  /** Webhook subscriptions and deliveries. */
  readonly webhooks: WebhookRepository;
  /** The queue of notification mails. */
  readonly mail: MailRepository;
  /** Mailed link tokens (sign-up confirmation, password reset). */
  readonly accountTokens: AccountTokenRepository;
  /** Projects' deadlines: started, ended and fired in their project's change. */
  readonly deadlines: DeadlineRepository;
  /** Scheduled automations' runs, and the per-project marks written in the project's change. */
  readonly schedules: ScheduleRepository;
  /** Bulk actions: recorded with their projects, each project's outcome set (`done` in its change's transaction). */
  readonly bulkActions: BulkActionRepository;
  /** The dashboards' summaries: changed projects are noted and refreshed just before the commit. */
  readonly dashboards: DashboardRepository;
  /** Organizations: created, members added and removed, invitations used. */
  readonly organizations: OrganizationRepository;
  /** Document requests: queued in the change that asks, claimed and settled by the generation task. */
  readonly documents: DocumentRequestRepository;

  /** Envelopes: sent, signed, declined, voided and completed in their project's change. */
  readonly envelopes: EnvelopeRepository;
  /** Agencies' self-service policies: set by agency admins with an audit row. */
  readonly agencyPolicies: AgencyPolicyRepository;
  /** Projects' external ids: recorded in the creation of an imported project. */
  readonly imports: ImportRepository;

  /** Relations between projects: made in the change step of the project they are made from. */
  readonly relations: RelationRepository;

  /** Connections: settings set by operators, calls queued in their change and settled by the connections task. */
  readonly connections: ConnectionRepository;

  /** Long lists' rows: replaced whole, with their program's updated_at moved. */
  readonly listRows: ListRowRepository;
}

/**
 * The longest a write transaction may run, from its start to its commit, in milliseconds. Work that took longer is
 * rolled back (StoreError TRANSACTION_TOO_LONG, answered with a retryable SERVICE_UNAVAILABLE), so a client never gets an error answer for a change
 * that committed, and a change never commits long after the time it was stamped with inside its transaction.
 * Generous, because waits for another transaction's row lock count: many changes of one project queue behind each
 * other, and on a loaded machine a short bound would refuse changes that were merely waiting their turn.
 */
export const MAX_WRITE_TRANSACTION_MS = 30_000;

/** How one write transaction is run: `maxMs` replaces MAX_WRITE_TRANSACTION_MS for this call only (an operator's big import). */
export interface TransactionOptions { maxMs?: number }

/** The one persistence seam of the service: a repository per aggregate, and transactions over them. */
export interface Store extends StoreReader {
  readonly dialect: Dialect;
  /** Blobs kept in the database (APAS_BLOB_STORE=database); each chunk commits on its own. */
  readonly blobs: BlobChunkRepository;
  /** Loads whole projects without per-row checks (benchmarks and data migrations). */
  readonly bulk: BulkLoader;
  /** Each program's dashboard counts in its calendar's time zone (migration 044), moved after an import changed it. */
  readonly dashboardZones: DashboardZoneKeeper;
  /**
   * Runs `work` in one transaction: it commits when `work` resolves and rolls back when it throws. Work that ran
   * longer than MAX_WRITE_TRANSACTION_MS (or `options.maxMs`) is rolled back with StoreError TRANSACTION_TOO_LONG.
   */
  transaction<T>(work: (tx: StoreWriter) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Runs `work` in one write transaction and hands it `step`, which runs a piece of it in a savepoint with a writer of
   * its own: a step that throws is rolled back alone with the events it appended; the others' events and the dashboard
   * counts of every project touched are written at the batch's end, before its one commit.
   * For many small changes that may share one commit (a data import); `tx` is the transaction, for reads between steps.
   */
  batch<T>(work: (step: <R>(inner: (tx: StoreWriter) => Promise<R>) => Promise<R>, tx: StoreWriter) => Promise<T>): Promise<T>;
  /** Calls `listener` after each commit, in this process, of a transaction that wrote events; returns its removal. */
  onEventsCommitted(listener: () => void): () => void;
  /**
   * Runs `work` while holding the lock `name`, which every instance on the same database takes in turn: on PostgreSQL
   * a session advisory lock on a connection of its own, outside the pool (released when `work` ends, or with the
   * connection); on SQLite, an exclusive transaction on a small file beside the database (sqlite-exclusive.ts), which
   * processes on one file take in turn. For start-up work that several instances would otherwise all do at once,
   * racing each other (seeding the demo).
   */
  exclusively<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** Seals stored secrets with the sealing key (those stored before encryption at rest, or all: key rotation), or only counts them. */
  resealSecrets(mode: ResealMode): Promise<ResealReport>;
  /** Whether any sealed value is stored at all (a database that holds none may be given a new key). */
  sealedValuesExist(): Promise<boolean>;
  /** Every sealed value tried with the configured keys (or `keys`; null: none at all): those that do not open, by kind. Reads only. */
  unreadableSecrets(keys?: SecretBox | null): Promise<SealedValueReport>;
  /** Drops the sealed values the configured keys do not open, with an audit row (unreadable-secrets.ts). */
  dropUnreadableSecrets(ctx: DropContext): Promise<SealedValueReport>;
  /** One round trip to the database; fails when it does not answer within `timeoutMs` (2 s). */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}
