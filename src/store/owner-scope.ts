import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { OwnerScope } from '../model/records.ts';

/**
 * The SQL condition of an owner scope on a projects table (or its alias): the owner's personal projects, and every
 * project of the scope's organizations. Without organizations it is the owner condition alone, so callers who are in
 * none read by the owner index exactly as before organizations existed.
 */
export function readableBy(table: string, scope: OwnerScope): RawBuilder<SqlBool> {
  const owner = sql<SqlBool>`(${sql.ref(`${table}.owner_id`)} = ${scope.ownerId} and ${sql.ref(`${table}.organization_id`)} is null)`;
  if (scope.organizationIds.length === 0) return owner;
  return sql<SqlBool>`(${owner} or ${sql.ref(`${table}.organization_id`)} in (${sql.join([...scope.organizationIds])}))`;
}
