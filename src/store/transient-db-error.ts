/**
 * Database failures that waiting mends, one list for both places that wait: a request answers them with a retryable
 * 503 (src/http/error-handler.ts), and `apas serve` tries opening the database again (src/cli/startup-failure.ts).
 * Each used to keep its own list; this is their union, less what only one of them got wrong:
 * - the network's: refused, reset, timed out, a broken pipe, host or network unreachable, the host down (EHOSTDOWN,
 *   only the start-up knew it), and a name that does not resolve yet (ENOTFOUND, EAI_AGAIN: a database host whose
 *   name appears only once its container starts, and which a request may meet while it is being replaced);
 * - PostgreSQL shutting down, crashed or starting up (57P01-57P03; the start-up knew only 57P03, but a server that
 *   restarts during the migrations is back after a wait too), too many connections (53300), and the connection
 *   failures 08000, 08001, 08003, 08004 and 08006 (the start-up took every 08 code, but 08007, a transaction whose
 *   outcome is unknown, and 08P01, a protocol violation, do not mend by waiting);
 * - SQLite's lock held by another connection or process (SQLITE_BUSY, SQLITE_LOCKED; the start-up knew only BUSY).
 * A request's transaction was rolled back, so nothing was half done; a COMMIT whose connection was lost is told apart
 * in guarded-pool.ts (COMMIT_UNCONFIRMED).
 */
export const TRANSIENT_DB_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENOTFOUND', 'EAI_AGAIN',
  '57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006',
  'SQLITE_BUSY', 'SQLITE_LOCKED',
]);

/** True when `error` carries one of TRANSIENT_DB_CODES: worth trying again after a short wait. */
export function isTransientDbError(error: unknown): boolean {
  return TRANSIENT_DB_CODES.has(String((error as { code?: unknown } | null)?.code ?? ''));
}
