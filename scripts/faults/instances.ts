/**
 * `npm run faults:instances`: three server processes on one PostgreSQL database take a concurrent write load
 * and rounds of concurrent changes to one project; numbers must stay unique and without gaps, and exactly one
 * change per round may win. Also starts three instances on a new database at once, to see that seeding the
 * demo concurrently works, restarts PostgreSQL under a write load over three instances, and first moves an installation
 * from one machine (SQLite, local files) to three instances on PostgreSQL with the files in S3 (move-to-cluster-run.ts). Options: `-- --count ROUNDS` (default 40), `--seed N`. Exits 1 when a check failed.
 */
import os from 'node:os';
import { createFaultDatabase, stopOwnPostgres } from './fault-database.ts';
import { runInstances, startInstances } from './instances-run.ts';
import { runMoveToCluster } from './move-to-cluster-run.ts';
import { runPgRestart } from './pg-restart-run.ts';
import { parseRunOptions, progress } from './run-options.ts';
import { seedFrom } from './seeded-random.ts';

const options = parseRunOptions('tsx scripts/faults/instances.ts [--count ROUNDS] [--seed N]', ['postgres']);
const rounds = options.count ?? 40;
const seed = options.seed ?? seedFrom('FAULTS_SEED');
const loadMs = Number(process.env.FAULTS_LOAD_SECONDS ?? 60) * 1000;
const started = Date.now();
const say = progress(started);
say(`several-instances run: 3 instances on PostgreSQL, ${loadMs / 1000} s of write load, ${rounds} contention rounds, seed ${seed}; ${os.cpus().length} CPUs, node ${process.version}`);

let failed = false;
try {
  // The way an agency gets here: one machine on SQLite, moved with `apas move` to PostgreSQL and S3, served by three.
  const moved = await runMoveToCluster({ projects: 6, log: say });
  say(`move to a cluster: ${moved.projects} projects, ${moved.files} files and ${moved.events} events served by three instances after the move`);
  if (moved.problems.length > 0) {
    failed = true;
    say(`${moved.problems.length} PROBLEMS after the move to a cluster:`);
    for (const p of moved.problems) say(`  ${p}`);
  }
  const db = await createFaultDatabase('postgres');
  try {
    const servers = await startInstances(db, 3, true);
    say('three instances started together on a new database: all seeded and ready');
    await Promise.all(servers.map((s) => s.stop()));
  } catch (error) {
    failed = true;
    say(`PROBLEM: starting three instances together on a new database failed: ${(error as Error).message}`);
  } finally {
    await db.drop();
  }
  const report = await runInstances({ loadMs, rounds, seed, log: say });
  const final = report.final;
  if (final) {
    say(`database: ${final.projects} projects, ${final.numbered} numbered 1..${final.numbered}; ${final.ackedSubmissions} acknowledged submissions`);
  }
  const winners = report.rounds.filter((r) => Object.entries(r.statuses).filter(([k]) => k.startsWith('2')).reduce((n, [, v]) => n + v, 0) === 1).length;
  say(`contention: ${winners} of ${report.rounds.length} rounds had exactly one winner`);
  if (report.problems.length > 0) {
    failed = true;
    say(`${report.problems.length} PROBLEMS:`);
    for (const p of report.problems.slice(0, 50)) say(`  ${p}`);
  }
  // PostgreSQL restarted (stopped, down 3 s, started on the same data) a third into a write load over three instances.
  const restart = await runPgRestart({ loadMs, restartAfterMs: loadMs / 3, downMs: 3000, seed, log: say });
  say(`PostgreSQL restart: ${restart.load?.projects ?? 0} projects, ${restart.unavailable} writes answered 503 while it was away`);
  if (restart.problems.length > 0) {
    failed = true;
    say(`${restart.problems.length} PROBLEMS after the PostgreSQL restart:`);
    for (const p of restart.problems.slice(0, 50)) say(`  ${p}`);
  }
} finally {
  await stopOwnPostgres();
}
say(failed ? 'FAILED' : 'OK');
process.exit(failed ? 1 : 0);
