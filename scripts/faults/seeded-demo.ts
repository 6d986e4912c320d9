import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The environment that names a directory for one test run's seeded demo (scripts/run-tests.ts sets it): a new SQLite
 * database that a test's `apas serve --demo` would seed starts as a copy of a database `apas demo` seeded once per run.
 */
export const DEMO_TEMPLATE_ENV = 'APAS_TEST_DEMO_DIR';

/** Settings a copied demo cannot honour: its sealed values open only with its own key file, its certificate has no passphrase. */
const OWN_KEYS = ['APAS_SECRET_KEYS', 'APAS_SECRET_KEY_FILE', 'APAS_SIGNING_P12', 'APAS_SIGNING_P12_PASSPHRASE'] as const;
/** What `apas demo` makes beside the database, in the same directory. */
const COMPANIONS = ['apas-secret.key', 'apas-signing.p12'] as const;

/**
 * Puts a copy of the run's seeded demo (database, key file, signing certificate) at `file` when a server started with
 * --demo would otherwise seed a new SQLite database itself; returns whether it did. Seeding costs 2 s of CPU per
 * server (the 10,000-row inverter list, the program, the sample projects, an RSA key), and the fault runs, backups and
 * mail tests start a dozen such servers; `serve --demo` still runs on the copy and finds the demo there, as on a
 * restart. Seeding a new database is itself tested where it is the subject (test/readme/quick-start.test.ts,
 * test/faults/instances.test.ts on PostgreSQL, `apas demo` in test/cli). Outside `npm test` nothing is copied.
 */
export async function copySeededDemo(file: string, env: NodeJS.ProcessEnv, root: string): Promise<boolean> {
  const runDir = env[DEMO_TEMPLATE_ENV];
  if (!runDir || /^postgres(ql)?:/.test(file) || file.startsWith('sqlite:') || file === ':memory:') return false;
  if (OWN_KEYS.some((name) => (env[name] ?? '') !== '')) return false;
  if (fs.existsSync(file)) return false;
  const seeded = await seededDemo(runDir, root);
  const dir = path.dirname(file);
  // The key file and certificate belong to the directory: a database beside another copy shares them (the same bytes).
  const companions = COMPANIONS.map((name) => ({ from: path.join(seeded, name), to: path.join(dir, name) }));
  if (companions.some(({ from, to }) => fs.existsSync(to) && !fs.readFileSync(to).equals(fs.readFileSync(from)))) return false;
  fs.mkdirSync(dir, { recursive: true });
  for (const { from, to } of companions) if (!fs.existsSync(to)) fs.copyFileSync(from, to);
  fs.copyFileSync(path.join(seeded, 'apas.db'), file);
  return true;
}

/**
 * The run's seeded demo directory, made by the first caller: `apas demo` in a directory of its own, then renamed into
 * place, so that test files starting servers at the same time each get a whole one (a loser of the race drops its own).
 */
async function seededDemo(runDir: string, root: string): Promise<string> {
  const ready = path.join(runDir, 'seeded');
  if (fs.existsSync(path.join(ready, 'apas.db'))) return ready;
  const own = fs.mkdtempSync(path.join(runDir, 'seeding-'));
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: path.join(own, 'apas.db'), APAS_LOG_LEVEL: 'warn' };
  for (const name of OWN_KEYS) delete env[name];
  const result = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/apas.js', 'demo'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
  if (result.code !== 0) throw new Error(`apas demo for the run's seeded demo failed (exit ${result.code}):\n${result.output}`);
  // Closing its last connection checkpointed the WAL: the database file alone is the whole database.
  if (fs.existsSync(path.join(own, 'apas.db-wal')) && fs.statSync(path.join(own, 'apas.db-wal')).size > 0) throw new Error('the seeded demo kept a WAL');
  try {
    fs.renameSync(own, ready);
  } catch (error) {
    if (!['ENOTEMPTY', 'EEXIST'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    fs.rmSync(own, { recursive: true, force: true });
  }
  return ready;
}
