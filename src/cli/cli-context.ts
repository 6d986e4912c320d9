import { type Config, loadConfig, withApplicationName } from '../config.ts';
import { type Clock, systemClock } from '../model/clock.ts';
import { type IdGenerator, RandomIdGenerator } from '../model/ids.ts';
import { type OpenDatabase, openDatabase } from '../store/database.ts';
import { createKyselyStore } from '../store/kysely-store.ts';
import { keyFileToMake, openSecretBox } from '../store/open-secret-box.ts';
import { lazySecretBox } from '../store/secret-box.ts';
import type { Store } from '../store/store.ts';
import { openFailure } from './open-failure.ts';
import type { ProgramChecker } from '../domain/programs/program-parts.ts';
import type { GrantFollower } from '../domain/accounts/grant-follower.ts';
import { programCheckers } from '../domain/wiring/program-checkers.ts';
import { grantFollowers } from '../domain/wiring/grant-followers.ts';

/** The process's streams and environment as the commands see them; tests can pass their own. */
export interface CliIo {
  /** Writes one line (a newline is added) to standard output. */
  out(text: string): void;
  /** Writes one line (a newline is added) to standard error. */
  err(text: string): void;
  /** All of standard input, as UTF-8. */
  readStdin(): Promise<string>;
  /** True when standard input is a terminal, where a secret would be typed in plain sight. */
  stdinIsTty: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** An open store plus what the domain services need, the program file checks the capabilities add among them. */
export interface CliContext { config: Config; store: Store; clock: Clock; ids: IdGenerator; checkers: readonly ProgramChecker[]; grantFollowers: readonly GrantFollower[] }

/** The real process: stdout, stderr, stdin and environment. */
export function processIo(): CliIo {
  return {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
      return Buffer.concat(chunks).toString('utf8');
    },
    stdinIsTty: process.stdin.isTTY === true,
    env: process.env,
    cwd: process.cwd(),
  };
}

async function open(config: Config): Promise<OpenDatabase> {
  try {
    return await openDatabase(withApplicationName(config.database, 'apas cli'), { poolSize: 2, connectTimeoutMs: config.db.connectTimeoutMs, preparedStatements: config.db.preparedStatements });
  } catch (error) {
    throw openFailure(config, error);
  }
}

/**
 * Opens the configured database (migrating it), runs `work`, and closes the database whatever happens. A missing
 * SQLite key file is made only for a database that holds no sealed value yet, unless `makeKeyFile` says it may be
 * made anyway (`apas secrets drop-unreadable`, which drops what a new key cannot open).
 */
export async function withContext<T>(io: CliIo, work: (ctx: CliContext) => Promise<T>, options: { makeKeyFile?: boolean } = {}): Promise<T> {
  const config = loadConfig(io.env);
  const opened = await open(config);
  let mayMake = true;
  // Loaded when a command first reads or writes a secret, so that the others need no key on PostgreSQL.
  const secrets = lazySecretBox(() => openSecretBox(config, (line) => io.err(line), mayMake));
  const store = createKyselyStore(opened, { secrets });
  try {
    if (!options.makeKeyFile && keyFileToMake(config) !== null) mayMake = !(await store.sealedValuesExist());
    return await work({ config, store, clock: systemClock, ids: new RandomIdGenerator(), checkers: programCheckers(), grantFollowers: grantFollowers() });
  } finally {
    await store.close();
  }
}
