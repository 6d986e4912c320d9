import type { Kysely } from 'kysely';
import { mfaSecretContext } from './mfa-queries.ts';
import { resealFieldValues } from './reseal-field-values.ts';
import type { SecretBox } from './secret-box.ts';
import type { Database } from './tables.ts';
import { webhookSecretContext } from './webhook-secrets.ts';
import { signOnSecretContext } from './sign-on-queries.ts';
import { connectionAuthContext, settingsRowId } from './connection-queries.ts';

/** What a pass over the stored secrets found and changed. */
export interface ResealReport {
  /** Values re-wrapped with the sealing key (or sealed for the first time). */
  resealed: number;
  /** Stored values per key id after the pass; `unsealed` counts values stored before encryption at rest. */
  byKey: Record<string, number>;
  /** Key ids that seal stored values but are not configured: those values cannot be read. */
  missingKeys: string[];
}

/** One column of secrets: how to list its rows, the context each value is sealed against, and how to write one back. */
interface SecretColumn {
  list(db: Kysely<Database>): Promise<{ id: string; value: string }[]>;
  context(id: string): string;
  write(db: Kysely<Database>, id: string, value: string): Promise<void>;
}

const COLUMNS: SecretColumn[] = [
  {
    list: (db) => db.selectFrom('user_mfa').select(['user_id as id', 'secret as value']).execute(),
    context: mfaSecretContext,
    write: async (db, id, value) => {
      await db.updateTable('user_mfa').set({ secret: value }).where('user_id', '=', id).execute();
    },
  },
  {
    list: (db) => db.selectFrom('webhook_subscriptions').select(['id', 'secret as value']).execute(),
    context: webhookSecretContext,
    write: async (db, id, value) => {
      await db.updateTable('webhook_subscriptions').set({ secret: value }).where('id', '=', id).execute();
    },
  },
  {
    list: async (db) => (await db.selectFrom('webhook_subscriptions').select(['id', 'previous_secret as value']).where('previous_secret', 'is not', null).execute())
      .map((r) => ({ id: r.id, value: r.value as string })),
    context: webhookSecretContext,
    write: async (db, id, value) => {
      await db.updateTable('webhook_subscriptions').set({ previous_secret: value }).where('id', '=', id).execute();
    },
  },
  {
    list: (db) => db.selectFrom('agency_sign_on').select(['agency_id as id', 'client_secret as value']).execute(),
    context: signOnSecretContext,
    write: async (db, id, value) => {
      await db.updateTable('agency_sign_on').set({ client_secret: value }).where('agency_id', '=', id).execute();
    },
  },
  {
    // A connection's sign-in (header secret, OAuth client secret, client certificate and key), one sealed JSON per row.
    list: async (db) => (await db.selectFrom('connection_settings').select(['program_id', 'connection_id', 'auth']).execute())
      .map((r) => ({ id: settingsRowId(r.program_id, r.connection_id), value: r.auth })),
    context: connectionAuthContext,
    write: async (db, id, value) => {
      const [programId, connectionId] = splitRowId(id);
      await db.updateTable('connection_settings').set({ auth: value }).where('program_id', '=', programId).where('connection_id', '=', connectionId).execute();
    },
  },
];

// A settings row's id is the program's id, "/", and the connection's customId (which holds no "/").
function splitRowId(id: string): [string, string] {
  const at = id.lastIndexOf('/');
  return [id.slice(0, at), id.slice(at + 1)];
}

/**
 * What to do with each stored secret: only count it, seal it if it was stored before encryption at rest (at start),
 * or also re-wrap it if an older key seals it (`apas secrets rotate`).
 */
export type ResealMode = 'count' | 'legacy' | 'all';

// The mark of a pass that left no value of a sensitive field in clear.
const VALUES_SEALED = 'sensitive-values-sealed';

/** Seals stored secrets as `mode` says and counts them per key. One transaction, so a failure changes nothing. */
export async function resealSecrets(db: Kysely<Database>, secrets: SecretBox, mode: ResealMode): Promise<ResealReport> {
  return db.transaction().execute(async (trx) => {
    let resealed = 0;
    const byKey: Record<string, number> = {};
    const missingKeys: string[] = [];
    for (const column of COLUMNS) {
      for (const row of await column.list(trx)) {
        const keyId = secrets.keyIdOf(row.value);
        if (keyId !== null && !secrets.hasKey(keyId)) {
          if (!missingKeys.includes(keyId)) missingKeys.push(keyId);
          continue;
        }
        const legacy = keyId === null;
        const next = mode === 'all' || (mode === 'legacy' && legacy) ? secrets.reseal(row.value, column.context(row.id)) : null;
        if (next !== null) {
          await column.write(trx, row.id, next);
          resealed++;
        }
        const key = secrets.keyIdOf(next ?? row.value) ?? 'unsealed';
        byKey[key] = (byKey[key] ?? 0) + 1;
      }
    }
    // Values of sensitive data fields, with their blind indexes (reseal-field-values.ts). Finding those left in clear
    // reads every value of those fields, so it is done once: every later write seals, and an import that marks a field
    // sensitive seals its values itself (resealFields).
    const sealedBefore = mode === 'legacy' && (await trx.selectFrom('maintenance_marks').select('name').where('name', '=', VALUES_SEALED).executeTakeFirst()) !== undefined;
    const fields = await resealFieldValues(trx, secrets, { rotate: mode === 'all', countOnly: mode === 'count', sampleOnly: sealedBefore });
    if (mode !== 'count' && !sealedBefore) {
      await trx.insertInto('maintenance_marks').values({ name: VALUES_SEALED, done_at: Date.now() }).onConflict((oc) => oc.column('name').doNothing()).execute();
    }
    for (const [key, n] of Object.entries(fields.byKey)) byKey[key] = (byKey[key] ?? 0) + n;
    for (const key of fields.missingKeys) if (!missingKeys.includes(key)) missingKeys.push(key);
    return { resealed: resealed + fields.resealed, byKey, missingKeys };
  });
}
