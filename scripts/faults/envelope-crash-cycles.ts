import { createHash } from 'node:crypto';
import { verifySealedPdf } from '../../test/support/seal-verifier.ts';
import { authHeaders, demoIdentity } from './api-client.ts';
import { DOCUMENT_ENV, generate, newProject, pollRow, readRows, servedDocument, sleep, waitForRequest } from './document-crash-cycles.ts';
import { importDocumentProgram, OWNER_AGREEMENT } from './document-program.ts';
import { createFaultDatabase, type FaultDatabase, type FaultDialect } from './fault-database.ts';
import { sweptBlobProblems } from './orphan-blobs.ts';
import { seededRandom } from './seeded-random.ts';
import { serverErrors } from './server-errors.ts';
import { type ServerProcess, startServer } from './server-process.ts';

/** How an envelope crash run goes. */
export interface EnvelopeCrashOptions {
  dialect: FaultDialect;
  /** How many envelopes are signed, each with a kill while its signed PDF is made. */
  kills: number;
  seed: number;
  log?: (line: string) => void;
}

/** One envelope's cycle: how long after the last signature the server was killed, and when it was finished. */
export interface EnvelopeCycle { index: number; envelopeId: string; killedAfterSignMs: number; finishedAgainInMs: number }

/** The outcome: `problems` is empty when every envelope was completed once with one sealed signed version. */
export interface EnvelopeCrashReport { dialect: FaultDialect; seed: number; cycles: EnvelopeCycle[]; sweptOrphans: number; problems: string[]; ms: number }

type EnvelopeRow = { id: string; state: string; signed_version: number | string | null; attachment_id: string };

const ENVELOPE_ROW = 'select id, state, signed_version, attachment_id from envelopes where project_id = ? and attachment_version = ?';

async function envelopeOf(db: FaultDatabase, projectId: string, attachmentVersion: number): Promise<EnvelopeRow | undefined> {
  return (await readRows<EnvelopeRow>(db, ENVELOPE_ROW, [projectId, attachmentVersion]))[0];
}

/**
 * The project's owner (the demo's applicant) signs on the signing page, signed in with HTTP Basic as a browser may: the
 * CSRF token and cookie from a page, then the form. The answer's status (303 when signed).
 */
async function signAsOwner(server: ServerProcess, envelopeId: string): Promise<number> {
  const authorization = authHeaders(demoIdentity('applicant')).authorization!;
  const page = await fetch(`${server.origin}/MvcProjects/Sign?EnvelopeId=${envelopeId}`, { headers: { authorization } });
  const html = await page.text();
  const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  const cookie = page.headers.getSetCookie().find((c) => c.startsWith('_csrf='))?.split(';')[0];
  if (!token || !cookie) throw new Error(`the signing page (${page.status}) has no CSRF token: ${html.slice(0, 300)}`);
  const form = new URLSearchParams({ _csrf: token, EnvelopeId: envelopeId, Action: 'Sign', TypedName: 'Alex Applicant', Consent: 'true' });
  const res = await fetch(`${server.origin}/MvcProjects/Sign`, {
    method: 'POST', redirect: 'manual', body: form.toString(), headers: { authorization, cookie, 'content-type': 'application/x-www-form-urlencoded' },
  });
  await res.arrayBuffer();
  return res.status;
}

/**
 * Imports the demo program with a long agreement its owner signs, and `kills` times: generates the agreement (which
 * sends it in an envelope), signs it as the owner on the signing page, and kills the server with SIGKILL while the
 * signed PDF is being made (0–250 ms after the signature's answer; making it takes the best part of a second). The
 * kill must leave the envelope waiting (`sent`, everyone signed). After the restart the envelope must be completed
 * once: one signed version whose SHA-256 is that of the bytes served and whose seal verifies, one
 * `project.envelope.complete` audit row and one `envelope.completed` event. At the end no orphaned file may be left
 * after the sweep.
 */
export async function runEnvelopeCrashCycles(options: EnvelopeCrashOptions): Promise<EnvelopeCrashReport> {
  const started = Date.now();
  const random = seededRandom(options.seed);
  const log = options.log ?? (() => {});
  const report: EnvelopeCrashReport = { dialect: options.dialect, seed: options.seed, cycles: [], sweptOrphans: 0, problems: [], ms: 0 };
  const db = await createFaultDatabase(options.dialect);
  let server: ServerProcess | undefined;
  try {
    // --demo makes the demo's self-signed signing certificate, which the restarted servers find where it was made.
    server = await startServer({ databaseUrl: db.url, name: `${options.dialect} envelope server 1`, env: DOCUMENT_ENV });
    await importDocumentProgram(db.url);
    const projectId = await newProject(server);
    for (let index = 1; index <= options.kills; index++) {
      const requestId = await generate(server, projectId, `crash-agreement-${index}`, OWNER_AGREEMENT);
      const generated = await waitForRequest(db, requestId, 60_000, (r) => r.state !== 'queued');
      const version = Number(generated?.attachment_version);
      const envelope = generated?.state === 'generated' ? await envelopeOf(db, projectId, version) : undefined;
      if (!envelope) {
        report.problems.push(`cycle ${index}: the agreement was not generated and sent (${JSON.stringify(generated)})`);
        break;
      }
      const signed = await signAsOwner(server, envelope.id);
      if (signed !== 303) {
        report.problems.push(`cycle ${index}: signing answered ${signed}, not 303`);
        break;
      }
      const killedAfterSignMs = Math.round(random() * 250);
      await sleep(killedAfterSignMs);
      const victim = server;
      await victim.kill9();
      report.problems.push(...serverErrors(victim.log()).map((line) => `cycle ${index}: server logged an error: ${line}`));
      const left = await envelopeOf(db, projectId, version);
      if (left?.state !== 'sent') report.problems.push(`cycle ${index}: the kill came after the signed PDF was stored (envelope ${left?.state}): the run did not kill its making`);
      const restarted = Date.now();
      // Without --demo: that would import the demo's own program file again, without the agreement.
      server = await startServer({ databaseUrl: db.url, name: `${options.dialect} envelope server ${index + 1}`, env: DOCUMENT_ENV, demo: false });
      const done = await pollRow<EnvelopeRow>(db, ENVELOPE_ROW, [projectId, version], 60_000, (e) => e.state !== 'sent');
      const finishedAgainInMs = Date.now() - restarted;
      report.cycles.push({ index, envelopeId: envelope.id, killedAfterSignMs, finishedAgainInMs });
      report.problems.push(...(await checkEnvelope(server, db, projectId, envelope.id, done)).map((p) => `cycle ${index}: ${p}`));
      log(`${options.dialect} cycle ${index}/${options.kills}: killed ${killedAfterSignMs} ms after the last signature, completed ${finishedAgainInMs} ms after the restart`);
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

/** The checks of one envelope after the restart (see runEnvelopeCrashCycles). */
async function checkEnvelope(server: ServerProcess, db: FaultDatabase, projectId: string, envelopeId: string, done: EnvelopeRow | undefined): Promise<string[]> {
  if (done?.state !== 'completed') return [`the envelope was not completed after the restart (${JSON.stringify(done)})`];
  const problems: string[] = [];
  const versions = await readRows<{ version: number | string; sha256: string; size_bytes: number | string }>(db,
    'select version, sha256, size_bytes from attachments where project_id = ? and definition_id = ? and file_name like ? order by version', [projectId, done.attachment_id, '%(signed).pdf']);
  const signedVersions = versions.filter((v) => Number(v.version) === Number(done.signed_version));
  // Every signed version of the project's agreement belongs to one completed envelope: as many as envelopes completed.
  const completed = await readRows(db, 'select id from envelopes where project_id = ? and state = ?', [projectId, 'completed']);
  if (versions.length !== completed.length || signedVersions.length !== 1) {
    problems.push(`${versions.length} signed versions for ${completed.length} completed envelopes; the envelope names version ${done.signed_version}`);
  }
  const audited = (await readRows(db, 'select id from audit_log where action = ? and detail like ?', ['project.envelope.complete', `%${envelopeId}%`])).length;
  const events = (await readRows(db, 'select id from events where type = ? and data like ?', ['envelope.completed', `%${envelopeId}%`])).length;
  if (audited !== 1 || events !== 1) problems.push(`${audited} project.envelope.complete audit rows and ${events} envelope.completed events name the envelope, not one each`);
  const served = await servedDocument(server, projectId, OWNER_AGREEMENT);
  const sha = createHash('sha256').update(served.bytes).digest('hex');
  const version = signedVersions[0];
  if (served.status !== 200 || !version || sha !== version.sha256 || served.bytes.length !== Number(version.size_bytes)) {
    problems.push(`the signed agreement is served as ${served.status}, ${served.bytes.length} bytes with SHA-256 ${sha}; the version says ${version?.size_bytes} bytes, ${version?.sha256}`);
  }
  const seal = verifySealedPdf(new Uint8Array(served.bytes));
  if (!seal.valid) problems.push(`the signed agreement's seal does not verify: ${seal.problem}`);
  return problems;
}
