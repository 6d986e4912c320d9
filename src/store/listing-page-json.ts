import { type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';
import type { ProjectListing } from '../model/model.ts';
import type { OwnerScope, ProjectQuery } from '../model/records.ts';
import { LISTING_COLUMNS, type ListingPageQuery, type PageWrap, wrappedListingPage, wrappedListingsByNumbers } from './project-queries.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

/**
 * One listing as the database writes it into the page's JSON text: LISTING_COLUMNS in order but the program's id, which
 * is the page's own (every page query is of one program), so not parsed again for each listing.
 */
type ListingArray = [string, string | null, string, number, number, number];

// The listed columns of the page's rows (`listed`), in LISTING_COLUMNS' order but program_id, and the page's order over them.
const listed = sql.join(LISTING_COLUMNS.filter((c) => c !== 'program_id').map((c) => sql.ref(`listed.${c}`)));
const order = sql`${sql.ref('listed.created_at')}, ${sql.ref('listed.id')}`;

/**
 * The page's rows as one JSON text of arrays, `[]` for none. PostgreSQL: json_agg in the page's order, null for no
 * rows, cast to text so that it is parsed as SQLite's is. SQLite: json_group_array over the page's rows as its
 * subquery yields them, which is in order, but an aggregate's input order is not promised; its own ORDER BY would
 * cost a sort of the built arrays (35 µs of 170 a page of 101), so the order is checked once parsed (inOrder).
 */
function pageArray(db: Db): RawBuilder<string> {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? sql<string>`coalesce(json_agg(json_build_array(${listed}) order by ${order}), '[]')::text`
    : sql<string>`json_group_array(json_array(${listed}))`;
}

/** The statement over the page: one row, whose `page` is the JSON text. */
const asJson: PageWrap<{ page: string }> = {
  name: 'json',
  wrap: (db: Db, page: ListingPageQuery) => db.selectFrom(page.as('listed')).select(pageArray(db).as('page')),
};

/**
 * listProjectListings' page (GetProjects) read as one JSON text built by the database and parsed once: the same
 * statement's rows, filters, order, keyset and access-group plan, without a row object per project (about 40 % of
 * the page's database work in the process on either database; docs/performance.md, "Project pages as one JSON text").
 */
export async function listProjectListingsJson(db: Db, q: ProjectQuery): Promise<ProjectListing[]> {
  return listings(await wrappedListingPage(db, q, asJson), q.programId);
}

/** findListingsByNumbers (GetProjectsByNumber) read the same way: one JSON text for each chunk of numbers, in creation order. */
export async function findListingsByNumbersJson(db: Db, programId: string, numbers: string[], owner?: OwnerScope): Promise<ProjectListing[]> {
  return listings(await wrappedListingsByNumbers(db, programId, numbers, asJson, owner), programId);
}

// The listings of program `programId` in the JSON texts, in the page's order (sorted only when they are not).
function listings(rows: { page: string }[], programId: string): ProjectListing[] {
  const listed = rows.flatMap((r) => JSON.parse(r.page) as ListingArray[]);
  if (!inOrder(listed)) listed.sort(byCreation);
  return listed.map(([id, number, statusId, statusAt, createdAt, updatedAt]) => ({ id, programId, number, statusId, statusAt, createdAt, updatedAt }));
}

// A listing's place in the page's order: created_at (index 4), then id (index 0), as the page query sorts them.
function byCreation(a: ListingArray, b: ListingArray): number {
  return a[4] - b[4] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
}

function inOrder(listed: ListingArray[]): boolean {
  for (let i = 1; i < listed.length; i++) if (byCreation(listed[i - 1]!, listed[i]!) > 0) return false;
  return true;
}
