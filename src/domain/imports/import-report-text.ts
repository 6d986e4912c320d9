import type { ImportProblem } from './import-columns.ts';
import type { ImportReport, ImportRowResult } from './project-import-service.ts';

/** A problem as a line of text: `line 3, column "Owner": message`. */
export function problemText(p: ImportProblem): string {
  return `line ${p.line}${p.column === null ? '' : `, column "${p.column}"`}: ${p.message}`;
}

/** One row's result as lines of text: its outcome and project, then its problems and notes indented. */
export function rowText(row: ImportRowResult, dryRun: boolean): string[] {
  const verb = dryRun && row.outcome !== 'refused' ? `would be ${row.outcome === 'unchanged' ? 'unchanged' : row.outcome}` : row.outcome;
  const project = row.projectId === null ? '' : `  project ${row.projectNumber ?? row.projectId}`;
  return [
    `line ${row.line}  ${row.externalId ?? '(no external id)'}  ${verb}${project}`,
    ...row.problems.map((p) => `  ${problemText(p)}`),
    ...row.notes.map((n) => `  note: ${n}`),
  ];
}

/** The report's last line: how many rows had each outcome, and what a dry run kept (nothing). */
export function summaryText(report: ImportReport): string {
  const { created, updated, unchanged, refused } = report.counts;
  const counts = `${created} created, ${updated} updated, ${unchanged} unchanged, ${refused} refused`;
  return report.dryRun ? `Dry run of ${report.rows.length} rows: ${counts}; nothing was kept.` : `Imported ${report.rows.length} rows: ${counts}.`;
}
