import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { OwnerScope } from '../model/records.ts';

/**
 * The SQL condition of an owner scope on a projects table (or its alias): the owner's personal projects, and every
 * project of the scope's organizations. Without organizations it is the owner condition alone, so callers who are in
 * none read by the owner index exactly as before organizations existed. A scope limited to access groups also needs
 * the project in one of them; a staff scope (no owner) needs only that.
 */
export function readableBy(table: string, scope: OwnerScope, members?: MembersRead): RawBuilder<SqlBool> {
  const groups = scope.groups === undefined ? null : inAccessGroups(table, scope.groups, 'id', members);
  if (scope.ownerId === null) return groups ?? sql<SqlBool>`1 = 1`;
  const owner = sql<SqlBool>`(${sql.ref(`${table}.owner_id`)} = ${scope.ownerId} and ${sql.ref(`${table}.organization_id`)} is null)`;
  const either = scope.organizationIds.length === 0 ? owner : sql<SqlBool>`(${owner} or ${sql.ref(`${table}.organization_id`)} in (${sql.join([...scope.organizationIds])}))`;
  return groups === null ? either : sql<SqlBool>`(${either} and ${groups})`;
}

/** How inAccessGroups reads the members of the groups of program `programId` (access-group-plan.ts). */
export interface MembersRead { programId: string; drive: boolean }

/**
 * The project (by `table`.id, or the table's `column` naming it) is in one of the access groups: one probe of the membership's primary key per project,
 * so a list walked in its own order stays a walk of its index (migration 057). With `members`, the groups' members of
 * the program are read once from `project_access_groups_group` (program, group, project): as a set each walked
 * project is tested against (`(id in (…)) is true`: not a plain condition of the WHERE, so neither database drives by
 * it or turns it into a join; PostgreSQL hashes the set, where as a semi-join it probed the index per project, 113 ms
 * against 3 for a first page at 100,000 projects), or with `drive` as `id in`, which both databases drive the list by,
 * looking each member up.
 */
export function inAccessGroups(table: string, groups: readonly string[], column = 'id', members?: MembersRead): RawBuilder<SqlBool> {
  if (groups.length === 0) return sql<SqlBool>`1 = 0`;
  if (members !== undefined) {
    const among = sql<SqlBool>`${sql.ref(`${table}.${column}`)} in (select ag.project_id from project_access_groups ag where ag.program_id = ${members.programId} and ag.group_id in (${sql.join([...groups])}))`;
    return members.drive ? among : sql<SqlBool>`(${among}) is true`;
  }
  return sql<SqlBool>`exists (select 1 from project_access_groups ag where ag.project_id = ${sql.ref(`${table}.${column}`)} and ag.group_id in (${sql.join([...groups])}))`;
}
