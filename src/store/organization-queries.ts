import type { Kysely } from 'kysely';
import { bindDb } from './bind-db.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

/** A member's role in an organization: admins invite and remove members and set the defaults. */
export type OrganizationRole = 'member' | 'admin';

/** An installer company; `defaults` maps a data field's customId to the value prefilled on new applications. */
export interface Organization { id: string; agencyId: string; name: string; defaults: Record<string, string>; createdAt: number; createdBy: string }

/** A member of an organization, with the user's name and address for the members list. */
export interface OrganizationMember { organizationId: string; userId: string; role: OrganizationRole; addedAt: number; name: string; email: string }

/** A mailed invitation (its token's hash only). */
export interface OrganizationInvitation {
  id: string; organizationId: string; email: string; tokenHash: string; invitedBy: string; createdAt: number; expiresAt: number; usedAt: number | null;
}

function toOrganization(r: { id: string; agency_id: string; name: string; defaults: string; created_at: number; created_by: string }): Organization {
  return { id: r.id, agencyId: r.agency_id, name: r.name, defaults: JSON.parse(r.defaults) as Record<string, string>, createdAt: Number(r.created_at), createdBy: r.created_by };
}

/** Stores a new organization. */
export async function insertOrganization(db: Db, o: Organization): Promise<void> {
  await db.insertInto('organizations').values({
    id: o.id, agency_id: o.agencyId, name: o.name, defaults: JSON.stringify(o.defaults), created_at: o.createdAt, created_by: o.createdBy,
  }).execute();
}

/** An organization by id. */
export async function findOrganization(db: Db, id: string): Promise<Organization | null> {
  const r = await db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? toOrganization(r) : null;
}

/** Replaces an organization's defaults. */
export async function setOrganizationDefaults(db: Db, id: string, defaults: Record<string, string>): Promise<void> {
  await db.updateTable('organizations').set({ defaults: JSON.stringify(defaults) }).where('id', '=', id).execute();
}

/** The ids of the organizations a user is a member of (read for every request: the caller's organizations). */
export async function organizationIdsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('organization_members').select('organization_id').where('user_id', '=', userId).orderBy('organization_id').execute();
  return rows.map((r) => r.organization_id);
}

/** The organizations a user is a member of, with their role in each, by name. */
export async function organizationsOf(db: Db, userId: string): Promise<(Organization & { role: OrganizationRole })[]> {
  const rows = await db.selectFrom('organization_members as m').innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .selectAll('o').select('m.role').where('m.user_id', '=', userId).orderBy('o.name').orderBy('o.id').execute();
  return rows.map((r) => ({ ...toOrganization(r), role: r.role as OrganizationRole }));
}

/** The organizations of an agency by name, with how many members each has (the agency console). */
export async function agencyOrganizations(db: Db, agencyId: string): Promise<(Organization & { memberCount: number })[]> {
  const rows = await db.selectFrom('organizations as o').selectAll('o')
    .select((eb) => eb.selectFrom('organization_members as m').select(eb.fn.countAll<number>().as('n')).whereRef('m.organization_id', '=', 'o.id').as('member_count'))
    .where('o.agency_id', '=', agencyId).orderBy('o.name').orderBy('o.id').execute();
  return rows.map((r) => ({ ...toOrganization(r), memberCount: Number(r.member_count ?? 0) }));
}

/** An organization's members, by name. */
export async function listMembers(db: Db, organizationId: string): Promise<OrganizationMember[]> {
  const rows = await db.selectFrom('organization_members as m').innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.organization_id', 'm.user_id', 'm.role', 'm.added_at', 'u.name', 'u.email'])
    .where('m.organization_id', '=', organizationId).orderBy('u.name').orderBy('u.id').execute();
  return rows.map((r) => ({ organizationId: r.organization_id, userId: r.user_id, role: r.role as OrganizationRole, addedAt: Number(r.added_at), name: r.name, email: r.email }));
}

/** Adds a member (or changes nothing when the user already is one). */
export async function addMember(db: Db, organizationId: string, userId: string, role: OrganizationRole, now: number): Promise<void> {
  await db.insertInto('organization_members').values({ organization_id: organizationId, user_id: userId, role, added_at: now })
    .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doNothing()).execute();
}

/** Removes a member; true when there was one. */
export async function removeMember(db: Db, organizationId: string, userId: string): Promise<boolean> {
  const r = await db.deleteFrom('organization_members').where('organization_id', '=', organizationId).where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** Stores a new invitation. */
export async function insertInvitation(db: Db, i: OrganizationInvitation): Promise<void> {
  await db.insertInto('organization_invitations').values({
    id: i.id, organization_id: i.organizationId, email: i.email, token_hash: i.tokenHash, invited_by: i.invitedBy,
    created_at: i.createdAt, expires_at: i.expiresAt, used_at: i.usedAt,
  }).execute();
}

function toInvitation(r: { id: string; organization_id: string; email: string; token_hash: string; invited_by: string; created_at: number; expires_at: number; used_at: number | null }): OrganizationInvitation {
  return {
    id: r.id, organizationId: r.organization_id, email: r.email, tokenHash: r.token_hash, invitedBy: r.invited_by,
    createdAt: Number(r.created_at), expiresAt: Number(r.expires_at), usedAt: r.used_at === null ? null : Number(r.used_at),
  };
}

/** An invitation by its token's hash, whatever its state. */
export async function findInvitation(db: Db, tokenHash: string): Promise<OrganizationInvitation | null> {
  const r = await db.selectFrom('organization_invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  return r ? toInvitation(r) : null;
}

/** An organization's invitations that can still be accepted at `now` (unused, unexpired), oldest first. */
export async function listPendingInvitations(db: Db, organizationId: string, now: number): Promise<OrganizationInvitation[]> {
  const rows = await db.selectFrom('organization_invitations').selectAll().where('organization_id', '=', organizationId)
    .where('used_at', 'is', null).where('expires_at', '>', now).orderBy('created_at').orderBy('id').execute();
  return rows.map(toInvitation);
}

/** Gives a pending invitation a new token and expiry (a resend): the earlier link stops working. False when it is not pending. */
export async function renewInvitation(db: Db, id: string, tokenHash: string, now: number, expiresAt: number): Promise<boolean> {
  const r = await db.updateTable('organization_invitations').set({ token_hash: tokenHash, created_at: now, expires_at: expiresAt })
    .where('id', '=', id).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Deletes a pending invitation (revoked): its link then works no more. False when it is not pending. */
export async function deleteInvitation(db: Db, id: string, now: number): Promise<boolean> {
  const r = await db.deleteFrom('organization_invitations').where('id', '=', id).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** Uses an invitation: true only for the one transaction that marks it used while unused and unexpired. */
export async function useInvitation(db: Db, id: string, now: number): Promise<boolean> {
  const r = await db.updateTable('organization_invitations').set({ used_at: now })
    .where('id', '=', id).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

const READS = { findOrganization, organizationIdsOf, organizationsOf, agencyOrganizations, listMembers, findInvitation, listPendingInvitations };

/** Organizations' reads. */
export type OrganizationReader = ReturnType<typeof organizationReader>;

/** Organizations inside a transaction. */
export type OrganizationRepository = ReturnType<typeof organizationRepository>;

/** Organizations' reads over a database. */
export function organizationReader(db: Db) {
  return bindDb(db, READS);
}

/** Organizations over a transaction: create them, set defaults, add and remove members, invitations. */
export function organizationRepository(db: Db) {
  return bindDb(db, { ...READS, insertOrganization, setOrganizationDefaults, addMember, removeMember, insertInvitation, useInvitation, renewInvitation, deleteInvitation });
}
