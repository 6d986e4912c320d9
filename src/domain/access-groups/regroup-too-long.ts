import { MAX_WRITE_TRANSACTION_MS, type StoreReader } from '../../store/store.ts';
import { StoreError } from '../../store/store-error.ts';
import { ApiError } from '../api-error.ts';

/**
 * Minutes of `--long-transaction` advised per 100,000 projects: about twice the slowest measured (2026-11-30,
 * docs/performance.md "The recount of a big program": up to 0.9 ms a project on a loaded PostgreSQL when every moved
 * project is also unassigned, the dashboards' refresh at commit included), so that a busy machine still fits.
 */
export const ADVISED_MINUTES_PER_100K = 3;

/** The `--long-transaction` minutes advised for a program of `projects` projects (at least 3). */
export function advisedMinutes(projects: number): number {
  return Math.ceil(Math.max(projects, 1) / 100_000) * ADVISED_MINUTES_PER_100K;
}

/**
 * The error an import gives when its transaction was rolled back for time while it recounted the program's access
 * groups: why (the program's projects, the bound it did not fit in) and what to do (`apas program import
 * --long-transaction MINUTES` in a quiet hour), instead of a bare "try again" that would fail the same way. Any other
 * error is given back as it is. Read after the rollback, outside the transaction.
 */
export async function regroupTooLong(reader: Pick<StoreReader, 'projects'>, error: unknown, program: { id: string; customId: string }, maxMs: number | undefined): Promise<unknown> {
  if (!(error instanceof StoreError) || error.code !== 'TRANSACTION_TOO_LONG') return error;
  const projects = await reader.projects.countProgramProjects(program.id);
  const bound = maxMs === undefined ? `the ${MAX_WRITE_TRANSACTION_MS / 1000} s a change may take` : `the ${minutesOf(maxMs)} given by --long-transaction`;
  const minutes = Math.max(advisedMinutes(projects), maxMs === undefined ? 0 : Math.ceil((maxMs * 2) / 60_000));
  return new ApiError('SERVICE_UNAVAILABLE', `Program ${program.customId} has ${projects.toLocaleString('en-US')} project${projects === 1 ? '' : 's'}; recounting their access groups did not fit in ${bound}, `
    + `so the import was rolled back and nothing was changed. Import the file at the command line in a quiet hour with `
    + `\`apas program import FILE --long-transaction ${minutes}\` (minutes): while it runs, changes of this program's projects wait (on SQLite, every write waits).`);
}

function minutesOf(ms: number): string {
  const m = Math.round((ms / 60_000) * 10) / 10;
  return `${m} minute${m === 1 ? '' : 's'}`;
}
