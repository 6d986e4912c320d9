import { type ApiAnswer, ApiClient, ConnectionLost, demoIdentity, NS } from './api-client.ts';
import { APPLICATION, AttachmentNeeds, applicationDrafts, createProject, listProjects, PROGRAM_PATH, setStatus, uploadPdf, writeDraft } from './demo-steps.ts';
import { createFaultDatabase, type FaultDatabase } from './fault-database.ts';
import { seededRandom } from './seeded-random.ts';
import { type ServerProcess, startServer } from './server-process.ts';
import { serverErrors } from './server-errors.ts';
import { openSqlReader } from './sql-reader.ts';
import { type Verification, verifyDatabase } from './verify-database.ts';
import { type WriteKind, WriteJournal } from './write-journal.ts';
import { runWriteLoad, type WriteLoadResult } from './write-load.ts';

/** How a several-instances run goes. */
export interface InstancesOptions {
  /** Server processes on the one PostgreSQL database. Default 3. */
  instances?: number;
  /** Concurrent writing clients, each spreading its requests over all instances. Default 9. */
  workers?: number;
  /** How long the write load runs. */
  loadMs: number;
  /** Rounds of concurrent changes to one project (each round a new project and one of four kinds). */
  rounds: number;
  /** Concurrent requests per round, spread over the instances. Default 15. */
  callersPerRound?: number;
  seed: number;
  log?: (line: string) => void;
}

/** The kinds of contention round: what the concurrent requests do to their one project. */
export type RoundKind = 'submit' | 'number-by-status' | 'decide' | 'submit-or-status';

/** One round: its kind and how the answers split. */
export interface ContentionRound { kind: RoundKind; projectId: string; statuses: Record<string, number> }

/** The outcome of a several-instances run; `problems` is empty when every check passed. */
export interface InstancesReport {
  seed: number;
  load: WriteLoadResult | null;
  rounds: ContentionRound[];
  final: Verification | null;
  problems: string[];
  ms: number;
}

// The answers a loser of a round may get: the project changed under it (CONFLICT), or it read the winner's
// result and its own change no longer applies (FORM_NOT_AVAILABLE, TRANSITION_NOT_ALLOWED).
const LOSING_CODES = new Set(['CONFLICT', 'FORM_NOT_AVAILABLE', 'TRANSITION_NOT_ALLOWED']);

/**
 * Starts `instances` server processes on one new PostgreSQL database (the first seeds the demo, then the
 * others start together), runs a write load spread over all of them, then rounds of 15 concurrent changes of
 * one project spread over them (submissions; numbering status moves; review decisions; submissions racing
 * status moves): exactly one may win, the rest must get 409. Finally the database is verified (numbers
 * 1..N without gap or duplicate, nothing half-written) and every instance must list the same projects.
 */
export async function runInstances(options: InstancesOptions): Promise<InstancesReport> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const random = seededRandom(options.seed);
  const report: InstancesReport = { seed: options.seed, load: null, rounds: [], final: null, problems: [], ms: 0 };
  const db = await createFaultDatabase('postgres');
  const servers: ServerProcess[] = [];
  try {
    servers.push(...(await startInstances(db, options.instances ?? 3, false)));
    log(`${servers.length} instances ready on one PostgreSQL database (ports ${servers.map((s) => s.port).join(', ')})`);
    const journal = new WriteJournal();
    const needs = new AttachmentNeeds();
    const applicants = servers.map((s) => new ApiClient(s.origin, demoIdentity('applicant')));
    const admins = servers.map((s) => new ApiClient(s.origin, demoIdentity('admin')));
    report.load = await runWriteLoad({
      clients: applicants, workers: options.workers ?? 9, journal, needs, random, until: Date.now() + options.loadMs, tokenPrefix: 'I',
    });
    report.problems.push(...report.load.unexpected.map((u) => `load: unexpected answer: ${u}`));
    if (report.load.lost > 0) report.problems.push(`load: ${report.load.lost} requests got no answer`);
    log(`write load: ${report.load.projects} projects, ${report.load.submitted} submitted across ${servers.length} instances`);
    const kinds: RoundKind[] = ['submit', 'number-by-status', 'decide', 'submit-or-status'];
    for (let i = 0; i < options.rounds; i++) {
      const kind = kinds[i % kinds.length]!;
      const round = await contentionRound(kind, { applicants, admins, journal, needs, callers: options.callersPerRound ?? 15, token: `R${i}`, db });
      report.rounds.push(round.round);
      report.problems.push(...round.problems.map((p) => `round ${i + 1} (${kind}): ${p}`));
      log(`round ${i + 1} ${kind}: ${JSON.stringify(round.round.statuses)}${round.problems.length > 0 ? ` — ${round.problems.length} problems` : ''}`);
    }
    report.final = await verifyDatabase(db.config, journal);
    report.problems.push(...report.final.problems.map((p) => `final: ${p}`));
    const views = await Promise.all(admins.map((a) => listProjects(a)));
    for (let i = 1; i < views.length; i++) {
      const a = JSON.stringify([...views[0]!].sort());
      if (JSON.stringify([...views[i]!].sort()) !== a) report.problems.push(`instance ${i + 1} lists other projects or numbers than instance 1`);
    }
    if (views[0]!.size !== report.final.projects) report.problems.push(`GetProjects lists ${views[0]!.size} projects, the database has ${report.final.projects}`);
    for (const s of servers) report.problems.push(...serverErrors(s.log()).map((line) => `${s.name} logged an error: ${line}`));
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await db.drop();
    report.ms = Date.now() - started;
  }
  return report;
}

/**
 * Starts the instances on `db`, all with --demo. `together`: all at once (seeding races); otherwise the
 * first seeds the demo alone and the others start together once it is ready (their seeding writes nothing).
 */
export async function startInstances(db: FaultDatabase, count: number, together: boolean): Promise<ServerProcess[]> {
  const start = (i: number) => startServer({ databaseUrl: db.url, name: `instance ${i}` });
  if (together) {
    const results = await Promise.allSettled(Array.from({ length: count }, (_, i) => start(i + 1)));
    const failed = results.filter((r) => r.status === 'rejected');
    if (failed.length > 0) {
      await Promise.all(results.map((r) => (r.status === 'fulfilled' ? r.value.stop() : undefined)));
      throw new Error(`${failed.length} of ${count} instances failed to start together:\n${failed.map((r) => String((r as PromiseRejectedResult).reason).slice(0, 600)).join('\n')}`);
    }
    return results.map((r) => (r as PromiseFulfilledResult<ServerProcess>).value);
  }
  const first = await start(1);
  const rest = await Promise.allSettled(Array.from({ length: count - 1 }, (_, i) => start(i + 2)));
  const failed = rest.find((r) => r.status === 'rejected');
  if (failed) {
    await Promise.all([first, ...rest.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))].map((s) => s.stop()));
    throw (failed as PromiseRejectedResult).reason;
  }
  return [first, ...rest.map((r) => (r as PromiseFulfilledResult<ServerProcess>).value)];
}

interface RoundContext {
  applicants: ApiClient[];
  admins: ApiClient[];
  journal: WriteJournal;
  needs: AttachmentNeeds;
  callers: number;
  token: string;
  db: FaultDatabase;
}

/** Prepares one project, fires the round's concurrent requests at it across the instances, and checks them. */
async function contentionRound(kind: RoundKind, ctx: RoundContext): Promise<{ round: ContentionRound; problems: string[] }> {
  const problems: string[] = [];
  const applicant = ctx.applicants[0]!;
  const { projectId } = await createProject(applicant, ctx.journal);
  if (!projectId) throw new Error('CreateNewProject was refused');
  const complete = async () => {
    for (const values of applicationDrafts(ctx.token, 12)) {
      const r = await writeDraft(applicant, ctx.journal, projectId, values);
      if (r.record.outcome !== 'acked') throw new Error(`draft write refused: ${r.answer.body.slice(0, 300)}`);
    }
    for (const attachment of ctx.needs.required) await uploadPdf(applicant, ctx.journal, projectId, attachment);
  };
  if (kind !== 'number-by-status') await complete();
  if (kind === 'decide') {
    const r = await setStatus(ctx.admins[0]!, ctx.journal, projectId, APPLICATION.leadsTo);
    if (r.record.outcome !== 'acked') throw new Error(`SetProjectStatus refused: ${r.answer.body.slice(0, 300)}`);
  }
  const before = await projectState(ctx.db, projectId);
  const submit = (i: number) => recordCall(ctx, 'submit', projectId, ctx.applicants[i % ctx.applicants.length]!, 'POST', `${PROGRAM_PATH}/Projects/${projectId}/Forms/${APPLICATION.form}/Draft/Submit`);
  const move = (i: number, target: string) => statusCall(ctx, projectId, ctx.admins[i % ctx.admins.length]!, target);
  const call: Record<RoundKind, (i: number) => Promise<ApiAnswer>> = {
    submit,
    'number-by-status': (i) => move(i, APPLICATION.leadsTo),
    decide: (i) => move(i, i % 2 === 0 ? 'ApprovedForInstallation' : 'ApplicationRejected'),
    'submit-or-status': (i) => (i % 2 === 0 ? submit(i) : move(i, APPLICATION.leadsTo)),
  };
  const calls = Array.from({ length: ctx.callers }, (_, i) => call[kind](i));
  const answers = await Promise.all(calls);
  const statuses: Record<string, number> = {};
  let winners = 0;
  for (const a of answers) {
    const code = a.status >= 300 ? /\sCode="([^"]+)"/.exec(a.body)?.[1] ?? 'none' : 'ok';
    const key = `${a.status} ${code}`;
    statuses[key] = (statuses[key] ?? 0) + 1;
    if (a.status >= 200 && a.status < 300) winners++;
    else if (a.status !== 409 || !LOSING_CODES.has(code)) problems.push(`a loser got ${a.status} ${code}: ${a.body.slice(0, 300)}`);
  }
  if (winners !== 1) problems.push(`${winners} of ${ctx.callers} concurrent requests succeeded, expected exactly one`);
  const after = await projectState(ctx.db, projectId);
  if (after.history !== before.history + 1) problems.push(`history grew from ${before.history} to ${after.history} entries, expected one more`);
  // The documents a decision asks for (the demo's approval) are stored after it commits, each in a change of the service's own.
  const own = after.generated - before.generated;
  if (after.version !== before.version + 1 + own) problems.push(`version went from ${before.version} to ${after.version}, expected one more (and ${own} for the documents generated meanwhile)`);
  if (after.submissions > 1) problems.push(`${after.submissions} submissions recorded`);
  if (after.number === null) problems.push('the project has no number after the round');
  if (before.number !== null && after.number !== before.number) problems.push(`the number changed from ${before.number} to ${after.number}`);
  return { round: { kind, projectId, statuses }, problems };
}

function statusCall(ctx: RoundContext, projectId: string, client: ApiClient, target: string): Promise<ApiAnswer> {
  return recordCall(ctx, 'status', projectId, client, 'POST', `${PROGRAM_PATH}/Projects/${projectId}/Status`, target);
}

async function recordCall(ctx: RoundContext, kind: WriteKind, projectId: string, client: ApiClient, method: string, path: string, target?: string): Promise<ApiAnswer> {
  // The demo's rejection requires a reason (programs/residential-solar.yaml).
  const reason = target === 'ApplicationRejected' ? ' ReasonId="Incomplete"' : '';
  const body = target ? `<SetProjectStatusRequest xmlns="${NS}" StatusId="${target}"${reason}/>` : undefined;
  try {
    const answer = await client.send(method, path, body ? { body } : {});
    const ok = answer.status >= 200 && answer.status < 300;
    const number = ok ? /ProjectNumber="([^"]+)"/.exec(answer.body)?.[1] : undefined;
    const code = ok ? undefined : /\sCode="([^"]+)"/.exec(answer.body)?.[1];
    ctx.journal.add({ kind, projectId, outcome: ok ? 'acked' : 'refused', status: answer.status, via: client.origin, ...(number ? { number } : {}), ...(code ? { code } : {}), ...(target ? { target } : {}) });
    return answer;
  } catch (error) {
    if (error instanceof ConnectionLost) ctx.journal.add({ kind, projectId, outcome: 'lost', via: client.origin, ...(target ? { target } : {}) });
    throw error;
  }
}

async function projectState(db: FaultDatabase, projectId: string): Promise<{ history: number; version: number; submissions: number; number: string | null; generated: number }> {
  const sql = await openSqlReader(db.config);
  try {
    // One statement, so one snapshot: a document generated between two separate reads would be counted without its version.
    const [p] = await sql.all<{ version: number | string; number: string | null; h: number | string; s: number | string; g: number | string }>(
      `select version, number,
         (select count(*) from status_history where project_id = projects.id) as h,
         (select count(*) from form_submissions where project_id = projects.id) as s,
         (select count(*) from audit_log where project_id = projects.id and action = 'project.document.generate') as g
       from projects where id = ?`,
      [projectId],
    );
    return { version: Number(p?.version ?? -1), number: p?.number ?? null, history: Number(p?.h ?? 0), submissions: Number(p?.s ?? 0), generated: Number(p?.g ?? 0) };
  } finally {
    await sql.close();
  }
}
