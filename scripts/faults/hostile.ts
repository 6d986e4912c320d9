/**
 * `npm run faults:hostile`: 10,000 generated hostile requests (fast-check) over TCP to a spawned server on
 * SQLite; every one must be refused with a 4xx and an XML ErrorResponse, nothing may change, and the server must
 * keep serving. Prints the answers by status and code. Then a hundredth as many (at least 60) request bodies broken off
 * at random points (scripts/faults/aborted-bodies.ts): the server must survive them and store nothing. Options:
 * `-- --count N`, `--seed N` (repeats a run exactly), `--db sqlite|postgres|both` (default sqlite). Exits 1 when a
 * check failed.
 */
import os from 'node:os';
import { runAbortedBodies } from './aborted-bodies.ts';
import { stopOwnPostgres } from './fault-database.ts';
import { runHostileSession } from './hostile-session.ts';
import { parseRunOptions, progress } from './run-options.ts';
import { seedFrom } from './seeded-random.ts';

const options = parseRunOptions('tsx scripts/faults/hostile.ts [--count N] [--seed N] [--db sqlite|postgres|both]', ['sqlite']);
const count = options.count ?? 10_000;
const seed = options.seed ?? seedFrom('FAULTS_SEED');
const started = Date.now();
const say = progress(started);
say(`hostile run: ${count} requests over TCP per database (${options.dialects.join(', ')}), fast-check seed ${seed}; ${os.cpus().length} CPUs, node ${process.version}`);

let failed = false;
try {
  for (const dialect of options.dialects) {
    const report = await runHostileSession('socket', dialect, { count, seed, concurrency: 16, log: say });
    say(`${dialect}: ${report.sent} requests in ${(report.ms / 1000).toFixed(1)} s; answers by status and code:`);
    for (const [key, n] of Object.entries(report.byStatus).sort((a, b) => b[1] - a[1])) say(`  ${String(n).padStart(6)}  ${key}`);
    say(`${dialect}: by category:`);
    for (const [category, counts] of Object.entries(report.byCategory).sort()) {
      const total = Object.values(counts).reduce((a, b) => a + b, 0);
      say(`  ${category.padEnd(14)} ${String(total).padStart(6)}  ${Object.entries(counts).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ×${n}`).join(', ')}`);
    }
    const problems = [
      ...report.failures.map((f) => `${f.method} ${f.path} [${f.label}]: ${f.problem}`),
      ...report.resets.map((f) => `${f.method} ${f.path} [${f.label}]: connection reset before the 413 was read (${f.problem})`),
      ...report.stateChanges.map((c) => `state changed: ${c}`),
      ...report.afterwards,
    ];
    if (problems.length > 0) {
      failed = true;
      say(`${dialect}: ${problems.length} PROBLEMS (seed ${seed}):`);
      for (const p of problems.slice(0, 60)) say(`  ${p}`);
    } else {
      say(`${dialect}: every request refused with a 4xx and a valid error body; no state changed; the server still serves`);
    }
    const aborted = await runAbortedBodies({ dialect, tries: Math.max(60, Math.round(count / 100)), seed, log: say });
    if (aborted.problems.length > 0) {
      failed = true;
      say(`${dialect}: ${aborted.problems.length} PROBLEMS with bodies broken off (seed ${seed}):`);
      for (const p of aborted.problems.slice(0, 30)) say(`  ${p}`);
    } else {
      say(`${dialect}: ${aborted.tries.length} bodies broken off: the server survived, nothing was stored, ${aborted.retriedOk} keys free for the retry`);
    }
  }
} finally {
  await stopOwnPostgres();
}
say(failed ? 'FAILED' : 'OK');
process.exit(failed ? 1 : 0);
