import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../../test/support/embedded-postgres.ts';
import { ApiClient, demoIdentity } from './api-client.ts';
import { AttachmentNeeds, createProject, listProjects } from './demo-steps.ts';
import { createFaultDatabase } from './fault-database.ts';
import { startInstances } from './instances-run.ts';
import { seededRandom } from './seeded-random.ts';
import { serverErrors } from './server-errors.ts';
import type { ServerProcess } from './server-process.ts';
import { type Verification, verifyDatabase } from './verify-database.ts';
import { WriteJournal } from './write-journal.ts';
import { runWriteLoad, type WriteLoadResult } from './write-load.ts';

/** How a PostgreSQL-restart run goes. */
export interface PgRestartOptions {
  /** Server processes on the one database. Default 3. */
  instances?: number;
  /** Concurrent writing clients spread over the instances. Default 6. */
  workers?: number;
  /** How long the write load runs. */
  loadMs: number;
  /** When, after the load starts, PostgreSQL is stopped (a fast shutdown, as `systemctl restart postgresql` does). */
  restartAfterMs: number;
  /** How long it stays down before it starts again on the same data and port. */
  downMs: number;
  seed: number;
  log?: (line: string) => void;
}

/** What a PostgreSQL-restart run saw; `problems` is empty when every check passed. */
export interface PgRestartReport {
  load: WriteLoadResult | null;
  /** Writes answered 503 while the database was away (refused cleanly, or "may or may not have been saved"). */
  unavailable: number;
  final: Verification | null;
  problems: string[];
  ms: number;
}

// What the instances may log at error level while their database is away: the failed statements and probes.
const OUTAGE_LINE = /ECONNREFUSED|ECONNRESET|57P0[1-3]|terminat|Connection terminated|not reachable|SERVICE_UNAVAILABLE|shutting down|starting up|connect|timeout/i;

/** Waits until every instance answers /readyz 200 (it reconnected by itself), for at most `ms`; the ones that did not. */
async function waitReady(servers: ServerProcess[], ms: number): Promise<string[]> {
  const until = Date.now() + ms;
  const pending = new Set(servers);
  while (pending.size > 0 && Date.now() < until) {
    for (const s of [...pending]) {
      const ok = await fetch(`${s.origin}/readyz`, { signal: AbortSignal.timeout(2000) }).then((r) => r.status === 200, () => false);
      if (ok) pending.delete(s);
    }
    if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return [...pending].map((s) => s.name);
}

/**
 * Three instances on a PostgreSQL of this run's own take a write load; in the middle PostgreSQL stops and starts
 * again on the same data and port. Every instance must stay up and answer meanwhile (503, never a hang or a crash),
 * be ready again by itself, take writes afterwards, and the database must hold every acknowledged write and nothing
 * half done (verifyDatabase against the journal).
 */
export async function runPgRestart(options: PgRestartOptions): Promise<PgRestartReport> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const report: PgRestartReport = { load: null, unavailable: 0, final: null, problems: [], ms: 0 };
  const keepDir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-pg-restart-'));
  let server: EmbeddedPostgres = await startEmbeddedPostgres({ keepDir });
  const port = Number(new URL(server.url).port);
  const servers: ServerProcess[] = [];
  try {
    // Dropped with the server's directory at the end.
    const db = await createFaultDatabase('postgres', server.url);
    servers.push(...(await startInstances(db, options.instances ?? 3, false)));
    log(`${servers.length} instances ready on PostgreSQL ${server.version} (port ${port})`);
    const journal = new WriteJournal();
    const applicants = servers.map((s) => new ApiClient(s.origin, demoIdentity('applicant')));
    const restart = (async () => {
      await new Promise((resolve) => setTimeout(resolve, options.restartAfterMs));
      await server.stop();
      log('PostgreSQL stopped');
      await new Promise((resolve) => setTimeout(resolve, options.downMs));
      server = await startEmbeddedPostgres({ keepDir, port });
      log('PostgreSQL started again');
    })();
    report.load = await runWriteLoad({
      clients: applicants, workers: options.workers ?? 6, journal, needs: new AttachmentNeeds(), random: seededRandom(options.seed),
      until: Date.now() + options.loadMs, tokenPrefix: 'P',
    });
    await restart;
    const unexpected = report.load.unexpected.filter((u) => !/: 503 /.test(u));
    report.unavailable = report.load.unexpected.length - unexpected.length;
    report.problems.push(...unexpected.map((u) => `load: unexpected answer: ${u}`));
    if (report.load.lost > 0) report.problems.push(`load: ${report.load.lost} requests got no answer`);
    log(`write load: ${report.load.projects} projects, ${report.load.submitted} submitted, ${report.unavailable} answered 503 during the restart`);
    for (const s of servers) if (!s.alive()) report.problems.push(`${s.name} exited during the restart: ${s.log().slice(-2500)}`);
    if (report.problems.length > 0) return report;
    const notReady = await waitReady(servers, 30_000);
    report.problems.push(...notReady.map((name) => `${name} was not ready again within 30 s of the restart`));
    // Each instance takes a write after the restart: its pool reconnected, not only its probe.
    for (const [i, client] of applicants.entries()) {
      const { projectId } = await createProject(client, journal);
      if (projectId === null) report.problems.push(`${servers[i]!.name} refused a new project after the restart`);
    }
    report.final = await verifyDatabase(db.config, journal);
    report.problems.push(...report.final.problems.map((p) => `final: ${p}`));
    const views = await Promise.all(servers.map((s) => listProjects(new ApiClient(s.origin, demoIdentity('admin')))));
    if (views.some((v) => v.size !== report.final?.projects)) report.problems.push(`the instances list ${views.map((v) => v.size).join('/')} projects, the database has ${report.final.projects}`);
    for (const s of servers) {
      report.problems.push(...serverErrors(s.log()).filter((line) => !OUTAGE_LINE.test(line) || /INTERNAL_ERROR|"statusCode":500/.test(line)).map((line) => `${s.name} logged an error: ${line}`));
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await server.stop();
    fs.rmSync(keepDir, { recursive: true, force: true });
    report.ms = Date.now() - started;
  }
  return report;
}
