/**
 * `npm run faults:crash`: kills the server with SIGKILL 20 times (per database) under concurrent write load
 * and checks after every kill that nothing acknowledged was lost and nothing half-written is visible, and that no
 * deadline (planted to fall due during the load) fired twice or was lost.
 * Options: `-- --db sqlite|postgres|both` (default both), `--count N` kills, `--seed N` to repeat a run.
 * Exits 1 when any check failed. See docs/reliability.md.
 */
import os from 'node:os';
import { runCrashCycles } from './crash-cycles.ts';
import { stopOwnPostgres } from './fault-database.ts';
import { parseRunOptions, progress } from './run-options.ts';
import { seedFrom } from './seeded-random.ts';

const options = parseRunOptions('tsx scripts/faults/crash.ts [--db sqlite|postgres|both] [--count KILLS] [--seed N]');
const kills = options.count ?? 20;
const seed = options.seed ?? seedFrom('FAULTS_SEED');
const started = Date.now();
const say = progress(started);
say(`crash run: ${kills} kills per database on ${options.dialects.join(' and ')}, seed ${seed}; ${os.cpus().length} CPUs, node ${process.version}`);

let failed = false;
try {
  for (const dialect of options.dialects) {
    const report = await runCrashCycles({ dialect, kills, seed, log: say });
    const writes = report.cycles.reduce((n, c) => n + c.acked, 0);
    const inFlight = report.cycles.reduce((n, c) => n + c.lost, 0);
    say(`${dialect}: writes by kind and outcome: ${Object.entries(report.writes).sort().map(([k, n]) => `${k} ${n}`).join(', ')}`);
    const final = report.final;
    say(`${dialect}: ${report.cycles.length} kills in ${(report.ms / 1000).toFixed(1)} s; ${writes} writes acknowledged, ${inFlight} without answer at a kill;`);
    if (final) {
      say(`${dialect}: ${final.projects} projects, ${final.ackedSubmissions} acknowledged submissions, numbers 1..${final.numbered} without gap or duplicate: ${final.problems.length === 0 ? 'yes' : 'NO'};`
        + ` ${final.lostSubmissions} submissions lost their answer, ${final.lostSubmissionsApplied} of them had happened`);
    }
    say(`${dialect}: ${report.deadlines.planted} deadlines planted to fire under load, ${report.deadlines.passed} passed, none twice or lost: ${report.problems.some((p) => p.includes('deadline')) ? 'NO' : 'yes'}`);
    if (report.problems.length > 0) {
      failed = true;
      say(`${dialect}: ${report.problems.length} PROBLEMS:`);
      for (const p of report.problems.slice(0, 50)) say(`  ${p}`);
    } else {
      say(`${dialect}: all checks passed`);
    }
  }
} finally {
  await stopOwnPostgres();
}
say(failed ? 'FAILED' : 'OK');
process.exit(failed ? 1 : 0);
