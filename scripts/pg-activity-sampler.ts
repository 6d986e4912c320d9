/**
 * Watches the test run's PostgreSQL from the side, so that a run where it takes far more CPU than usual says why: every
 * few seconds it reads pg_stat_activity and pg_stat_database, and at the end `report()` gives the most statements and
 * connections seen at once, the busiest interval's transactions per second, and the statements seen running longest.
 * (A CI run once spent 41 CPU-minutes in PostgreSQL against 4 on a developer's machine, and its output could not tell.)
 */
import pg from 'pg';

const INTERVAL_MS = 5000;
/** Statements running at least this long when sampled are remembered. */
const SLOW_MS = 1000;

interface Sample { active: number; connections: number; transactions: number; slow: { ms: number; query: string }[] }

/** Samples a PostgreSQL server until stopped; sampling failures are counted, never thrown into the test run. */
export class PgActivitySampler {
  readonly #client: pg.Client;
  #timer: NodeJS.Timeout | undefined;
  #busy = false;
  #failures = 0;
  #samples = 0;
  #peakActive = 0;
  #peakConnections = 0;
  #lastTransactions: { at: number; count: number } | undefined;
  #peakRate = 0;
  readonly #slow = new Map<string, { ms: number; seen: number }>();

  /** A sampler of the server at `url` (not yet connected). */
  constructor(url: string) {
    this.#client = new pg.Client({ connectionString: url, application_name: 'apas-test-sampler' });
    this.#client.on('error', () => this.#failures++);
  }

  /** Connects and samples every few seconds. */
  async start(): Promise<void> {
    await this.#client.connect();
    this.#timer = setInterval(() => void this.#tick(), INTERVAL_MS);
    this.#timer.unref();
  }

  /** Stops sampling and disconnects. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#client.end().catch(() => {});
  }

  /** What was seen, a line each; nothing when no sample was taken. */
  report(): string[] {
    if (this.#samples === 0) return [];
    const lines = [`PostgreSQL, sampled ${this.#samples} times: at most ${this.#peakActive} statements running and ${this.#peakConnections} connections at once, `
      + `at most ${this.#peakRate.toFixed(0)} transactions/s${this.#failures > 0 ? ` (${this.#failures} samples failed)` : ''}`];
    const slow = [...this.#slow].sort((a, b) => b[1].ms - a[1].ms).slice(0, 5);
    if (slow.length > 0) lines.push(`PostgreSQL: the statements seen running longest (at least ${SLOW_MS} ms when sampled):`);
    for (const [query, s] of slow) lines.push(`  ${(s.ms / 1000).toFixed(1)} s, seen ${s.seen}×: ${query}`);
    return lines;
  }

  async #tick(): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    try {
      this.#record(await this.#sample());
    } catch {
      this.#failures++;
    } finally {
      this.#busy = false;
    }
  }

  async #sample(): Promise<Sample> {
    const activity = await this.#client.query<{ active: string; connections: string; slow: { ms: number; query: string }[] }>(`
      select count(*) filter (where state = 'active') as active, count(*) as connections,
        coalesce(json_agg(json_build_object('ms', extract(epoch from clock_timestamp() - query_start) * 1000, 'query', left(regexp_replace(query, '\\s+', ' ', 'g'), 200)))
          filter (where state = 'active' and clock_timestamp() - query_start >= make_interval(secs => ${SLOW_MS / 1000})), '[]') as slow
      from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()`);
    const stats = await this.#client.query<{ n: string }>('select coalesce(sum(xact_commit + xact_rollback), 0) as n from pg_stat_database');
    const row = activity.rows[0]!;
    return { active: Number(row.active), connections: Number(row.connections), transactions: Number(stats.rows[0]!.n), slow: row.slow };
  }

  #record(s: Sample): void {
    this.#samples++;
    this.#peakActive = Math.max(this.#peakActive, s.active);
    this.#peakConnections = Math.max(this.#peakConnections, s.connections);
    const now = performance.now();
    // Dropped databases take their counts with them, so a falling total is no rate.
    if (this.#lastTransactions && s.transactions >= this.#lastTransactions.count) {
      this.#peakRate = Math.max(this.#peakRate, (s.transactions - this.#lastTransactions.count) / ((now - this.#lastTransactions.at) / 1000));
    }
    this.#lastTransactions = { at: now, count: s.transactions };
    for (const { ms, query } of s.slow) {
      const known = this.#slow.get(query);
      this.#slow.set(query, { ms: Math.max(ms, known?.ms ?? 0), seen: (known?.seen ?? 0) + 1 });
    }
  }
}
