import { createHash } from 'node:crypto';
import { ApiClient, authHeaders, demoIdentity, NS, xmlAttr } from './api-client.ts';
import { PROGRAM_PATH } from './demo-steps.ts';
import { importDocumentProgram, LONG_LETTER } from './document-program.ts';
import { createFaultDatabase, type FaultDatabase, type FaultDialect } from './fault-database.ts';
import { sweptBlobProblems } from './orphan-blobs.ts';
import { seededRandom } from './seeded-random.ts';
import { serverErrors } from './server-errors.ts';
import { type ServerProcess, startServer } from './server-process.ts';
import { openSqlReader } from './sql-reader.ts';

/** How a document crash run goes. */
export interface DocumentCrashOptions {
  dialect: FaultDialect;
  /** How many requests are generated, each with a kill while it renders. */
  kills: number;
  seed: number;
  log?: (line: string) => void;
}

/** One request's cycle: how long after its claim was seen the server was killed, and how the render went. */
export interface DocumentCycle { index: number; requestId: string; killedAfterClaimMs: number; renderedAgainInMs: number }

/** The outcome: `problems` is empty when every request made exactly one version, served with its SHA-256. */
export interface DocumentCrashReport { dialect: FaultDialect; seed: number; cycles: DocumentCycle[]; sweptOrphans: number; problems: string[]; ms: number }

/** A short claim, so that a request whose server was killed runs again within seconds (APAS_DOCUMENT_LEASE_MS). */
export const FAULT_LEASE_MS = 3_000;

/** The environment of the servers of the document fault runs. */
export const DOCUMENT_ENV = { APAS_DOCUMENT_LEASE_MS: String(FAULT_LEASE_MS) };

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A request's row, read straight from the database. */
type RequestRow = { state: string; lease_until: number | string | null; attempts: number | string; attachment_version: number | string | null; last_error: string | null };

/** The rows of one query, read straight from the database (the server running or dead). */
export async function readRows<T extends Record<string, unknown>>(db: FaultDatabase, sql: string, params: unknown[] = []): Promise<T[]> {
  const reader = await openSqlReader(db.config);
  try {
    return await reader.all<T>(sql, params);
  } finally {
    await reader.close();
  }
}

const REQUEST_ROW = 'select state, lease_until, attempts, attachment_version, last_error from document_requests where id = ?';

async function requestRow(db: FaultDatabase, id: string): Promise<RequestRow | undefined> {
  return (await readRows<RequestRow>(db, REQUEST_ROW, [id]))[0];
}

/**
 * Reads the first row of a query every 10 ms, on one connection, until `done` says so, for at most `ms`; the last
 * row read. One connection, so that the moment a claim appears is seen within milliseconds on a loaded machine too.
 */
export async function pollRow<T extends Record<string, unknown>>(db: FaultDatabase, sql: string, params: unknown[], ms: number, done: (row: T) => boolean): Promise<T | undefined> {
  const reader = await openSqlReader(db.config);
  try {
    let row: T | undefined;
    for (const until = Date.now() + ms; Date.now() < until; await sleep(10)) {
      row = (await reader.all<T>(sql, params))[0];
      if (row && done(row)) return row;
    }
    return row;
  } finally {
    await reader.close();
  }
}

/** Polls a request's row until `done` says so, for at most `ms`; the last row read. */
export function waitForRequest(db: FaultDatabase, id: string, ms: number, done: (row: RequestRow) => boolean): Promise<RequestRow | undefined> {
  return pollRow(db, REQUEST_ROW, [id], ms, done);
}

/** The generated versions of a request. */
function versionsOf(db: FaultDatabase, requestId: string): Promise<{ version: number; sha256: string; size_bytes: number }[]> {
  return readRows(db, 'select version, sha256, size_bytes from attachments where document_request_id = ?', [requestId]);
}

/** How many audit rows of one kind name `id` in their detail. */
export async function auditCount(db: FaultDatabase, action: string, id: string): Promise<number> {
  return (await readRows(db, 'select id from audit_log where action = ? and detail like ?', [action, `%${id}%`])).length;
}

/** GenerateDocument (the long letter unless `documentId` says) with an Idempotency-Key; the request id answered. */
export async function generate(server: ServerProcess, projectId: string, key: string, documentId = LONG_LETTER): Promise<string> {
  const admin = new ApiClient(server.origin, demoIdentity('admin'));
  const answer = await admin.send('POST', `${PROGRAM_PATH}/Projects/${projectId}/Documents/${documentId}/Generate`, { headers: { 'idempotency-key': `"${key}"` } });
  const requestId = xmlAttr(answer.body, 'DocumentRequest', 'RequestId');
  if (answer.status !== 200 || !requestId) throw new Error(`GenerateDocument answered ${answer.status}: ${answer.body.slice(0, 400)}`);
  return requestId;
}

/** The bytes GetActiveAttachment serves for a document (its newest version; the long letter's unless said), as the admin. */
export async function servedDocument(server: ServerProcess, projectId: string, documentId = LONG_LETTER): Promise<{ status: number; bytes: Buffer }> {
  const res = await fetch(`${server.origin}/services/v2/${PROGRAM_PATH}/Projects/${projectId}/Attachments/${documentId}`, { headers: authHeaders(demoIdentity('admin')) });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A new project of the demo's applicant (a draft is enough to generate a document for). */
export async function newProject(server: ServerProcess): Promise<string> {
  const answer = await new ApiClient(server.origin, demoIdentity('applicant')).send('POST', `${PROGRAM_PATH}/NewProject`, { body: `<NewProjectRequest xmlns="${NS}"/>` });
  const id = xmlAttr(answer.body, 'Project', 'ProjectId');
  if (answer.status !== 200 || !id) throw new Error(`NewProject answered ${answer.status}: ${answer.body.slice(0, 400)}`);
  return id;
}

/**
 * Imports the demo program with a long letter, and `kills` times: asks for the letter with GenerateDocument (an
 * Idempotency-Key), kills the server with SIGKILL once the request is claimed and rendering, checks the kill left
 * nothing (no version, the request queued), restarts the server after the claim ran out, and checks that the request
 * was rendered again into exactly one version (one audit row), whose SHA-256 is that of the bytes served, and that the
 * same GenerateDocument again answers the same request and makes nothing more. At the end the orphan sweep runs and
 * every stored file must belong to a version.
 */
export async function runDocumentCrashCycles(options: DocumentCrashOptions): Promise<DocumentCrashReport> {
  const started = Date.now();
  const random = seededRandom(options.seed);
  const log = options.log ?? (() => {});
  const report: DocumentCrashReport = { dialect: options.dialect, seed: options.seed, cycles: [], sweptOrphans: 0, problems: [], ms: 0 };
  const db = await createFaultDatabase(options.dialect);
  let server: ServerProcess | undefined;
  try {
    server = await startServer({ databaseUrl: db.url, name: `${options.dialect} document server 1`, env: DOCUMENT_ENV });
    await importDocumentProgram(db.url);
    const projectId = await newProject(server);
    for (let index = 1; index <= options.kills; index++) {
      const key = `crash-letter-${index}`;
      const requestId = await generate(server, projectId, key);
      const claimed = await waitForRequest(db, requestId, 30_000, (r) => r.lease_until !== null || r.state !== 'queued');
      if (claimed?.lease_until === null || claimed?.state !== 'queued') {
        report.problems.push(`cycle ${index}: the request was not claimed for rendering (${JSON.stringify(claimed)})`);
        break;
      }
      const killedAfterClaimMs = Math.round(random() * 300);
      await sleep(killedAfterClaimMs);
      const victim = server;
      await victim.kill9();
      report.problems.push(...serverErrors(victim.log()).map((line) => `cycle ${index}: server logged an error: ${line}`));
      const left = await requestRow(db, requestId);
      const early = await versionsOf(db, requestId);
      if (left?.state !== 'queued' || early.length > 0) {
        report.problems.push(`cycle ${index}: the kill came after the render (request ${left?.state}, ${early.length} versions): the run did not kill a render`);
      }
      // The claim must run out before another instance takes the request; the restarted one runs its work at once.
      const claimLeft = Number(left?.lease_until ?? 0) - Date.now();
      if (claimLeft > FAULT_LEASE_MS) {
        report.problems.push(`cycle ${index}: the claim runs ${claimLeft} ms more, past APAS_DOCUMENT_LEASE_MS (${FAULT_LEASE_MS})`);
        break;
      }
      await sleep(Math.max(0, claimLeft));
      const restarted = Date.now();
      // Without --demo: that would import the demo's own program file again, without the letter.
      server = await startServer({ databaseUrl: db.url, name: `${options.dialect} document server ${index + 1}`, env: DOCUMENT_ENV, demo: false });
      const done = await waitForRequest(db, requestId, 60_000, (r) => r.state !== 'queued');
      const renderedAgainInMs = Date.now() - restarted;
      report.cycles.push({ index, requestId, killedAfterClaimMs, renderedAgainInMs });
      report.problems.push(...(await checkRequest(server, db, { projectId, requestId, key, requests: index }, done)).map((p) => `cycle ${index}: ${p}`));
      log(`${options.dialect} cycle ${index}/${options.kills}: killed ${killedAfterClaimMs} ms after the claim, rendered again ${renderedAgainInMs} ms after the restart`);
    }
    await server.stop();
    report.problems.push(...serverErrors(server.log()).map((line) => `last server logged an error: ${line}`));
    const swept = await sweptBlobProblems(db);
    report.sweptOrphans = swept.removed;
    report.problems.push(...swept.problems);
  } finally {
    await server?.kill9();
    await db.drop();
    report.ms = Date.now() - started;
  }
  return report;
}

/** The checks of one request after the restart (see runDocumentCrashCycles). */
async function checkRequest(
  server: ServerProcess, db: FaultDatabase, asked: { projectId: string; requestId: string; key: string; requests: number }, done: RequestRow | undefined,
): Promise<string[]> {
  const { projectId, requestId, key } = asked;
  const problems: string[] = [];
  if (done?.state !== 'generated') return [`the request did not become generated after the restart (${JSON.stringify(done)})`];
  const versions = await versionsOf(db, requestId);
  if (versions.length !== 1) return [`the request made ${versions.length} versions, not one`];
  const [version] = versions;
  if (Number(done.attachment_version) !== Number(version!.version)) problems.push(`the request names version ${done.attachment_version}, its version is ${version!.version}`);
  // The killed render is no failed attempt, and the one after the restart succeeded: one attempt, no error kept.
  if (Number(done.attempts) !== 1 || done.last_error !== null) problems.push(`the request took ${done.attempts} attempts (last error: ${done.last_error})`);
  const audited = await auditCount(db, 'project.document.generate', requestId);
  if (audited !== 1) problems.push(`${audited} project.document.generate audit rows name the request, not one`);
  const served = await servedDocument(server, projectId);
  const sha = createHash('sha256').update(served.bytes).digest('hex');
  if (served.status !== 200 || sha !== version!.sha256 || served.bytes.length !== Number(version!.size_bytes)) {
    problems.push(`the letter is served as ${served.status}, ${served.bytes.length} bytes with SHA-256 ${sha}; the version says ${version!.size_bytes} bytes, ${version!.sha256}`);
  }
  if (!served.bytes.subarray(0, 5).equals(Buffer.from('%PDF-'))) problems.push('the letter served is not a PDF');
  const again = await generate(server, projectId, key);
  if (again !== requestId) problems.push(`GenerateDocument with the same Idempotency-Key answered request ${again}, not ${requestId}`);
  // Give a second request (there must be none) the time to be claimed and rendered.
  await sleep(2_000);
  const after = await versionsOf(db, requestId);
  const requests = await countRequests(db, projectId);
  if (after.length !== 1) problems.push(`after the retry the request has ${after.length} versions`);
  if (requests !== asked.requests) problems.push(`the project has ${requests} document requests after ${asked.requests} Idempotency-Keys`);
  return problems;
}

/** How many document requests the project has. */
async function countRequests(db: FaultDatabase, projectId: string): Promise<number> {
  return (await readRows(db, 'select id from document_requests where project_id = ?', [projectId])).length;
}
