import type { Kysely, Selectable } from 'kysely';
import type { ConnectionAuth, ConnectionCall, ConnectionCallState, ConnectionSettings } from '../model/connection.ts';
import { bindDb } from './bind-db.ts';
import type { Dialect } from './dialect.ts';
import type { SecretBox } from './secret-box.ts';
import type { ConnectionCallTable, Database } from './tables.ts';

type Db = Kysely<Database>;

/** What a connection's sign-in secrets are sealed against: its row (program and connection). */
export function connectionAuthContext(id: string): string {
  return `connection_settings.auth:${id}`;
}

/** The one-column id of a settings row, for sealing and re-wrapping: program id and connection customId. */
export function settingsRowId(programId: string, connectionId: string): string {
  return `${programId}/${connectionId}`;
}

function toCall(r: Selectable<ConnectionCallTable>): ConnectionCall {
  return {
    id: r.id, programId: r.program_id, projectId: r.project_id, connectionId: r.connection_id, automation: r.automation, idempotencyKey: r.idempotency_key,
    state: r.state as ConnectionCallState, attempts: Number(r.attempts), nextAttemptAt: Number(r.next_attempt_at),
    leaseUntil: r.lease_until === null ? null : Number(r.lease_until), response: r.response, lastError: r.last_error,
    createdAt: Number(r.created_at), updatedAt: Number(r.updated_at),
  };
}

/** A program's connection settings, the sign-in secrets opened; null when the operator set none. */
async function findSettings(db: Db, secrets: SecretBox, programId: string, connectionId: string): Promise<ConnectionSettings | null> {
  const r = await db.selectFrom('connection_settings').selectAll().where('program_id', '=', programId).where('connection_id', '=', connectionId).executeTakeFirst();
  if (!r) return null;
  const auth = JSON.parse(secrets.open(r.auth, connectionAuthContext(settingsRowId(programId, connectionId)))) as ConnectionAuth;
  return { programId, connectionId, url: r.url, auth, updatedAt: Number(r.updated_at) };
}

/** The connections of programs that have settings: address and kind of sign-in only (no secret is opened). */
async function listSettings(db: Db, programIds: string[]): Promise<{ programId: string; connectionId: string; url: string; updatedAt: number }[]> {
  if (programIds.length === 0) return [];
  const rows = await db.selectFrom('connection_settings').select(['program_id', 'connection_id', 'url', 'updated_at'])
    .where('program_id', 'in', programIds).orderBy('program_id').orderBy('connection_id').execute();
  return rows.map((r) => ({ programId: r.program_id, connectionId: r.connection_id, url: r.url, updatedAt: Number(r.updated_at) }));
}

/** Creates or replaces a connection's settings, the sign-in sealed. */
async function saveSettings(db: Db, secrets: SecretBox, s: ConnectionSettings, by: string | null): Promise<void> {
  const auth = secrets.seal(JSON.stringify(s.auth), connectionAuthContext(settingsRowId(s.programId, s.connectionId)));
  await db.insertInto('connection_settings').values({ program_id: s.programId, connection_id: s.connectionId, url: s.url, auth, updated_at: s.updatedAt, updated_by: by })
    .onConflict((oc) => oc.columns(['program_id', 'connection_id']).doUpdateSet({ url: s.url, auth, updated_at: s.updatedAt, updated_by: by })).execute();
}

/** Removes a connection's settings; true when there were some. */
async function deleteSettings(db: Db, programId: string, connectionId: string): Promise<boolean> {
  const r = await db.deleteFrom('connection_settings').where('program_id', '=', programId).where('connection_id', '=', connectionId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The hosts an agency's connections may reach, in order. */
async function listHosts(db: Db, agencyId: string): Promise<string[]> {
  return (await db.selectFrom('connection_hosts').select('host').where('agency_id', '=', agencyId).orderBy('host').execute()).map((r) => r.host);
}

/** Adds a host to an agency's allowlist (lower case); nothing when it is there. */
async function allowHost(db: Db, agencyId: string, host: string): Promise<void> {
  await db.insertInto('connection_hosts').values({ agency_id: agencyId, host }).onConflict((oc) => oc.doNothing()).execute();
}

/** Removes a host from an agency's allowlist; true when it was there. */
async function disallowHost(db: Db, agencyId: string, host: string): Promise<boolean> {
  const r = await db.deleteFrom('connection_hosts').where('agency_id', '=', agencyId).where('host', '=', host).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Records a call asked for in a change (in that change's transaction). */
async function insertCall(db: Db, c: ConnectionCall): Promise<void> {
  await db.insertInto('connection_calls').values({
    id: c.id, program_id: c.programId, project_id: c.projectId, connection_id: c.connectionId, automation: c.automation, idempotency_key: c.idempotencyKey,
    state: c.state, attempts: c.attempts, next_attempt_at: c.nextAttemptAt, lease_until: c.leaseUntil, response: c.response, last_error: c.lastError,
    created_at: c.createdAt, updated_at: c.updatedAt,
  }).execute();
}

async function getCall(db: Db, id: string): Promise<ConnectionCall | null> {
  const r = await db.selectFrom('connection_calls').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? toCall(r) : null;
}

/** A project's calls, oldest first. */
async function listProjectCalls(db: Db, projectId: string): Promise<ConnectionCall[]> {
  return (await db.selectFrom('connection_calls').selectAll().where('project_id', '=', projectId).orderBy('created_at').orderBy('id').execute()).map(toCall);
}

/** Claims queued calls that are due and not leased (SKIP LOCKED on PostgreSQL, so instances share them). */
async function claimDueCalls(db: Db, dialect: Dialect, now: number, leaseMs: number, limit: number): Promise<ConnectionCall[]> {
  let query = db.selectFrom('connection_calls').selectAll().where('state', '=', 'queued').where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
    .orderBy('next_attempt_at').orderBy('created_at').orderBy('id').limit(limit);
  if (dialect === 'postgres') query = query.forUpdate().skipLocked();
  const rows = await query.execute();
  if (rows.length === 0) return [];
  await db.updateTable('connection_calls').set({ lease_until: now + leaseMs }).where('id', 'in', rows.map((r) => r.id)).execute();
  return rows.map((r) => ({ ...toCall(r), leaseUntil: now + leaseMs }));
}

/** Keeps the answer a call read (before it is applied), so that a crash between the two applies it without asking again. */
async function keepResponse(db: Db, id: string, response: string, attempts: number, at: number): Promise<void> {
  await db.updateTable('connection_calls').set({ response, attempts, updated_at: at }).where('id', '=', id).where('state', '=', 'queued').execute();
}

/** Settles a call: applied or failed (in the change that applies or fails it), or queued again from `nextAttemptAt`. */
async function settleCall(db: Db, id: string, patch: { state: ConnectionCallState; attempts: number; lastError: string | null; nextAttemptAt?: number; at: number }): Promise<boolean> {
  const r = await db.updateTable('connection_calls').set({
    state: patch.state, attempts: patch.attempts, last_error: patch.lastError, lease_until: null, updated_at: patch.at,
    ...(patch.nextAttemptAt === undefined ? {} : { next_attempt_at: patch.nextAttemptAt }),
  }).where('id', '=', id).where('state', '=', 'queued').executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** What a lookup at save said of a field, kept (replacing the last) in the save's change. */
async function markLookup(db: Db, projectId: string, fieldId: string, state: string, message: string, at: number): Promise<void> {
  await db.insertInto('field_lookups').values({ project_id: projectId, field_id: fieldId, state, message, checked_at: at })
    .onConflict((oc) => oc.columns(['project_id', 'field_id']).doUpdateSet({ state, message, checked_at: at })).execute();
}

/** What the last lookups said of a project's fields. */
async function listLookups(db: Db, projectId: string): Promise<{ fieldId: string; state: string; message: string; checkedAt: number }[]> {
  const rows = await db.selectFrom('field_lookups').selectAll().where('project_id', '=', projectId).execute();
  return rows.map((r) => ({ fieldId: r.field_id, state: r.state, message: r.message, checkedAt: Number(r.checked_at) }));
}

const READS = { getCall, listProjectCalls, listSettings, listHosts, listLookups };

/** Connections' reads that open no secret. */
export function connectionReader(db: Db, secrets: SecretBox) {
  return { ...bindDb(db, READS), findSettings: (programId: string, connectionId: string) => findSettings(db, secrets, programId, connectionId) };
}

/** Connections' reads and writes over a transaction. */
export function connectionRepository(db: Db, dialect: Dialect, secrets: SecretBox) {
  return {
    ...connectionReader(db, secrets),
    ...bindDb(db, { deleteSettings, allowHost, disallowHost, insertCall, keepResponse, settleCall, markLookup }),
    saveSettings: (s: ConnectionSettings, by: string | null) => saveSettings(db, secrets, s, by),
    claimDueCalls: (now: number, leaseMs: number, limit: number) => claimDueCalls(db, dialect, now, leaseMs, limit),
  };
}

/** Connections: reads. */
export type ConnectionReader = ReturnType<typeof connectionReader>;

/** Connections: reads and writes. */
export type ConnectionRepository = ReturnType<typeof connectionRepository>;
