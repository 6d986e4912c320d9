import { isoTimestamp } from '../../model/clock.ts';
import { isIdLike } from '../../model/ids.ts';
import type { AuditFilter, AuditReader, AuditRow } from '../../store/audit-queries.ts';
import type { AccountReader } from '../../store/account-queries.ts';
import type { ProjectReader } from '../../store/project-repository.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { consolePage, decodeConsoleCursor } from './console-cursor.ts';
import type { ConsoleScope } from './console-scope.ts';
import type { ConsoleService } from './console-service.ts';

/** Rows per page of the trail in the console, and per read of its CSV download. */
export const AUDIT_PAGE_SIZE = 50;
const CSV_CHUNK = 500;

/** The list name the trail's cursors carry. */
const AUDIT_LIST = 'audit';

/**
 * What the trail is filtered by, as a person types it: the actor's e-mail address, a project's id or number, an
 * action or its family (`webhook` finds `webhook.create`…), and a time range (`from` inclusive, `to` exclusive).
 */
export interface AuditQuery { user?: string; project?: string; action?: string; from?: number; to?: number }

/** A page of the trail, newest first, and the cursor of the next (older) page. */
export interface AuditPage { rows: AuditRow[]; nextCursor: string | null }

/** A download of the trail: its file name, its header, and its rows read a chunk at a time. */
export interface AuditExport { fileName: string; header: string[]; rows: AsyncIterable<string[]> }

/** What the trail needs. */
export interface AuditTrailDeps {
  console: ConsoleService;
  store: { audit: Pick<AuditReader, 'page'>; accounts: Pick<AccountReader, 'findUserByEmail'>; projects: Pick<ProjectReader, 'findProjectsByNumbers'> };
}

/**
 * The console's Audit trail: every audited change an agency admin's agency made (a program admin: of their programs
 * and their projects), filtered, newest first, paged by an opaque keyset cursor and downloadable as CSV.
 */
export class AuditTrailService {
  readonly #deps: AuditTrailDeps;

  constructor(deps: AuditTrailDeps) {
    this.#deps = deps;
  }

  /** One page of the trail after `cursor` (a previous page's nextCursor; none for the newest). */
  async page(caller: Caller, query: AuditQuery, cursor: string | undefined): Promise<AuditPage> {
    const filter = await this.#filter(await this.#deps.console.scope(caller), query);
    const after = decodeConsoleCursor(AUDIT_LIST, cursor);
    const rows = await this.#deps.store.audit.page(filter, after, AUDIT_PAGE_SIZE + 1);
    return consolePage(AUDIT_LIST, rows, AUDIT_PAGE_SIZE, (r) => ({ at: r.at, id: r.id }));
  }

  /** The whole filtered trail as CSV rows, newest first, read a chunk at a time as the download goes out. */
  async export(caller: Caller, query: AuditQuery): Promise<AuditExport> {
    const filter = await this.#filter(await this.#deps.console.scope(caller), query);
    const audit = this.#deps.store.audit;
    async function* rows(): AsyncGenerator<string[]> {
      let after: { at: number; id: string } | null = null;
      for (;;) {
        const chunk = await audit.page(filter, after, CSV_CHUNK);
        for (const r of chunk) {
          yield [isoTimestamp(r.at), r.actorEmail ?? r.actorId ?? '', r.action, r.programId ?? '', r.projectId ?? '', r.requestId ?? '', r.id, JSON.stringify(r.detail ?? {})];
        }
        if (chunk.length < CSV_CHUNK) return;
        const last = chunk.at(-1) as AuditRow;
        after = { at: last.at, id: last.id };
      }
    }
    return { fileName: 'audit-trail.csv', header: ['Time', 'User', 'Action', 'Program', 'Project', 'Request', 'Id', 'Detail'], rows: rows() };
  }

  // The store's filter: the scope's agency (or programs), and what was asked, resolved to ids.
  async #filter(scope: ConsoleScope, q: AuditQuery): Promise<AuditFilter> {
    const filter: AuditFilter = { agencyId: scope.agencyId, programIds: scope.agencyAdmin ? null : scope.programs.map((p) => p.id) };
    if (q.from !== undefined && q.to !== undefined && q.from >= q.to) throw new ApiError('INVALID_PARAMETER', 'The time range ends before it begins.');
    if (q.from !== undefined) filter.from = q.from;
    if (q.to !== undefined) filter.to = q.to;
    const action = q.action?.trim().toLowerCase().replace(/\.$/, '');
    if (action) filter.action = action;
    const email = q.user?.trim();
    if (email) {
      const user = await this.#deps.store.accounts.findUserByEmail(email);
      // Someone of another agency, or nobody: no row of this trail is theirs.
      filter.actorId = user && user.agencyId === scope.agencyId ? user.id : '';
    }
    const project = q.project?.trim();
    if (project) filter.projectIds = await this.#projectIds(scope, project);
    return filter;
  }

  // A project named by its number in one of the scope's programs, or by its id (also of one deleted since).
  async #projectIds(scope: ConsoleScope, text: string): Promise<string[]> {
    const byNumber = await Promise.all(scope.programs.map((p) => this.#deps.store.projects.findProjectsByNumbers(p.id, [text])));
    const ids = byNumber.flat().map((p) => p.id);
    if (isIdLike(text)) ids.push(text);
    return [...new Set(ids)];
  }
}
