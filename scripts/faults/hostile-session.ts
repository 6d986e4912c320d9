import type { FastifyInstance } from 'fastify';
import { type Config, loadConfig } from '../../src/config.ts';
import { systemClock } from '../../src/model/clock.ts';
import { seedDemo } from '../../src/domain/programs/demo.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { buildApp } from '../../src/http/app.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createKyselyStore } from '../../src/store/kysely-store.ts';
import { ephemeralSecretBox } from '../../src/store/secret-box.ts';
import { createSchemaRegistry } from '../../src/xml/schema-registry.ts';
import { NS } from './api-client.ts';
import { createFaultDatabase, type FaultDatabase, type FaultDialect } from './fault-database.ts';
import { type HostileReport, type HostileRunOptions, prepareTargets, runHostile, stillServing } from './hostile-run.ts';
import { injectSender, type Sender, socketSender } from './hostile-senders.ts';
import { type ServerProcess, startServer } from './server-process.ts';
import { serverErrors } from './server-errors.ts';
import { compareSnapshots, snapshotState } from './state-snapshot.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';

/** A hostile run with its checks around it: state unchanged, still serving, nothing logged as an error. */
export interface HostileSessionReport extends HostileReport {
  /** Tables whose content changed during the run (must be none). */
  stateChanges: string[];
  /** Problems after the run: not ready, GetPrograms failing, errors in the server log. */
  afterwards: string[];
}

/** Where the requests go: an app built in this process (Fastify inject), or a spawned server over TCP. */
export type HostileTransport = 'inject' | 'socket';

/** The limits the fault runs' servers have (the defaults), which some hostile requests exceed on purpose. */
const LIMITS = { bodyLimit: 1024 * 1024, maxNumbers: 1000 };

/**
 * Runs `count` hostile requests against a fresh database with the demo: prepares the targets, snapshots every
 * table, sends, snapshots again, and checks that the service still serves. The database is dropped afterwards.
 */
export async function runHostileSession(
  transport: HostileTransport, dialect: FaultDialect, options: Pick<HostileRunOptions, 'count' | 'seed' | 'concurrency' | 'log'>,
): Promise<HostileSessionReport> {
  const db = await createFaultDatabase(dialect);
  const schemas = createSchemaRegistry(NS);
  let close: () => Promise<void> = async () => {};
  try {
    const target = transport === 'inject' ? await inProcess(db) : await spawned(db);
    close = target.close;
    const targets = await prepareTargets(target.send, LIMITS);
    const before = await snapshotState(db.config);
    const report = await runHostile({ ...options, send: target.send, targets, schemas });
    const after = await snapshotState(db.config);
    const afterwards = [...(await stillServing(target.send)), ...target.errors()];
    return { ...report, stateChanges: compareSnapshots(before, after), afterwards };
  } finally {
    await close();
    schemas.dispose();
    await db.drop();
  }
}

interface Target { send: Sender; errors: () => string[]; close: () => Promise<void> }

async function inProcess(db: FaultDatabase): Promise<Target> {
  const config: Config = loadConfig({
    DATABASE_URL: db.url, APAS_LOG_LEVEL: 'silent', APAS_RATE_LIMIT_MAX: '10000000',
    APAS_SIGNIN_LOCK_USER_AFTER: '1000000', APAS_SIGNIN_LOCK_ADDRESS_AFTER: '1000000', APAS_SIGNIN_ACCOUNT_SLOW_AFTER: '1000000',
  });
  const store = createKyselyStore(await openDatabase(config.database), { secrets: ephemeralSecretBox() });
  await seedDemo({ store, clock: systemClock, ids: new RandomIdGenerator(), checkers: programCheckers() });
  // Failed sign-ins are slowed down by sleeping; in process the sleep is skipped so a run takes seconds.
  const app: FastifyInstance = await buildApp({ config, store, logger: false, sleep: async () => {} });
  return {
    send: injectSender(app), errors: () => [],
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

async function spawned(db: FaultDatabase): Promise<Target> {
  const server: ServerProcess = await startServer({ databaseUrl: db.url, name: 'hostile target' });
  const socket = socketSender(server.origin, 16);
  return {
    send: socket.send,
    errors: () => [
      ...(server.alive() ? [] : ['the server process died']),
      ...serverErrors(server.log()).map((line) => `server logged an error: ${line}`),
    ],
    close: async () => {
      socket.close();
      await server.stop();
    },
  };
}
