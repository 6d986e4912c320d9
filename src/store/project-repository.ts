import type { Kysely } from 'kysely';
import { bindDb } from './bind-db.ts';
import type { Dialect } from './dialect.ts';
import {
  countProjectsInStatuses, draftsOfProjects, findProjectsByNumbers, getAllValues, getSubmissions, getDraft, getHistory, getProject, getValues, insertHistory, insertProject,
  insertSubmission, listProjects, lockProject, setHistoryReportAs, takeProjectNumber, updateProject, upsertDraft, upsertValues,
} from './project-queries.ts';
import { findListingsByNumbersJson, listProjectListingsJson } from './listing-page-json.ts';
import { searchProjects } from './search-queries.ts';
import { readFormData } from './form-read-query.ts';
import { deleteProjectRows, myProjectsPage } from './my-projects-queries.ts';
import { countOpenAssigned, takeAutomationTurn } from './automation-queries.ts';
import { assignedProjectsPage, clearAssignee, countAccessGroups, countProgramProjects, projectGroupsPage, setPageAccessGroups, setProjectAccessGroups } from './access-group-queries.ts';
import type { Database } from './tables.ts';
import type { GroupPlans } from './access-group-plan.ts';
import type { ProjectQuery, ProjectSearch } from '../model/records.ts';
import { countAttentionKinds, countWorkQueue, valuesOfProjects, type WorkQueueQuery, workQueuePage } from './work-queue-queries.ts';

// GetProjectsByNumber's listings are read as one JSON text (listing-page-json.ts); project-queries.ts reads the same
// listings as rows. The reads limited to access groups are plannedReads'.
const READS = { getProject, findProjectsByNumbers, findListingsByNumbers: findListingsByNumbersJson, countProjectsInStatuses, getDraft, draftsOfProjects, getValues, getAllValues, getHistory, getSubmissions, valuesOfProjects, countOpenAssigned, myProjectsPage, projectGroupsPage, countAccessGroups, countProgramProjects, readFormData, assignedProjectsPage };
const WRITES = { insertProject, updateProject, upsertDraft, upsertValues, insertSubmission, insertHistory, setHistoryReportAs, takeProjectNumber, takeAutomationTurn, deleteProjectRows, setProjectAccessGroups, setPageAccessGroups, clearAssignee };

/** Projects with their drafts, submitted values, submissions and status history: reads, listings and searches. */
export type ProjectReader = ReturnType<typeof projectReader>;

/** Projects and everything kept per project but files and inquiries: reads and writes (inside a transaction). */
export type ProjectRepository = ReturnType<typeof projectRepository> & {
  /** Seals (or opens again) the stored values of fields whose `sensitive` mark a program import just changed; how many rows changed. */
  resealFields(fieldIds: string[]): Promise<number>;
};

/**
 * The reads limited to access groups, each planned through the store's kept counts (`plans`, access-group-plan.ts)
 * before the query runs: the query functions would count the groups' memberships afresh on every call. GetProjects'
 * listings are read as one JSON text (listing-page-json.ts).
 */
function plannedReads(db: Kysely<Database>, plans: GroupPlans) {
  return {
    listProjects: async (q: ProjectQuery, where?: Parameters<typeof listProjects>[2]) => listProjects(db, await plans.pageQuery(db, q), where),
    listProjectListings: async (q: ProjectQuery) => listProjectListingsJson(db, await plans.pageQuery(db, q)),
    searchProjects: (s: ProjectSearch) => searchProjects(db, s, plans),
    workQueuePage: async (q: WorkQueueQuery) => workQueuePage(db, await plans.queueQuery(db, q)),
    countWorkQueue: async (q: Parameters<typeof countWorkQueue>[1], bound: number) => countWorkQueue(db, await plans.queueQuery(db, q), bound),
    countAttentionKinds: async (q: Parameters<typeof countAttentionKinds>[1], bound: number) => countAttentionKinds(db, await plans.queueQuery(db, q), bound),
  };
}

/** The project reads over a database, access groups planned through `plans`. */
export function projectReader(db: Kysely<Database>, plans: GroupPlans) {
  return { ...bindDb(db, READS), ...plannedReads(db, plans) };
}

/** The project reads and writes over a transaction (values as stored); `lockProject` holds the project until the transaction ends. */
export function projectRepository(db: Kysely<Database>, dialect: Dialect, plans: GroupPlans) {
  return {
    ...bindDb(db, { ...READS, ...WRITES }),
    ...plannedReads(db, plans),
    lockProject: (programId: string, projectId: string) => lockProject(db, dialect, programId, projectId),
  };
}
