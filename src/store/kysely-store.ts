import { type Kysely, sql } from 'kysely';
import { type Clock, systemClock } from '../model/clock.ts';
import { accountReader, accountRepository } from './account-queries.ts';
import { attachmentReader, attachmentRepository } from './attachment-queries.ts';
import { auditReader, auditRepository } from './audit-queries.ts';
import { blobChunkRepository } from './blob-chunk-queries.ts';
import { browserSessionRepository } from './browser-session-queries.ts';
import { bulkLoader } from './bulk-queries.ts';
import { counterRepository } from './counter-queries.ts';
import type { Dialect, OpenDatabase } from './database.ts';
import { inquiryReader, inquiryRepository } from './inquiry-queries.ts';
import { mfaReader, mfaRepository } from './mfa-queries.ts';
import { type ProgramModelCache, programReader, programRepository } from './program-queries.ts';
import { projectReader, projectRepository } from './project-repository.ts';
import { StoreError } from './store-error.ts';
import { MAX_WRITE_TRANSACTION_MS, type Store, type StoreWriter } from './store.ts';
import type { Database } from './tables.ts';

function writer(db: Kysely<Database>, dialect: Dialect, cache: ProgramModelCache): StoreWriter {
  return {
    accounts: accountRepository(db), programs: programRepository(db, cache), projects: projectRepository(db, dialect),
    attachments: attachmentRepository(db), inquiries: inquiryRepository(db), mfa: mfaRepository(db), audit: auditRepository(db),
    counters: counterRepository(db), sessions: browserSessionRepository(db),
  };
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
  const cache: ProgramModelCache = new Map();
  return {
    dialect,
    accounts: accountReader(db), programs: programReader(db, cache), projects: projectReader(db), attachments: attachmentReader(db),
    inquiries: inquiryReader(db), mfa: mfaReader(db), audit: auditReader(db), counters: counterRepository(db), sessions: browserSessionRepository(db),
    blobs: blobChunkRepository(db), bulk: bulkLoader(db),
    transaction: (work) => db.transaction().execute(async (trx) => {
      const started = clock.now();
      const result = await work(writer(trx, dialect, cache));
      // Thrown inside the transaction, so the rollback and the client's error answer agree.
      const took = clock.now() - started;
      if (took > MAX_WRITE_TRANSACTION_MS) throw new StoreError('TRANSACTION_TOO_LONG', `The change took too long (${took} ms) and was rolled back`);
      return result;
    }),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
