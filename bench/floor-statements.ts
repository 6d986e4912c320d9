/**
 * The statements behind each read scenario, for the floor server (floor-server.ts): each read is sent once through
 * an in-process app on the bench's database to warm its caches, then again while every SQL statement the database
 * driver runs is recorded with its parameters, so the floor repeats exactly what apas's steady state asks of the
 * database.
 */
import pg from 'pg';
import { openApp, watchStatements } from './in-process.ts';
import type { Scenario } from './scenario-types.ts';

/** One statement a read ran: its SQL text and parameters. */
export interface RecordedStatement { sql: string; params: unknown[] }

/** A read scenario's request and the statements apas ran for it. */
export interface FloorRead { method: string; url: string; body?: string; statements: RecordedStatement[] }

/** Whether the floor can stand in for a scenario: reads only (GETs and the POST searches), no chained steps. */
export function isRead(s: Scenario): boolean {
  return !s.steps && (s.method === 'GET' || /\/(ByNumber|ByData)\b/.test(s.url));
}

let recording: RecordedStatement[] | null = null;

// bigint parameters (none today) would not survive JSON; they are kept as numbers, which both drivers accept.
function plain(params: unknown[]): unknown[] {
  return params.map((p) => (typeof p === 'bigint' ? Number(p) : p));
}

function watchDrivers(): void {
  watchStatements((sql, params) => recording?.push({ sql, params: plain(params) }));
  const query = pg.Client.prototype.query as (...a: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (typeof args[0] === 'string') recording?.push({ sql: args[0], params: plain((args[1] as unknown[] | undefined) ?? []) });
    // A named statement (statement-names.ts) or one with its own time bound comes as a config object.
    else if (args[0] !== null && typeof args[0] === 'object' && typeof (args[0] as pg.QueryConfig).text === 'string') {
      const config = args[0] as pg.QueryConfig;
      recording?.push({ sql: config.text, params: plain(config.values ?? []) });
    }
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
}

/**
 * The statements apas runs for each read of `list` on the database at `url` (a SQLite file or a PostgreSQL URL), its
 * sealed values opened with `keyFile` (the server's).
 * Only reads are kept: a timer's write (the shared rate limit's flush) landing in the window is not the request's.
 */
export async function recordReads(url: string, list: Scenario[], keyFile?: string): Promise<FloorRead[]> {
  watchDrivers();
  // The server's key file, so that sealed values open: beside a SQLite file it is found by itself, not for PostgreSQL.
  const { app, close } = await openApp(url, ...(keyFile ? [keyFile] : []));
  try {
    const out: FloorRead[] = [];
    for (const s of list.filter(isRead)) {
      const request = { method: s.method as 'GET', url: s.url, headers: s.headers, ...(s.body ? { payload: s.body } : {}) };
      // The fewest of three: a write by the server process drops the caches of this one (SQLite's data_version).
      let statements: RecordedStatement[] | null = null;
      for (let i = 0; i < 3; i++) {
        recording = [];
        const res = await app.inject(request);
        const seen = recording.filter((r) => /^\s*(\/\*[^*]*\*\/\s*)?(select|with)\b/i.test(r.sql));
        recording = null;
        if (res.statusCode >= 300) throw new Error(`${s.name}: ${res.statusCode} in process: ${res.body.slice(0, 300)}`);
        if (!statements || seen.length < statements.length) statements = seen;
      }
      out.push({ method: s.method, url: s.url, ...(s.body ? { body: s.body } : {}), statements: statements! });
    }
    return out;
  } finally {
    recording = null;
    await close();
  }
}
