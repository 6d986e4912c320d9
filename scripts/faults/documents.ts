/**
 * `npm run faults:documents`: generates a long document 5 times (per database), killing the server with SIGKILL while
 * each request renders, and checks that every request made exactly one version, served with its SHA-256, that a
 * retried GenerateDocument answers the same request, and that no orphaned file is left after the sweep.
 * Options: `-- --db sqlite|postgres|both` (default both), `--count N` kills, `--seed N` to repeat a run.
 * Exits 1 when any check failed. See docs/reliability.md.
 */
import { runDocumentCrashCycles } from './document-crash-cycles.ts';
import { stopOwnPostgres } from './fault-database.ts';
import { parseRunOptions, progress } from './run-options.ts';
import { seedFrom } from './seeded-random.ts';

const options = parseRunOptions('tsx scripts/faults/documents.ts [--db sqlite|postgres|both] [--count KILLS] [--seed N]');
const kills = options.count ?? 5;
const seed = options.seed ?? seedFrom('FAULTS_SEED');
const say = progress(Date.now());
say(`document crash run: ${kills} kills per database on ${options.dialects.join(' and ')}, seed ${seed}`);

let failed = false;
try {
  for (const dialect of options.dialects) {
    const report = await runDocumentCrashCycles({ dialect, kills, seed, log: say });
    say(`${dialect}: ${report.cycles.length} requests killed while rendering, ${report.sweptOrphans} orphaned files swept, in ${(report.ms / 1000).toFixed(1)} s`);
    if (report.problems.length > 0) {
      failed = true;
      say(`${dialect}: ${report.problems.length} PROBLEMS:`);
      for (const p of report.problems) say(`  ${p}`);
    } else {
      say(`${dialect}: every request made exactly one version, served with its SHA-256; no orphaned file`);
    }
  }
} finally {
  await stopOwnPostgres();
}
say(failed ? 'FAILED' : 'OK');
process.exit(failed ? 1 : 0);
