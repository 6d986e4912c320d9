import pg from 'pg';
import { type ChangeCounts, type ChangeSignal, type ChangeTopic, TOPIC_TABLES } from './change-signal.ts';

/** The channel the triggers of migration 012 notify with the topic a committed write changed. */
export const CHANGE_CHANNEL = 'apas_changes';

const PING_MS = 5_000;
const RETRY_MS = 1_000;

function isTopic(payload: string | undefined): payload is ChangeTopic {
  return payload !== undefined && Object.hasOwn(TOPIC_TABLES, payload);
}

/**
 * PostgreSQL's signal: this process's writes (counted by WriteWatchPlugin) and every instance's committed writes,
 * which the triggers of migration 012 announce with NOTIFY on a connection of its own that LISTENs. While that
 * connection is down (not yet up, lost, or not answering its ping) the signal cannot tell and says null, so caches
 * read the database; when it is back, every topic counts as changed.
 */
export class PostgresChangeSignal implements ChangeSignal {
  #client: pg.Client | null = null;
  #live = false;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;
  #ping: NodeJS.Timeout | undefined;

  /** `connectTimeoutMs` bounds connecting and the LISTEN (0: no bound), so that start-up cannot hang on it. */
  constructor(private readonly counts: ChangeCounts, private readonly url: string, private readonly connectTimeoutMs = 0) {}

  /** Connects and listens; resolves once the first attempt has succeeded or failed (a failure is retried). */
  start(): Promise<void> {
    return this.#connect();
  }

  version(topic: ChangeTopic): number | null {
    return this.#live ? this.counts.of(topic) : null;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    clearInterval(this.#ping);
    const client = this.#client;
    this.#live = false;
    this.#client = null;
    await client?.end().catch(() => {});
  }

  async #connect(): Promise<void> {
    const bounds = this.connectTimeoutMs > 0 ? { connectionTimeoutMillis: this.connectTimeoutMs, query_timeout: this.connectTimeoutMs } : {};
    const client = new pg.Client({ connectionString: this.url, keepAlive: true, ...bounds });
    client.on('notification', (message) => (isTopic(message.payload) ? this.counts.bump(message.payload) : this.counts.bumpAll()));
    client.on('error', () => this.#lost(client));
    client.on('end', () => this.#lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      if (this.#closed) {
        await client.end();
        return;
      }
      this.#client = client;
      // Whatever happened before this connection listened is unknown: every cached entry is stale.
      this.counts.bumpAll();
      this.#live = true;
      this.#ping = setInterval(() => void this.#checkAlive(client), PING_MS);
      this.#ping.unref();
    } catch {
      this.#lost(client);
    }
  }

  // A connection that silently died would deliver nothing: a query that does not come back in time ends it.
  async #checkAlive(client: pg.Client): Promise<void> {
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer')), PING_MS).unref());
    try {
      await Promise.race([client.query('select 1'), timeout]);
    } catch {
      this.#lost(client);
    }
  }

  #lost(client: pg.Client): void {
    if (this.#client !== null && this.#client !== client) return;
    this.#live = false;
    this.#client = null;
    clearInterval(this.#ping);
    client.removeAllListeners('end');
    client.on('error', () => {});
    void client.end().catch(() => {});
    if (this.#closed || this.#retry) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      if (!this.#closed) void this.#connect();
    }, RETRY_MS);
    this.#retry.unref();
  }
}
