import { createHash } from 'node:crypto';
import type { DatabaseConfig } from '../../src/config.ts';
import { openSqlReader } from './sql-reader.ts';

/** Row count and content digest of every table that holds state. */
export type StateSnapshot = Record<string, { rows: number; digest: string }>;

// Request and failed-sign-in counters change with every request by design; migrations are not state.
// event_cursors is the background consumers' bookkeeping: they catch up with events written before the run (the demo's
// changes) at their own pace; the events themselves are state and are compared.
const NOT_STATE = new Set(['rate_limit_windows', 'kysely_migration', 'kysely_migration_lock', 'event_cursors']);
// When a credential was last used or a user last signed in (migration 048) is marked by any authenticated request, an
// aborted one too, as the console shows it; it is a usage mark, not the state a request could half-write.
const USAGE_MARKS = new Set(['last_used_at', 'last_sign_in_at']);

/** Reads every table (but the counters) whole and digests it, so that any changed, added or removed row shows. */
export async function snapshotState(config: DatabaseConfig): Promise<StateSnapshot> {
  const sql = await openSqlReader(config);
  try {
    const tables = config.kind === 'sqlite'
      ? await sql.all<{ name: string }>(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`)
      : await sql.all<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`);
    const out: StateSnapshot = {};
    for (const { name } of tables.sort((a, b) => a.name.localeCompare(b.name))) {
      if (NOT_STATE.has(name)) continue;
      const rows = (await sql.all(`select * from "${name.replace(/"/g, '""')}"`)).map(canonical).sort();
      out[name] = { rows: rows.length, digest: createHash('sha256').update(rows.join('\n')).digest('hex') };
    }
    return out;
  } finally {
    await sql.close();
  }
}

function canonical(row: Record<string, unknown>): string {
  return JSON.stringify(Object.keys(row).filter((k) => !USAGE_MARKS.has(k)).sort().map((k) => [k, Buffer.isBuffer(row[k]) ? (row[k] as Buffer).toString('base64') : row[k]]));
}

/** What differs between two snapshots, one line per table; empty when nothing changed. */
export function compareSnapshots(before: StateSnapshot, after: StateSnapshot): string[] {
  const out: string[] = [];
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[name];
    const b = after[name];
    if (!a || !b) out.push(`table ${name} ${a ? 'disappeared' : 'appeared'}`);
    else if (a.rows !== b.rows) out.push(`table ${name}: ${a.rows} rows before, ${b.rows} after`);
    else if (a.digest !== b.digest) out.push(`table ${name}: same ${a.rows} rows, but their content changed`);
  }
  return out;
}
