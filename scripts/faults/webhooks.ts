/**
 * `npm run faults:webhooks`: subscribes a receiver, kills the server with SIGKILL 10 times (per database) under
 * write load, and checks that every committed event was delivered at least once, verified, in order per project.
 * Options: `-- --db sqlite|postgres|both` (default both), `--count N` kills, `--seed N` to repeat a run.
 * Exits 1 when any check failed. See docs/reliability.md.
 */
import { stopOwnPostgres } from './fault-database.ts';
import { parseRunOptions, progress } from './run-options.ts';
import { seedFrom } from './seeded-random.ts';
import { runWebhookCrashCycles } from './webhook-crash-cycles.ts';

const options = parseRunOptions('tsx scripts/faults/webhooks.ts [--db sqlite|postgres|both] [--count KILLS] [--seed N]');
const kills = options.count ?? 10;
const seed = options.seed ?? seedFrom('FAULTS_SEED');
const say = progress(Date.now());
say(`webhook crash run: ${kills} kills per database on ${options.dialects.join(' and ')}, seed ${seed}`);

let failed = false;
try {
  for (const dialect of options.dialects) {
    const report = await runWebhookCrashCycles({ dialect, kills, seed, log: say });
    say(`${dialect}: ${report.events} events committed, ${report.received} deliveries received (${report.duplicates} duplicates, ${report.refusedWhileDown} refused while the receiver was down) in ${(report.ms / 1000).toFixed(1)} s`);
    if (report.problems.length > 0) {
      failed = true;
      say(`${dialect}: ${report.problems.length} PROBLEMS:`);
      for (const p of report.problems) say(`  ${p}`);
    } else {
      say(`${dialect}: every committed event delivered at least once, verified, in order per project`);
    }
  }
} finally {
  await stopOwnPostgres();
}
say(failed ? 'FAILED' : 'OK');
process.exit(failed ? 1 : 0);
