import { parseArgs } from 'node:util';
import type { FaultDialect } from './fault-database.ts';

/** The command-line options the long fault scripts share. */
export interface RunOptions {
  dialects: FaultDialect[];
  /** The script's main count (kills, requests, rounds, minutes…), when given. */
  count: number | undefined;
  /** A seed to repeat a run, when given. */
  seed: number | undefined;
}

/** Parses `[--db sqlite|postgres|both] [--count N] [--seed N]`; exits with usage on a bad argument. */
export function parseRunOptions(usage: string, defaultDialects: FaultDialect[] = ['sqlite', 'postgres']): RunOptions {
  try {
    const { values } = parseArgs({ options: { db: { type: 'string' }, count: { type: 'string' }, seed: { type: 'string' } }, strict: true });
    const db = values.db ?? 'default';
    const dialects: FaultDialect[] = db === 'default' ? defaultDialects : db === 'both' ? ['sqlite', 'postgres'] : db === 'sqlite' || db === 'postgres' ? [db] : [];
    if (dialects.length === 0) throw new Error(`--db must be sqlite, postgres or both, not "${db}"`);
    return { dialects, count: wholeNumber('--count', values.count), seed: wholeNumber('--seed', values.seed) };
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\nusage: ${usage}\n`);
    process.exit(2);
  }
}

function wholeNumber(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number, not "${raw}"`);
  return Number(raw);
}

/** Prints a line to stdout with the time since `since`. */
export function progress(since: number): (line: string) => void {
  return (line) => process.stdout.write(`[${((Date.now() - since) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);
}
