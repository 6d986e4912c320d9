import { type Kysely, type Selectable, sql } from 'kysely';
import type { Agency, ProgramGrant, ProgramRole, User } from '../model/model.ts';
import type { ApiKeyRecord, UserWithSecret } from '../model/records.ts';
import { bindDb } from './bind-db.ts';
import { contains } from './my-projects-queries.ts';
import type { ApiKeyTable, Database, UserTable } from './tables.ts';

type Db = Kysely<Database>;

function toUser(row: Selectable<UserTable>): UserWithSecret {
  return {
    id: row.id, agencyId: row.agency_id, email: row.email, name: row.name, passwordHash: row.password_hash,
    agencyAdmin: row.agency_admin === 1, disabled: row.disabled === 1,
  };
}

function toKey(row: Selectable<ApiKeyTable>): ApiKeyRecord {
  return {
    id: row.id, userId: row.user_id, name: row.name, secretHash: row.secret_hash, createdAt: row.created_at, revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}

/** An agency by generated id or custom id. */
export async function findAgency(db: Db, ref: string): Promise<Agency | null> {
  const row = await db.selectFrom('agencies').selectAll().where((eb) => eb.or([eb('id', '=', ref), eb('custom_id', '=', ref)])).executeTakeFirst();
  return row ? { id: row.id, customId: row.custom_id, name: row.name } : null;
}

/** All agencies, oldest first. */
export async function listAgencies(db: Db): Promise<Agency[]> {
  const rows = await db.selectFrom('agencies').selectAll().orderBy('created_at').execute();
  return rows.map((row) => ({ id: row.id, customId: row.custom_id, name: row.name }));
}

/** A user by e-mail (compared lower-cased). */
export async function findUserByEmail(db: Db, email: string): Promise<UserWithSecret | null> {
  const row = await db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
  return row ? toUser(row) : null;
}

/** A user by id. */
export async function findUserById(db: Db, id: string): Promise<UserWithSecret | null> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toUser(row) : null;
}

/** Users by ids, without secrets. */
export async function usersByIds(db: Db, ids: string[]): Promise<User[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('users').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  return rows.map((row) => {
    const { passwordHash: _secret, ...user } = toUser(row);
    return user;
  });
}

/**
 * The active users who hold one of `roles` in a program, or are admins of its agency (agency admins are admins of
 * every program of their agency), by name. At most `limit` of them.
 */
export async function usersWithProgramRole(
  db: Db, program: { id: string; agencyId: string }, roles: readonly ProgramRole[], limit: number,
): Promise<User[]> {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`bad limit ${limit}`);
  const rows = await db.selectFrom('users').selectAll().where('disabled', '=', 0)
    .where((eb) => eb.or([
      eb.and([eb('agency_admin', '=', 1), eb('agency_id', '=', program.agencyId)]),
      ...(roles.length === 0 ? [] : [eb('id', 'in', eb.selectFrom('program_grants').select('user_id').where('program_id', '=', program.id).where('role', 'in', [...roles]))]),
    ]))
    .orderBy('name').orderBy('email').limit(limit).execute();
  return rows.map((row) => {
    const { passwordHash: _secret, ...user } = toUser(row);
    return user;
  });
}

/** The grants in one program of the users named (those who hold one there). */
export async function programGrantsOf(db: Db, programId: string, userIds: readonly string[]): Promise<ProgramGrant[]> {
  if (userIds.length === 0) return [];
  const rows = await db.selectFrom('program_grants').selectAll().where('program_id', '=', programId).where('user_id', 'in', [...userIds]).execute();
  return rows.map(toGrant);
}

/** An API key by its public id. */
export async function findApiKey(db: Db, id: string): Promise<ApiKeyRecord | null> {
  const row = await db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toKey(row) : null;
}

/** The API keys of a user, oldest first. */
export async function listApiKeys(db: Db, userId: string): Promise<ApiKeyRecord[]> {
  const rows = await db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
  return rows.map(toKey);
}

/** The program grants of a user. */
export async function listGrants(db: Db, userId: string): Promise<ProgramGrant[]> {
  const rows = await db.selectFrom('program_grants').selectAll().where('user_id', '=', userId).execute();
  return rows.map(toGrant);
}

/** A grant row as the domain sees it: the access-group limit only when it has one, as grants read before migration 057. */
function toGrant(r: { user_id: string; program_id: string; role: string; sensitive: number; access_groups: string | null }): ProgramGrant {
  return {
    userId: r.user_id, programId: r.program_id, role: r.role as ProgramRole, sensitive: r.sensitive === 1,
    ...(r.access_groups === null ? {} : { accessGroups: JSON.parse(r.access_groups) as string[] }),
  };
}

/** The grant of a user in one program. */
export async function findGrant(db: Db, userId: string, programId: string): Promise<ProgramGrant | null> {
  const r = await db.selectFrom('program_grants').selectAll().where('user_id', '=', userId).where('program_id', '=', programId).executeTakeFirst();
  return r ? toGrant(r) : null;
}

/** Users without secrets, of one agency or all, by e-mail address (operators). */
export async function listUsers(db: Db, agencyId?: string): Promise<User[]> {
  const rows = await db.selectFrom('users').selectAll().$if(agencyId !== undefined, (q) => q.where('agency_id', '=', agencyId as string))
    .orderBy('email').execute();
  return rows.map((row) => {
    const { passwordHash: _secret, ...user } = toUser(row);
    return user;
  });
}

/** A user as the console's People page lists them: no secret; whether enrolled in MFA, and the last sign-in. */
export type PersonRow = User & { mfaEnrolled: boolean; lastSignInAt: number | null };

/**
 * The users of an agency by name, with their MFA enrolment and last sign-in; `search` (case-insensitive) matches a part
 * of the name or the e-mail address. At most `limit`.
 */
export async function listPeople(db: Db, agencyId: string, search: string, limit: number): Promise<PersonRow[]> {
  const folded = search.trim().toLowerCase();
  const rows = await db.selectFrom('users as u').leftJoin('user_mfa as m', 'm.user_id', 'u.id').selectAll('u').select('m.user_id as mfa_user')
    .where('u.agency_id', '=', agencyId)
    .$if(folded !== '', (q) => q.where((eb) => eb.or([contains(sql`lower(u.name)`, folded), contains(sql`lower(u.email)`, folded)])))
    .orderBy('u.name').orderBy('u.email').limit(limit).execute();
  return rows.map((row) => {
    const { passwordHash: _secret, ...user } = toUser(row);
    return { ...user, mfaEnrolled: row.mfa_user !== null, lastSignInAt: row.last_sign_in_at === null ? null : Number(row.last_sign_in_at) };
  });
}

/** Grants with their user's address and program's custom id, of one user or program or all (operators). */
export async function listGrantDetails(db: Db, f: { userId?: string; programId?: string }): Promise<(ProgramGrant & { email: string; programCustomId: string })[]> {
  const rows = await db.selectFrom('program_grants as g').innerJoin('users as u', 'u.id', 'g.user_id').innerJoin('programs as p', 'p.id', 'g.program_id')
    .select(['g.user_id', 'g.program_id', 'g.role', 'g.sensitive', 'g.access_groups', 'u.email', 'p.custom_id'])
    .$if(f.userId !== undefined, (q) => q.where('g.user_id', '=', f.userId as string))
    .$if(f.programId !== undefined, (q) => q.where('g.program_id', '=', f.programId as string))
    .orderBy('p.custom_id').orderBy('u.email').execute();
  return rows.map((r) => ({ ...toGrant(r), email: r.email, programCustomId: r.custom_id }));
}

/** Inserts an agency. */
export async function insertAgency(db: Db, agency: Agency, at: number): Promise<void> {
  await db.insertInto('agencies').values({ id: agency.id, custom_id: agency.customId, name: agency.name, created_at: at }).execute();
}

/** Inserts a user. */
export async function insertUser(db: Db, user: User, passwordHash: string, at: number): Promise<void> {
  await db.insertInto('users').values({
    id: user.id, agency_id: user.agencyId, email: user.email.toLowerCase(), name: user.name, password_hash: passwordHash,
    agency_admin: user.agencyAdmin ? 1 : 0, disabled: user.disabled ? 1 : 0, created_at: at, updated_at: at,
  }).execute();
}

/** Changes a user's name, password hash or flags. */
export async function updateUser(
  db: Db, id: string, changes: { name?: string; passwordHash?: string; agencyAdmin?: boolean; disabled?: boolean }, at: number,
): Promise<void> {
  await db.updateTable('users').set({
    updated_at: at,
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.passwordHash !== undefined ? { password_hash: changes.passwordHash } : {}),
    ...(changes.agencyAdmin !== undefined ? { agency_admin: changes.agencyAdmin ? 1 : 0 } : {}),
    ...(changes.disabled !== undefined ? { disabled: changes.disabled ? 1 : 0 } : {}),
  }).where('id', '=', id).execute();
}

/** Inserts an API key. */
export async function insertApiKey(db: Db, key: ApiKeyRecord): Promise<void> {
  await db.insertInto('api_keys').values({
    id: key.id, user_id: key.userId, name: key.name, secret_hash: key.secretHash, created_at: key.createdAt, revoked_at: key.revokedAt,
  }).execute();
}

/** Revokes a live API key; false when there was none. */
export async function revokeApiKey(db: Db, id: string, at: number): Promise<boolean> {
  const result = await db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Creates or replaces a user's grant in a program (its access-group limit too: absent or null for every project). */
export async function setGrant(db: Db, grant: ProgramGrant): Promise<void> {
  const groups = grant.accessGroups === undefined || grant.accessGroups === null ? null : JSON.stringify(grant.accessGroups);
  const values = { user_id: grant.userId, program_id: grant.programId, role: grant.role, sensitive: grant.sensitive ? 1 : 0, access_groups: groups };
  await db.insertInto('program_grants').values(values)
    .onConflict((oc) => oc.columns(['user_id', 'program_id']).doUpdateSet({ role: values.role, sensitive: values.sensitive, access_groups: groups }))
    .execute();
}

/** Removes a grant; false when there was none. */
export async function deleteGrant(db: Db, userId: string, programId: string): Promise<boolean> {
  const result = await db.deleteFrom('program_grants').where('user_id', '=', userId).where('program_id', '=', programId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

const READS = {
  findAgency, listAgencies, findUserByEmail, findUserById, usersByIds, usersWithProgramRole, programGrantsOf, findApiKey, listApiKeys, listGrants, findGrant, listUsers,
  listGrantDetails, listPeople,
};
const WRITES = { insertAgency, insertUser, updateUser, insertApiKey, revokeApiKey, setGrant, deleteGrant };

/** Agencies, users, their API keys and program grants: reads. */
export type AccountReader = ReturnType<typeof accountReader>;

/** Agencies, users, their API keys and program grants: reads and writes (inside a transaction). */
export type AccountRepository = ReturnType<typeof accountRepository>;

/** The account reads over a database. */
export function accountReader(db: Db) {
  return bindDb(db, READS);
}

/** The account reads and writes over a transaction. */
export function accountRepository(db: Db) {
  return bindDb(db, { ...READS, ...WRITES });
}
