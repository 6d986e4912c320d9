import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { CustomList, Program } from '../../model/model.ts';
import type { Store } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import { type CsvProblem, readListCsv } from './list-csv.ts';

/** What loading a list needs: the store, the time and ids (for the audit row). */
export interface ListLoadDeps { store: Store; clock: Clock; ids: IdGenerator }

/** The list to load into: its program (id or custom id, within an agency when one is given) and the list's id, customId or name. */
export interface ListTarget { agencyRef?: string | null; programRef: string; listRef: string }

/** How a load went: the rows the file gives and the list held before, its problems by line, and whether it was loaded. */
export interface ListLoadReport {
  programId: string; programCustomId: string; listId: string; listName: string;
  rowsBefore: number; rows: number; problems: CsvProblem[]; ignoredColumns: string[]; dryRun: boolean; loaded: boolean;
}

/** How many problems a refusal names; the dry run lists them all. */
const NAMED_PROBLEMS = 20;

/** The program and the list of `rows: csv` a target names; NOT_FOUND or INVALID_REQUEST otherwise. */
export async function findLoadableList(store: Store, target: ListTarget): Promise<{ program: Program; list: CustomList }> {
  let agencyId: string | null = null;
  if (target.agencyRef) {
    const agency = await store.accounts.findAgency(target.agencyRef);
    if (!agency) throw new ApiError('NOT_FOUND', `agency "${target.agencyRef}" not found`);
    agencyId = agency.id;
  }
  const program = await store.programs.findProgram(target.programRef, agencyId);
  if (!program) throw new ApiError('NOT_FOUND', `program "${target.programRef}" not found`);
  const def = await store.programs.loadProgramDefinition(program.id);
  const retired = new Set(def?.retired ?? []);
  const lists = (def?.lists ?? []).filter((l) => !retired.has(l.id));
  const list = lists.find((l) => l.id === target.listRef || l.customId === target.listRef) ?? lists.find((l) => l.name === target.listRef);
  if (!list) throw new ApiError('NOT_FOUND', `program ${program.customId} has no custom list "${target.listRef}"`);
  if (!list.rows) throw new ApiError('INVALID_REQUEST', `custom list ${list.customId ?? list.name} of program ${program.customId} has its choices in the program file; only a list of "rows: csv" is loaded from a CSV file`);
  return { program, list };
}

/**
 * Loads a list's rows from CSV text: every row checked against the columns the program declares; with problems
 * nothing is loaded (INVALID_REQUEST naming the first ones by line, or, in a dry run, the report listing all).
 * Otherwise the list's rows are replaced in one transaction, with an audit row: a reader sees the old rows or the
 * new ones, never a mix. Values projects hold are left as they are, also those the new rows no longer have.
 */
export async function loadListRows(deps: ListLoadDeps, target: ListTarget, text: string, opts: { dryRun?: boolean; actorId?: string | null } = {}): Promise<ListLoadReport> {
  const { program, list } = await findLoadableList(deps.store, target);
  const csv = readListCsv(list.rows!, text);
  const report: ListLoadReport = {
    programId: program.id, programCustomId: program.customId, listId: list.id, listName: list.customId ?? list.name,
    rowsBefore: await deps.store.listRows.countListRows(list.id), rows: csv.rows.length, problems: csv.problems,
    ignoredColumns: csv.ignoredColumns, dryRun: opts.dryRun === true, loaded: false,
  };
  if (report.dryRun) return report;
  if (csv.problems.length > 0) throw new ApiError('INVALID_REQUEST', formatProblems(report, NAMED_PROBLEMS));
  const now = deps.clock.now();
  await deps.store.transaction(async (tx) => {
    await tx.listRows.replaceListRows(list.id, csv.rows, now);
    await tx.audit.write({
      action: 'list.load', actorId: opts.actorId ?? null, agencyId: program.agencyId, programId: program.id, requestId: null,
      detail: { listId: list.id, list: report.listName, rows: csv.rows.length, rowsBefore: report.rowsBefore },
    }, now, deps.ids.next());
  });
  return { ...report, rowsBefore: report.rowsBefore, loaded: true };
}

/** A report's problems as lines (`line 12: ratedKwAc must be a number; got "n/a"`), at most `most` of them. */
export function formatProblems(report: Pick<ListLoadReport, 'listName' | 'problems'>, most = Infinity): string {
  const shown = report.problems.slice(0, most);
  const more = report.problems.length - shown.length;
  const noun = report.problems.length === 1 ? 'problem' : 'problems';
  return [
    `The CSV file for list ${report.listName} has ${report.problems.length} ${noun}; nothing was loaded:`,
    ...shown.map((p) => `  line ${p.line}: ${p.message}`),
    ...(more > 0 ? [`  … and ${more} more (a dry run lists them all)`] : []),
  ].join('\n');
}

/** A report as `apas list load` prints it. */
export function formatLoadReport(report: ListLoadReport): string {
  const lines: string[] = [];
  if (report.problems.length > 0) lines.push(formatProblems(report));
  else if (report.dryRun) lines.push(`Dry run: list ${report.listName} of program ${report.programCustomId} would hold ${report.rows} rows (now ${report.rowsBefore}).`);
  else lines.push(`Loaded ${report.rows} rows into list ${report.listName} of program ${report.programCustomId} (it held ${report.rowsBefore}).`);
  if (report.ignoredColumns.length > 0) lines.push(`Columns the program does not declare were ignored: ${report.ignoredColumns.join(', ')}.`);
  return lines.join('\n');
}
