import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { requireAdministeredProgram, requireConsoleScope } from '../administration/console-scope.ts';
import { canCreate, overridesForms, roleIn } from '../roles/access.ts';
import { changeProject } from '../projects/change-project.ts';
import { loadProgram, type ProgramContext } from '../projects/project-context.ts';
import { ProjectService } from '../projects/project-service.ts';
import type { ReactingDeps } from '../projects/change-reaction.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { Store, StoreWriter } from '../../store/store.ts';
import type { Project } from '../../model/model.ts';
import { type CsvBounds, readCsv } from './csv-table.ts';
import { type ColumnTarget, type ImportProblem, parseMapping, planColumns } from './import-columns.ts';
import { type OwnerLookup, type PlannedRow, planRow, problemsOf } from './import-rows.ts';
import { writeImportedValues } from './imported-values.ts';

/** What happened to a row: a project made, one updated, one found already so, or the row refused (nothing changed). */
export type RowOutcome = 'created' | 'updated' | 'unchanged' | 'refused';

/** One row's result: its line, external id, outcome, the project, its problems (refused) and notes (what was kept). */
export interface ImportRowResult {
  line: number; externalId: string | null; outcome: RowOutcome; projectId: string | null; projectNumber: string | null;
  problems: ImportProblem[]; notes: string[];
}

/** An import's report: each column's use, the file's own problems (then no row was tried), and every row's result. */
export interface ImportReport {
  programId: string; programName: string; dryRun: boolean;
  columns: { name: string; target: string }[];
  problems: ImportProblem[];
  rows: ImportRowResult[];
  counts: Record<RowOutcome, number>;
}

/** An import as asked: the program, the CSV file's bytes, an optional mapping (import-columns.ts), and whether to keep nothing. */
export interface ImportRequest { programRef: string; csv: Uint8Array; mapping?: string; dryRun: boolean }

/** The bounds of a file the command line imports: 20 MiB, 50,000 rows, 500 columns, 10,000 characters a cell. */
export const IMPORT_BOUNDS: CsvBounds = { maxBytes: 20 * 1024 * 1024, maxRows: 50_000, maxColumns: 500, maxCellChars: 10_000 };

/**
 * The bounds of a file imported from the console: 5 MiB and 2,000 rows, so that the import ends while the browser
 * waits for its page (larger files go through the command line).
 */
export const CONSOLE_IMPORT_BOUNDS: CsvBounds = { ...IMPORT_BOUNDS, maxBytes: 5 * 1024 * 1024, maxRows: 2_000 };

/**
 * How many rows share one commit: each row is still a change step of its own (in a savepoint, refused alone), but
 * SQLite's synchronous commit, a flush to disk, is paid once for them. A run that stops loses at most these rows' work,
 * which a run again does.
 */
export const ROWS_PER_COMMIT = 50;

type RowRepositories = 'programs' | 'projects' | 'accounts' | 'organizations' | 'imports';
type RowDeps = ServiceDeps<RowRepositories> & ReactingDeps;
type ImportDeps = Omit<RowDeps, 'store'> & { store: RowDeps['store'] & Pick<Store, 'batch'> };

/** Ends a dry run's batch: its transaction rolls back, and the rows' results are handed out with this. */
class DryRunDone {
  readonly results: ImportRowResult[];
  constructor(results: ImportRowResult[]) {
    this.results = results;
  }
}

/**
 * Data import: creates or updates a program's projects from the rows of a CSV file, for an agency admin or an admin
 * of the program. Each row goes through the change step as the importing admin, in one transaction of its own: a new
 * project through CreateNewProject's service with its external id, owner, starting status and submitted values; an
 * existing one (same external id) through a SetProjectData change of what differs, and SetProjectOwner. So a run
 * that stops part way is simply run again: what was done is found unchanged, the rest is done. A dry run does all of
 * it and rolls each row back. Rows share commits (ROWS_PER_COMMIT), each in a savepoint of its own.
 */
export class ProjectImportService {
  readonly #deps: ImportDeps;
  readonly #bounds: CsvBounds;
  readonly #rowsPerCommit: number;
  constructor(deps: ImportDeps, bounds: CsvBounds = IMPORT_BOUNDS, rowsPerCommit = ROWS_PER_COMMIT) {
    this.#deps = deps;
    this.#bounds = bounds;
    this.#rowsPerCommit = rowsPerCommit;
  }

  /** The bounds of a file this service imports. */
  get bounds(): CsvBounds {
    return this.#bounds;
  }

  /** The programs the caller may import into (those they administer), for the console's form. */
  async programs(caller: Caller): Promise<{ id: string; customId: string; name: string }[]> {
    const scope = await requireConsoleScope(caller, this.#deps.store.programs);
    return scope.programs.map((p) => ({ id: p.id, customId: p.customId, name: p.name }));
  }

  /** Imports (or, with dryRun, tries) every row of the file and reports each; `onRow` is told each result as it is known. */
  async importProjects(caller: Caller, request: ImportRequest, onRow?: (row: ImportRowResult) => void): Promise<ImportReport> {
    const scope = await requireConsoleScope(caller, this.#deps.store.programs);
    const program = requireAdministeredProgram(scope, request.programRef);
    const ctx = await loadProgram(this.#deps, caller, program.id);
    if (!canCreate(ctx.role) || !overridesForms(ctx.role) || !ctx.role.privileges.has('changeOwner')) {
      throw new ApiError('FORBIDDEN', `Importing projects needs the privileges createProjects, overrideForms and changeOwner in program ${program.customId}.`);
    }
    const table = readCsv(request.csv, this.#bounds);
    const plan = planColumns(ctx.model, table.columns, parseMapping(request.mapping ?? ''));
    const report: ImportReport = {
      programId: program.id, programName: program.name, dryRun: request.dryRun,
      columns: plan.columns.map((c) => ({ name: c.name, target: targetName(c.target) })),
      problems: plan.problems, rows: [], counts: { created: 0, updated: 0, unchanged: 0, refused: 0 },
    };
    if (plan.problems.length > 0) return report;
    const ownerOf = this.#ownerLookup(ctx);
    const seen = new Map<string, number>();
    const planned: PlannedRow[] = [];
    for (const row of table.rows) planned.push(await planRow(ctx.model, plan, row, seen, ownerOf));
    const known = await this.#deps.store.imports.findExternalIds(program.id, planned.flatMap((r) => (r.externalId === null ? [] : [r.externalId])));
    const columns = fieldColumns(plan.columns);
    for (let i = 0; i < planned.length; i += this.#rowsPerCommit) {
      // Told only once their commit is done: a row reported created is created.
      for (const result of await this.#runBatch(caller, ctx, planned.slice(i, i + this.#rowsPerCommit), known, columns, request.dryRun)) {
        report.rows.push(result);
        report.counts[result.outcome]++;
        onRow?.(result);
      }
    }
    return report;
  }

  // Rows in one transaction, each in a savepoint through the services as they are (their every read through the
  // transaction too); a dry run's is rolled back at its end.
  async #runBatch(caller: Caller, ctx: ProgramContext, rows: PlannedRow[], known: Map<string, string>, columns: Map<string, string>, dryRun: boolean): Promise<ImportRowResult[]> {
    try {
      return await this.#deps.store.batch(async (step, tx: StoreWriter) => {
        const { projects, accounts, organizations, imports } = tx;
        // The program is read once a batch, in its transaction (each service reads it again per row otherwise).
        const program = await tx.programs.findProgram(ctx.program.id);
        const programs = { ...tx.programs, findProgram: async (ref: string, agencyId?: string | null) => (program && ref === program.id ? program : tx.programs.findProgram(ref, agencyId)) };
        const deps: RowDeps = { ...this.#deps, store: { programs, projects, accounts, organizations, imports, transaction: step } };
        const service = new ProjectService(deps);
        const results: ImportRowResult[] = [];
        for (const row of rows) results.push(await this.#runRow(deps, service, caller, ctx, row, known.get(row.externalId ?? ''), columns));
        if (dryRun) throw new DryRunDone(results);
        return results;
      });
    } catch (error) {
      if (error instanceof DryRunDone) return error.results;
      throw error;
    }
  }

  async #runRow(deps: RowDeps, projects: ProjectService, caller: Caller, ctx: ProgramContext, row: PlannedRow, projectId: string | undefined, columns: Map<string, string>): Promise<ImportRowResult> {
    const result: ImportRowResult = { line: row.line, externalId: row.externalId, outcome: 'refused', projectId: projectId ?? null, projectNumber: null, problems: row.problems, notes: [] };
    if (row.problems.length > 0) return result;
    try {
      if (projectId === undefined) {
        const created = await projects.createProject(caller, ctx.program.id, {
          ownerId: row.owner?.id, status: row.status ?? undefined,
          seed: async (tx, project, now) => {
            if (!(await tx.imports.recordExternalId({ programId: ctx.program.id, externalId: row.externalId!, projectId: project.id, at: now }))) {
              throw new ApiError('CONFLICT', `External id "${row.externalId}" was imported meanwhile (another import running?); run the import again to update it.`);
            }
            const fields: string[] = [];
            for (const given of row.forms) fields.push(...(await writeImportedValues(tx, ctx, project, given, now, caller.user.id)));
            return { externalId: row.externalId, fields };
          },
        });
        return { ...result, outcome: 'created', projectId: created.projectId, projectNumber: created.projectNumber };
      }
      return await this.#update(deps, projects, caller, ctx, row, projectId, result);
    } catch (error) {
      // A fault that is no refusal (the database gone) stops the import; a run again takes up where it stopped.
      if (!(error instanceof ApiError)) throw error;
      return { ...result, outcome: 'refused', problems: problemsOf(error, row.line, columns) };
    }
  }

  // An existing project: its values that differ, in one SetProjectData change; then its owner, as SetProjectOwner does.
  async #update(deps: RowDeps, projects: ProjectService, caller: Caller, ctx: ProgramContext, row: PlannedRow, projectId: string, result: ImportRowResult): Promise<ImportRowResult> {
    let wrote = false;
    const project = await changeProject(deps, caller, ctx, projectId, {
      action: 'project.data.set', access: 'write',
      act: async ({ tx, project: current, now }) => {
        const written: { formId: string; fields: string[] }[] = [];
        for (const given of row.forms) {
          const fields = await writeImportedValues(tx, ctx, current, given, now, caller.user.id);
          if (fields.length > 0) written.push({ formId: given.form.id, fields });
        }
        wrote = written.length > 0;
        return {
          // Every value already so: nothing is written, not even the stamp or an audit row.
          changed: wrote,
          detail: { formId: written[0]?.formId, fields: written.flatMap((w) => w.fields), externalId: row.externalId },
          result: (updated: Project) => updated,
        };
      },
    });
    let outcome: RowOutcome = wrote ? 'updated' : 'unchanged';
    const notes: string[] = [];
    if (row.owner && row.owner.id !== project.ownerId) {
      await projects.setOwner(caller, ctx.program.id, project.id, row.owner.email);
      outcome = 'updated';
    }
    if (row.status && row.status.id !== project.statusId) {
      notes.push(`Status kept: the project is in ${ctx.model.statuses.find((s) => s.id === project.statusId)?.name ?? project.statusId}; the status column sets only a new project's first status.`);
    }
    return { ...result, outcome, projectNumber: project.number, notes };
  }

  // The owners named by e-mail, looked up once per import: an active user with a role in the program, as SetProjectOwner asks.
  #ownerLookup(ctx: ProgramContext): OwnerLookup {
    const found = new Map<string, Promise<{ id: string } | { problem: string }>>();
    const lookup = async (email: string) => {
      const user = await this.#deps.store.accounts.findUserByEmail(email);
      const grants = user ? await this.#deps.store.accounts.listGrants(user.id) : [];
      if (!user || user.disabled || !roleIn({ user, apiKeyId: '', grants }, ctx.program)) {
        return { problem: `No active user with access to program ${ctx.program.customId} has the e-mail address "${email}"; add them (People, or apas user create and apas grant add) and run the import again.` };
      }
      return { id: user.id };
    };
    return (email) => {
      const key = email.toLowerCase();
      if (!found.has(key)) found.set(key, lookup(email));
      return found.get(key)!;
    };
  }
}

function targetName(target: ColumnTarget): string {
  return target.kind === 'field' ? `field ${target.field.customId ?? target.field.name}` : target.kind === 'ignored' ? 'left out' : target.kind;
}

// Field id → column name, to tell a refusal's field problems by the column that holds the field.
function fieldColumns(columns: { name: string; target: ColumnTarget }[]): Map<string, string> {
  return new Map(columns.flatMap((c) => (c.target.kind === 'field' ? [[c.target.field.id, c.name] as const] : [])));
}
