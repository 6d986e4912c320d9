import { createHash } from 'node:crypto';
import { API, ApiClient, demoIdentity, xmlAttr, xmlAttrs } from './api-client.ts';
import { AttachmentNeeds, listProjects, PROGRAM_PATH } from './demo-steps.ts';
import { createFaultDatabase, type FaultDialect } from './fault-database.ts';
import { seededRandom } from './seeded-random.ts';
import { type ServerProcess, startServer } from './server-process.ts';
import { serverErrors } from './server-errors.ts';
import { plantDeadlines, verifyDeadlines } from './deadline-checks.ts';
import { openSqlReader, sqliteIntegrityProblems } from './sql-reader.ts';
import { type Verification, verifyDatabase } from './verify-database.ts';
import { WriteJournal } from './write-journal.ts';
import { runWriteLoad } from './write-load.ts';

/** How a crash run goes. */
export interface CrashOptions {
  dialect: FaultDialect;
  /** How many times the server is killed with SIGKILL (and restarted). */
  kills: number;
  /** Concurrent clients writing. Default 8. */
  workers?: number;
  /** The kill comes this many ms after the first acknowledged submission of a cycle, at random. Default [0, 1500]. */
  killDelayMs?: [number, number];
  seed: number;
  /** Progress lines. */
  log?: (line: string) => void;
}

/** One kill and what the database held afterwards. */
export interface CrashCycle {
  index: number;
  killedAfterMs: number;
  /** Writes of this cycle: acknowledged, refused, and without answer (in flight at the kill). */
  acked: number;
  refused: number;
  lost: number;
  verification: Verification;
}

/** The outcome of a crash run; `problems` is empty when every check passed. */
export interface CrashReport {
  dialect: FaultDialect;
  seed: number;
  cycles: CrashCycle[];
  problems: string[];
  final: Verification | null;
  /** Every write of the run by kind and outcome, e.g. `submit acked`. */
  writes: Record<string, number>;
  /** Deadlines planted to fire during the load, and how many had fired at the end. */
  deadlines: { planted: number; passed: number };
  ms: number;
}

/**
 * Starts a server on a fresh database, puts it under concurrent write load (creates, draft writes,
 * submissions) and kills it with SIGKILL at a random moment, `kills` times. After every kill it checks the
 * database with the server dead (verifyDatabase, and on SQLite integrity_check and foreign_key_check on the
 * file opened read-only), restarts the server and checks that the API shows exactly what the database holds.
 */
export async function runCrashCycles(options: CrashOptions): Promise<CrashReport> {
  const started = Date.now();
  const random = seededRandom(options.seed);
  const log = options.log ?? (() => {});
  const [minDelay, maxDelay] = options.killDelayMs ?? [0, 1500];
  const report: CrashReport = { dialect: options.dialect, seed: options.seed, cycles: [], problems: [], final: null, writes: {}, ms: 0, deadlines: { planted: 0, passed: 0 } };
  const db = await createFaultDatabase(options.dialect);
  const journal = new WriteJournal();
  const needs = new AttachmentNeeds();
  let server: ServerProcess | undefined;
  try {
    for (let index = 1; index <= options.kills + 1; index++) {
      // The poller fires due deadlines every 100 ms, so the ones planted below fire while the load runs and the kill comes.
      server = await startServer({ databaseUrl: db.url, name: `${options.dialect} server ${index}`, env: { APAS_DEADLINE_INTERVAL_MS: '100' } });
      report.problems.push(...(await compareApiWithDatabase(server, db.config)).map((p) => `after restart ${index - 1}: ${p}`));
      if (index > options.kills) break;
      const before = journal.all().length;
      report.deadlines.planted += await plantDeadlines(db.config, index, random);
      const killedAfterMs = Math.round(minDelay + random() * (maxDelay - minDelay));
      const victim = server;
      let kill: Promise<void> | undefined;
      const client = new ApiClient(server.origin, demoIdentity('applicant'), 20_000);
      const load = await runWriteLoad({
        clients: [client], workers: options.workers ?? 8, journal, needs, random, until: Date.now() + 60_000, tokenPrefix: `C${index}w`,
        onFirstSubmission: () => {
          kill = new Promise((resolve) => setTimeout(resolve, killedAfterMs)).then(() => victim.kill9());
        },
      });
      if (!kill) report.problems.push(`cycle ${index}: no submission was acknowledged before the load ended`);
      await (kill ?? victim.kill9());
      const records = journal.all().slice(before);
      report.problems.push(...load.unexpected.map((u) => `cycle ${index}: unexpected answer: ${u}`));
      report.problems.push(...serverErrors(victim.log()).map((line) => `cycle ${index}: server logged an error: ${line}`));
      const integrity = db.config.kind === 'sqlite' ? sqliteIntegrityProblems(db.config.file) : [];
      const verification = await verifyDatabase(db.config, journal);
      const deadlines = await verifyDeadlines(db.config);
      report.problems.push(...[...integrity, ...verification.problems, ...deadlines.problems].map((p) => `after kill ${index}: ${p}`));
      const cycle: CrashCycle = {
        index, killedAfterMs, verification,
        acked: records.filter((r) => r.outcome === 'acked').length,
        refused: records.filter((r) => r.outcome === 'refused').length,
        lost: records.filter((r) => r.outcome === 'lost').length,
      };
      report.cycles.push(cycle);
      log(`${options.dialect} kill ${index}/${options.kills} after ${killedAfterMs} ms: ${cycle.acked} writes acknowledged, ${cycle.lost} in flight; `
        + `${verification.projects} projects, numbers 1..${verification.numbered}, ${verification.problems.length + integrity.length} problems`);
    }
    // The last server fires what is due, the deadlines planted before a kill included: none may be lost. It is given
    // up to 15 s (a loaded machine), then whatever was due a second before is checked.
    for (const until = Date.now() + 15_000; Date.now() < until;) {
      if (!(await verifyDeadlines(db.config, Date.now() - 1000)).problems.some((p) => p.includes('(lost)'))) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const firedBefore = Date.now() - 1000;
    await server?.stop();
    report.problems.push(...serverErrors(server?.log() ?? '').map((line) => `last server logged an error: ${line}`));
    const deadlines = await verifyDeadlines(db.config, firedBefore);
    report.deadlines.passed = deadlines.passed;
    report.problems.push(...deadlines.problems.map((p) => `final: ${p}`));
    report.final = await verifyDatabase(db.config, journal);
    const integrity = db.config.kind === 'sqlite' ? sqliteIntegrityProblems(db.config.file) : [];
    report.problems.push(...[...integrity, ...report.final.problems].map((p) => `final: ${p}`));
  } finally {
    await server?.kill9();
    await db.drop();
    for (const r of journal.all()) report.writes[`${r.kind} ${r.outcome}`] = (report.writes[`${r.kind} ${r.outcome}`] ?? 0) + 1;
    report.ms = Date.now() - started;
  }
  return report;
}

/** Problems when the admin's GetProjects does not list exactly the projects and numbers of the database. */
async function compareApiWithDatabase(server: ServerProcess, config: Parameters<typeof openSqlReader>[0]): Promise<string[]> {
  const listed = await listProjects(new ApiClient(server.origin, demoIdentity('admin')));
  const reader = await openSqlReader(config);
  let rows: { id: string; number: string | null }[];
  try {
    rows = await reader.all<{ id: string; number: string | null }>(
      `select p.id, p.number from projects p join programs g on g.id = p.program_id where g.custom_id = 'RES-SOLAR'`,
    );
  } finally {
    await reader.close();
  }
  const problems: string[] = [];
  problems.push(...(await readBackUploads(server, config)));
  problems.push(...(await compareFeedWithDatabase(server, config)));
  if (rows.length !== listed.size) problems.push(`GetProjects lists ${listed.size} projects, the database has ${rows.length}`);
  for (const row of rows) {
    if (!listed.has(row.id)) problems.push(`GetProjects does not list project ${row.id}`);
    else if (listed.get(row.id) !== row.number) problems.push(`GetProjects shows project ${row.id} numbered ${listed.get(row.id)}, the database ${row.number}`);
  }
  return problems.slice(0, 20);
}

/** Problems when the admin's change feed (GetEvents, page by page) does not list exactly the events of the database, in order. */
async function compareFeedWithDatabase(server: ServerProcess, config: Parameters<typeof openSqlReader>[0]): Promise<string[]> {
  const reader = await openSqlReader(config);
  let stored: number[];
  try {
    stored = (await reader.all<{ seq: number | string }>('select seq from events order by seq')).map((r) => Number(r.seq));
  } finally {
    await reader.close();
  }
  const admin = new ApiClient(server.origin, demoIdentity('admin'));
  const fed: number[] = [];
  for (let after = 0; ;) {
    const answer = await admin.send('GET', `${API}/Events?after=${after}&limit=1000`);
    if (answer.status !== 200) return [`GetEvents after ${after} answered ${answer.status}: ${answer.body.slice(0, 200)}`];
    fed.push(...xmlAttrs(answer.body, 'Event', 'Sequence').map(Number));
    after = Number(xmlAttr(answer.body, 'EventsResponse', 'NextCursor'));
    if (xmlAttr(answer.body, 'EventsResponse', 'HasMore') !== 'true') break;
  }
  if (fed.join() === stored.join()) return [];
  return [`the feed lists ${fed.length} events, the database has ${stored.length}; first difference at index ${fed.findIndex((seq, i) => seq !== stored[i])}`];
}

/** Problems when uploaded files (up to 20, newest first) cannot be read back whole: a row without its blob is half-written. */
async function readBackUploads(server: ServerProcess, config: Parameters<typeof openSqlReader>[0]): Promise<string[]> {
  const reader = await openSqlReader(config);
  let rows: { project_id: string; definition_id: string; sha256: string }[];
  try {
    rows = await reader.all(`select project_id, definition_id, sha256 from attachments order by uploaded_at desc limit 20`);
  } catch {
    return []; // no uploads in this version of the service
  } finally {
    await reader.close();
  }
  const admin = new ApiClient(server.origin, demoIdentity('admin'));
  const problems: string[] = [];
  for (const row of rows) {
    const answer = await admin.send('GET', `${PROGRAM_PATH}/Projects/${row.project_id}/Attachments/${row.definition_id}`);
    const sha = createHash('sha256').update(answer.body).digest('hex');
    if (answer.status !== 200 || sha !== row.sha256) problems.push(`the upload ${row.definition_id} of project ${row.project_id} reads back as ${answer.status}, sha256 ${sha}`);
  }
  return problems;
}
