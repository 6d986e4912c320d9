import { documentRequestReader, documentRequestRepository } from './document-request-queries.ts';
import { type Kysely, sql } from 'kysely';
import type { NewEvent } from '../model/event.ts';
import { type Clock, systemClock } from '../model/clock.ts';
import { accountReader, accountRepository } from './account-queries.ts';
import { agencyPolicyReader, agencyPolicyRepository } from './agency-policy-queries.ts';
import { accountTokenReader, accountTokenRepository } from './account-token-queries.ts';
import { attachmentReader, attachmentRepository } from './attachment-queries.ts';
import { auditReader, auditRepository } from './audit-queries.ts';
import { backlogReader } from './backlog-queries.ts';
import { blobChunkRepository } from './blob-chunk-queries.ts';
import { browserSessionRepository } from './browser-session-queries.ts';
import { bulkActionReader, bulkActionRepository } from './bulk-action-queries.ts';
import { bulkLoader } from './bulk-queries.ts';
import { type CounterRepository, counterRepository, SIGN_IN_BUCKET_PREFIX } from './counter-queries.ts';
import type { Dialect } from './dialect.ts';
import type { OpenDatabase } from './database.ts';
import { eventReader, eventRepository } from './event-queries.ts';
import { idempotencyReader, idempotencyRepository } from './idempotency-queries.ts';
import { inquiryReader, inquiryRepository } from './inquiry-queries.ts';
import { mailReader, mailRepository } from './mail-queries.ts';
import { deadlineReader, deadlineRepository } from './deadline-queries.ts';
import { mfaReader, mfaRepository } from './mfa-queries.ts';
import { oauthReader, oauthRepository } from './oauth-queries.ts';
import { type ProgramModelCache, programReader, programRepository } from './program-queries.ts';
import { dashboardReader, dashboardRepository, dashboardZoneKeeper } from './dashboard-queries.ts';
import { projectReader, type ProjectRepository, projectRepository } from './project-repository.ts';
import type { SecretBox } from './secret-box.ts';
import { resealSecrets } from './reseal-secrets.ts';
import { dropUnreadableSecrets, findUnreadableSecrets, sealedValuesExist } from './unreadable-secrets.ts';
import { DatabaseTimeoutError } from './guarded-pool.ts';
import { StoreError } from './store-error.ts';
import { MAX_WRITE_TRANSACTION_MS, type Store, type StoreWriter } from './store.ts';
import type { Database } from './tables.ts';
import { TopicCache } from './topic-cache.ts';
import { GroupPlans } from './access-group-plan.ts';
import { webhookReader, webhookRepository } from './webhook-queries.ts';
import { sealedProjectReader, sealedProjectRepository } from './sealed-field-values.ts';
import { resealFieldValues } from './reseal-field-values.ts';
import { sealedWebhookReader, sealedWebhookRepository } from './webhook-secrets.ts';
import { scheduleReader, scheduleRepository } from './schedule-queries.ts';
import { queueViewRepository } from './queue-view-queries.ts';
import { organizationReader, organizationRepository } from './organization-queries.ts';
import { envelopeReader, envelopeRepository } from './envelope-queries.ts';
import { signOnRepository } from './sign-on-queries.ts';
import { importReader, importRepository } from './import-queries.ts';

import { relationReader, relationRepository } from './relation-queries.ts';

import { connectionReader, connectionRepository } from './connection-queries.ts';

import { listRowReader, listRowRepository } from './list-row-queries.ts';

/** A transaction's projects: sensitive values sealed, and sealed or opened again when an import flips a field's mark. */
function projectWriter(db: Kysely<Database>, dialect: Dialect, secrets: SecretBox, plans: GroupPlans): ProjectRepository {
  return {
    ...sealedProjectRepository(projectRepository(db, dialect, plans), db, secrets),
    resealFields: async (fieldIds) => (await resealFieldValues(db, secrets, { rotate: false, countOnly: false, fieldIds })).resealed,
  };
}

// Each repository is built on first use: a transaction touches a few of them, and binding all of them cost a
// measurable share of every write (and of every round of background work) under load.
function writer(db: Kysely<Database>, dialect: Dialect, cache: ProgramModelCache, secrets: SecretBox, plans: GroupPlans, given: Partial<StoreWriter> = {}): StoreWriter {
  const builders: { [K in keyof StoreWriter]: () => StoreWriter[K] } = {
    accounts: () => accountRepository(db), programs: () => programRepository(db, cache), projects: () => projectWriter(db, dialect, secrets, plans),
    attachments: () => attachmentRepository(db), inquiries: () => inquiryRepository(db), mfa: () => mfaRepository(db, secrets),
    oauth: () => oauthRepository(db), audit: () => auditRepository(db), counters: () => counterRepository(db),
    sessions: () => browserSessionRepository(db), idempotency: () => idempotencyRepository(db), events: () => eventRepository(db, dialect),
    webhooks: () => sealedWebhookRepository(webhookRepository(db, dialect), secrets), mail: () => mailRepository(db, dialect), accountTokens: () => accountTokenRepository(db),
    backlog: () => backlogReader(db), deadlines: () => deadlineRepository(db),
    schedules: () => scheduleRepository(db),
    bulkActions: () => bulkActionRepository(db),
    queueViews: () => queueViewRepository(db, dialect),
    dashboards: () => dashboardRepository(db),
    organizations: () => organizationRepository(db),
    documents: () => documentRequestRepository(db, dialect),

    envelopes: () => envelopeRepository(db),
    signOn: () => signOnRepository(db, secrets),
    agencyPolicies: () => agencyPolicyRepository(db),
    imports: () => importRepository(db),

    relations: () => relationRepository(db),

    connections: () => connectionRepository(db, dialect, secrets),

    listRows: () => listRowRepository(db),
  };
  // Repositories handed in (a batch's step shares the batch's outbox and dashboard notes) are used as they are.
  const built: Partial<Record<keyof StoreWriter, unknown>> = { ...given };
  const tx = {} as StoreWriter;
  for (const name of Object.keys(builders) as (keyof StoreWriter)[]) {
    Object.defineProperty(tx, name, { enumerable: true, get: () => (built[name] ??= builders[name]()) });
  }
  return tx;
}

// Sign-in counts are read by every request (is the user or address locked?) and written only by failures, which
// change the `credentials` topic; other counts (the API's request counts) are read as they are.
function signInCountsCached(counters: CounterRepository, reads: TopicCache): CounterRepository {
  const cached = reads.wrap(counters, 'credentials', ['peekRequestCount']);
  return { ...counters, peekRequestCount: (bucket, window) => (bucket.startsWith(SIGN_IN_BUCKET_PREFIX) ? cached : counters).peekRequestCount(bucket, window) };
}

/** How long a readiness probe waits for the database by default. */
const PING_TIMEOUT_MS = 2_000;

/** Options of a Store; tests pass a clock they move by hand. */
export interface KyselyStoreOptions {
  /** Times write transactions against MAX_WRITE_TRANSACTION_MS and ages kept access-group plans; the wall clock when left out. */
  clock?: Clock;
  /** Seals the secrets stored for reading back (TOTP, webhook signing secrets); see openSecretBox. */
  secrets: SecretBox;
}

/** The Store over an open Kysely database (SQLite or PostgreSQL). */
export function createKyselyStore(opened: OpenDatabase, options: KyselyStoreOptions): Store {
  const { db, dialect, changes } = opened;
  const { secrets } = options;
  const clock = options.clock ?? systemClock;
  const cache: ProgramModelCache = new Map();
  // How lists limited to access groups read them, counted per program and groups and kept a minute by `clock`.
  const plans = new GroupPlans(clock);
  // The reads of every authenticated request (credentials, grants, sign-in counters) and of the program it names,
  // kept until the change signal says their tables changed; reads inside a transaction always go to the database.
  const reads = new TopicCache(changes);
  const eventListeners = new Set<() => void>();
  // A write transaction's connection is bounded by its 30 s from the moment it is asked for: on PostgreSQL each of its
  // statements then gets only the time left, so that a database that stops answering cannot hold the change (and its
  // client) past the limit either (guarded-pool.ts); the wall clock, whatever `clock` says.
  const writes = opened.bounded(MAX_WRITE_TRANSACTION_MS);
  return {
    dialect,
    accounts: reads.wrap(reads.wrap(accountReader(db), 'credentials', ['findUserByEmail', 'findUserById', 'findApiKey', 'listGrants']), 'programs', ['findAgency']),
    programs: reads.wrap(programReader(db, cache), 'programs', ['findProgram', 'listPrograms']),
    projects: sealedProjectReader(projectReader(db, plans), secrets), attachments: attachmentReader(db), inquiries: inquiryReader(db),
    mfa: reads.wrap(mfaReader(db, secrets), 'credentials', ['getMfa', 'getSessionToken', 'getWebSession']), audit: auditReader(db),
    oauth: reads.wrap(oauthReader(db), 'credentials', ['findClient', 'findAccessToken']),
    counters: signInCountsCached(counterRepository(db), reads), sessions: browserSessionRepository(db),
    idempotency: idempotencyReader(db), events: eventReader(db), mail: mailReader(db), accountTokens: accountTokenReader(db),
    webhooks: sealedWebhookReader(webhookReader(db), secrets), backlog: backlogReader(db), deadlines: deadlineReader(db),
    schedules: scheduleReader(db),
    bulkActions: bulkActionReader(db),
    queueViews: queueViewRepository(db, dialect),
    // A caller's organizations decide which projects it sees: cached like its grants, dropped by any membership change.
    organizations: reads.wrap(organizationReader(db), 'credentials', ['organizationIdsOf']),
    blobs: blobChunkRepository(db), bulk: bulkLoader(db, secrets),
    dashboards: dashboardReader(db),
    documents: documentRequestReader(db),

    envelopes: envelopeReader(db),
    // Who may sign in with a password, and the sign-in page's providers: read by every staff sign-in and page view.
    signOn: reads.wrap(signOnRepository(db, secrets), 'credentials', ['findPolicy', 'listEnabled']),
    agencyPolicies: agencyPolicyReader(db),
    imports: importReader(db),

    relations: relationReader(db),

    connections: connectionReader(db, secrets),

    listRows: listRowReader(db),
    dashboardZones: dashboardZoneKeeper(db, dialect),
    transaction: async (work, options = {}) => {
      let wrote = 0;
      // A bound of its own (an operator's big import) gets connections bounded to it; every other caller the 30 s.
      const limit = options.maxMs ?? MAX_WRITE_TRANSACTION_MS;
      const connection = limit === MAX_WRITE_TRANSACTION_MS ? writes : opened.bounded(limit);
      const result = await connection.transaction().execute(async (trx) => {
        const started = clock.now();
        const tx = writer(trx, dialect, cache, secrets, plans);
        const out = await work(tx);
        // The dashboards' counts of the projects the work changed, in this transaction: never stale.
        await tx.dashboards.flush();
        // Last, so that on PostgreSQL the lock that orders the outbox is held only through the commit.
        wrote = await tx.events.flush();
        // Thrown inside the transaction, so the rollback and the client's error answer agree.
        const took = clock.now() - started;
        if (took > limit) throw new StoreError('TRANSACTION_TOO_LONG', `The change took too long (${took} ms) and was rolled back`);
        return out;
      });
      if (wrote > 0) for (const listener of [...eventListeners]) listener();
      return result;
    },
    batch: async (work) => {
      let wrote = 0;
      const result = await writes.transaction().execute(async (trx) => {
        const started = clock.now();
        const outer = writer(trx, dialect, cache, secrets, plans);
        let steps = 0;
        const step = async <R>(inner: (tx: StoreWriter) => Promise<R>): Promise<R> => {
          const name = sql.raw(`step_${++steps}`);
          await sql`savepoint ${name}`.execute(trx);
          // The step's events wait in its own list and join the batch's only when it is done, so that a step rolled
          // back leaves none behind; the dashboards are refreshed from the rows as they are at the batch's end.
          const pending: NewEvent[] = [];
          const events = { ...outer.events, append: (event: NewEvent) => void pending.push(event) };
          const tx = writer(trx, dialect, cache, secrets, plans, { events, dashboards: outer.dashboards });
          try {
            const out = await inner(tx);
            await sql`release savepoint ${name}`.execute(trx);
            for (const event of pending) outer.events.append(event);
            return out;
          } catch (error) {
            await sql`rollback to savepoint ${name}`.execute(trx);
            await sql`release savepoint ${name}`.execute(trx);
            throw error;
          }
        };
        const out = await work(step, outer);
        await outer.dashboards.flush();
        // Last, as in a transaction: on PostgreSQL the lock that orders the outbox is held only through the commit.
        wrote = await outer.events.flush();
        const took = clock.now() - started;
        if (took > MAX_WRITE_TRANSACTION_MS) throw new StoreError('TRANSACTION_TOO_LONG', `The change took too long (${took} ms) and was rolled back`);
        return out;
      });
      if (wrote > 0) for (const listener of [...eventListeners]) listener();
      return result;
    },
    exclusively: opened.exclusively,
    onEventsCommitted: (listener) => {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    resealSecrets: (mode) => resealSecrets(db, secrets, mode),
    sealedValuesExist: () => sealedValuesExist(db),
    unreadableSecrets: (keys) => findUnreadableSecrets(db, keys === undefined ? secrets : keys),
    dropUnreadableSecrets: (ctx) => dropUnreadableSecrets(db, secrets, ctx),
    ping: (timeoutMs = PING_TIMEOUT_MS) => {
      // Reads the schema (not just `select 1`), so that SQLite touches the file; bounded, so a database that does not
      // answer is reported in time (the abandoned query ends by its own deadline).
      const probe = sql`select count(*) from kysely_migration`.execute(opened.bounded(timeoutMs)).then(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new DatabaseTimeoutError(`The database did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
      return Promise.race([probe, late]).finally(() => clearTimeout(timer));
    },
    close: async () => {
      await changes.close();
      await db.destroy();
    },
  };
}

