/**
 * `npm run faults:documents`: generates a long document 5 times (per database), killing the server with SIGKILL while
 * each request renders, and checks that every request made exactly one version, served with its SHA-256, that a
 * retried GenerateDocument answers the same request, and that no orphaned file is left after the sweep; then signs a
 * long agreement 5 times, killing the server while it makes the signed PDF, and checks that each envelope was
 * completed once, with one sealed signed version.
 * Options: `-- --db sqlite|postgres|both` (default both), `--count N` kills, `--seed N` to repeat a run.
 * Exits 1 when any check failed. See docs/reliability.md.
 */
import { runDocumentCrashCycles } from './document-crash-cycles.ts';
import { runEnvelopeCrashCycles } from './envelope-crash-cycles.ts';
import { stopOwnPostgres } from './fault-database.ts';
import { parseRunOptions, progress } from './run-options.ts';
import { seedFrom } from './seeded-random.ts';

const options = parseRunOptions('tsx scripts/faults/documents.ts [--db sqlite|postgres|both] [--count KILLS] [--seed N]');
const kills = options.count ?? 5;
const seed = options.seed ?? seedFrom('FAULTS_SEED');
const say = progress(Date.now());
say(`document crash run: ${kills} kills per database on ${options.dialects.join(' and ')}, seed ${seed}`);

/** Says what a run found; true when it found problems. */
function tell(dialect: string, problems: string[], allWell: string): boolean {
  if (problems.length === 0) {
    say(`${dialect}: ${allWell}`);
    return false;
  }
  say(`${dialect}: ${problems.length} PROBLEMS:`);
  for (const p of problems) say(`  ${p}`);
  return true;
}

let failed = false;
try {
  for (const dialect of options.dialects) {
    const generation = await runDocumentCrashCycles({ dialect, kills, seed, log: say });
    say(`${dialect}: ${generation.cycles.length} requests killed while rendering, ${generation.sweptOrphans} orphaned files swept, in ${(generation.ms / 1000).toFixed(1)} s`);
    failed = tell(dialect, generation.problems, 'every request made exactly one version, served with its SHA-256; no orphaned file') || failed;
    const signing = await runEnvelopeCrashCycles({ dialect, kills, seed, log: say });
    say(`${dialect}: ${signing.cycles.length} envelopes killed while their signed PDF was made, ${signing.sweptOrphans} orphaned files swept, in ${(signing.ms / 1000).toFixed(1)} s`);
    failed = tell(dialect, signing.problems, 'every envelope completed once, with one sealed signed version; no orphaned file') || failed;
  }
} finally {
  await stopOwnPostgres();
}
say(failed ? 'FAILED' : 'OK');
process.exit(failed ? 1 : 0);
