import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { runApas } from '../../test/support/run-apas.ts';
import { type S3Server, startS3Server } from '../../test/support/s3-server.ts';
import { ApiClient, authHeaders, demoIdentity, xmlAttr } from './api-client.ts';
import { AttachmentNeeds, applicationDrafts, createProject, listProjects, PROGRAM_PATH, submitApplication, TINY_PDF, uploadPdf, writeDraft } from './demo-steps.ts';
import { createFaultDatabase, type FaultDatabase } from './fault-database.ts';
import { serverErrors } from './server-errors.ts';
import { adoptPostgresSecretKeys, type ServerProcess, startServer } from './server-process.ts';
import { verifyDatabase } from './verify-database.ts';
import { committedEvents, type Receiver, startReceiver, subscribe, WEBHOOK_ENV } from './webhook-crash-cycles.ts';
import { WriteJournal } from './write-journal.ts';

/** How a move-to-cluster run goes. */
export interface MoveToClusterOptions {
  /** Projects made on the one machine: the first two submitted (the first with a running deadline), the rest drafts. Default 3. */
  projects?: number;
  /** Server processes on PostgreSQL after the move. Default 3. */
  instances?: number;
  log?: (line: string) => void;
}

/** What a move-to-cluster run saw; `problems` is empty when every check passed. */
export interface MoveToClusterReport { projects: number; files: number; events: number; problems: string[]; ms: number }

/** A file of the installation: where the API serves it, and the SHA-256 of its bytes. */
interface FileRef { path: string; sha256: string }

/** What one server answered about the installation, to compare the cluster's answers with the one machine's. */
interface Answers { bodies: Map<string, string>; files: FileRef[] }

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A PDF of `bytes` bytes (at least the tiny one) unique to `token`: the demo's attachments take PDFs only. */
function pdfOf(token: string, bytes = 0): Buffer {
  const tag = Buffer.from(`%${token}\n`);
  return Buffer.concat([TINY_PDF, tag, Buffer.alloc(Math.max(0, bytes - TINY_PDF.length - tag.length), 0x25)]);
}

async function fileBytes(client: ApiClient, url: string): Promise<Buffer> {
  const res = await fetch(`${client.origin}/services/v2/${url}`, { headers: authHeaders(client.who) });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${body.toString('utf8').slice(0, 300)}`);
  return body;
}

/** Every event of the feed after `after`, as the admin reads it page by page: sequence, event id and the element as sent. */
async function readFeed(admin: ApiClient, after: number): Promise<{ sequence: number; element: string }[]> {
  const out: { sequence: number; element: string }[] = [];
  for (let cursor = after; ;) {
    const page = await admin.send('GET', `Events?after=${cursor}&limit=1000`);
    if (page.status !== 200) throw new Error(`GetEvents after ${cursor} answered ${page.status}: ${page.body.slice(0, 300)}`);
    for (const m of page.body.matchAll(/<Event\s[^>]*\/>/g)) out.push({ sequence: Number(xmlAttr(m[0], 'Event', 'Sequence')), element: m[0] });
    cursor = Number(xmlAttr(page.body, 'EventsResponse', 'NextCursor'));
    if (xmlAttr(page.body, 'EventsResponse', 'HasMore') !== 'true') return out;
  }
}

/**
 * What `admin` is answered about `projects`: the list, each project's data, draft, status history and deadlines, the
 * webhook subscriptions (what is fixed of them; their failure counters move on), and the SHA-256 of every file.
 * Bodies name the server's own address and the time of the request; both are taken out, so that two servers' answers compare.
 */
async function answers(admin: ApiClient, projects: string[], files: string[]): Promise<Answers> {
  const bodies = new Map<string, string>();
  const get = async (url: string) => {
    const res = await admin.send('GET', url);
    if (res.status !== 200) throw new Error(`GET ${url} on ${admin.origin} answered ${res.status}: ${res.body.slice(0, 300)}`);
    bodies.set(url, res.body.replaceAll(admin.origin, 'ORIGIN').replace(/ RequestTimestamp="[^"]*"/, ''));
    return res.body;
  };
  await get(`${PROGRAM_PATH}/Projects?limit=1000`);
  for (const id of projects) {
    for (const part of ['Data', 'Forms/Application/Draft/Data', 'StatusHistory', 'Deadlines']) await get(`${PROGRAM_PATH}/Projects/${id}/${part}`);
  }
  const hooks = await admin.send('GET', `${PROGRAM_PATH}/Webhooks`);
  const fixed = [...hooks.body.matchAll(/<WebhookSubscription\s[^>]*>/g)].map((m) => ['SubscriptionId', 'Url', 'Enabled', 'CreatedTimestamp'].map((a) => xmlAttr(m[0], 'WebhookSubscription', a)).join(' '));
  bodies.set('webhook subscriptions', fixed.join('\n'));
  const refs: FileRef[] = [];
  for (const file of files) refs.push({ path: file, sha256: sha256(await fileBytes(admin, file)) });
  return { bodies, files: refs };
}

/** The differences between `seen` (the one machine's answers) and `now` (an instance's), one line each. */
function differences(name: string, seen: Answers, now: Answers): string[] {
  const out: string[] = [];
  for (const [url, body] of seen.bodies) {
    const answered = now.bodies.get(url) ?? '';
    if (answered === body) continue;
    let at = 0;
    while (answered[at] === body[at]) at++;
    out.push(`${name}: GET ${url} answers otherwise than on the one machine, from "${answered.slice(Math.max(0, at - 80), at + 120)}" (was "${body.slice(Math.max(0, at - 80), at + 120)}")`);
  }
  for (const [i, file] of seen.files.entries()) if (now.files[i]?.sha256 !== file.sha256) out.push(`${name}: the bytes of ${file.path} differ from the one machine's`);
  return out;
}

/**
 * The installation an agency builds on one machine: `count` projects of the demo program made through the API
 * (drafts, files, two submissions), a running deadline, a webhook subscription. Returns the projects and their files.
 */
async function buildInstallation(server: ServerProcess, journal: WriteJournal, count: number): Promise<{ projects: string[]; files: string[] }> {
  const applicant = new ApiClient(server.origin, demoIdentity('applicant'));
  const admin = new ApiClient(server.origin, demoIdentity('admin'));
  const projects: string[] = [];
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const { projectId } = await createProject(applicant, journal);
    if (!projectId) throw new Error('CreateNewProject was refused on the one machine');
    projects.push(projectId);
    const [first, second] = applicationDrafts(`M${i}`, 10 + i);
    await writeDraft(applicant, journal, projectId, first);
    // A file of each project; the first project's diagram is larger than an S3 part, so that it moves in several parts.
    const uploads: [string, Buffer][] = [['SitePlan', pdfOf(`site plan ${i}`)], ...(i === 0 ? [['SingleLineDiagram', pdfOf('diagram', 6 * 1024 * 1024 + 1000)] as [string, Buffer]] : [])];
    for (const [attachment, pdf] of uploads) {
      const upload = await uploadPdf(applicant, journal, projectId, attachment, pdf);
      if (upload.record.outcome !== 'acked') throw new Error(`upload refused: ${upload.answer.body.slice(0, 300)}`);
      files.push(`${PROGRAM_PATH}/Projects/${projectId}/Attachments/${attachment}`);
    }
    if (i >= 2) continue;
    await writeDraft(applicant, journal, projectId, second);
    const submitted = await submitApplication(applicant, journal, projectId, new AttachmentNeeds());
    if (submitted.record.outcome !== 'acked') throw new Error(`submission refused: ${submitted.answer.body.slice(0, 300)}`);
  }
  const deadline = await admin.send('POST', `${PROGRAM_PATH}/Projects/${projects[0]}/Deadlines/AnswerDue/Start`);
  if (deadline.status !== 200 || xmlAttr(deadline.body, 'Deadline', 'State') !== 'running') throw new Error(`StartProjectDeadline answered ${deadline.status}: ${deadline.body.slice(0, 300)}`);
  return { projects, files };
}

/** Runs `apas move ARGS` as an operator would, from the one machine's settings; throws unless it exits 0. */
async function move(args: string[], env: Record<string, string>, log: (line: string) => void): Promise<void> {
  const result = await runApas(['move', ...args], { env });
  if (result.code !== 0) throw new Error(`apas move ${args.join(' ')} exited ${result.code}:\n${result.stdout}${result.stderr}`.slice(0, 4000));
  log(`apas move ${args.slice(2).join(' ')}: ${result.stdout.trim()}`);
}

/**
 * What an agency does to grow from one machine to a cluster (issue 35, "Done means"): `apas serve --demo` on SQLite
 * with its files in a directory; projects with drafts, files (one larger than an S3 part), submissions, a running
 * deadline, a webhook subscription and a change-feed consumer's cursor, made through the API; the server stopped;
 * `apas move --to <PostgreSQL> --blobs s3` and `--check`; three instances on PostgreSQL with the files in an S3 bucket
 * (s3rver). Each instance must answer every project, draft, history, deadline, subscription and file as the one
 * machine did, continue the feed from the saved cursor without a gap or a repeat, and see a write made through
 * another; the webhook queue carries on (every event since the subscription reaches the receiver, signed with the
 * secret that moved sealed), and the database holds every acknowledged write (verifyDatabase).
 */
export async function runMoveToCluster(options: MoveToClusterOptions = {}): Promise<MoveToClusterReport> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const report: MoveToClusterReport = { projects: 0, files: 0, events: 0, problems: [], ms: 0 };
  const sqlite = await createFaultDatabase('sqlite');
  let secret = '';
  const receiver: Receiver = await startReceiver(() => secret);
  const servers: ServerProcess[] = [];
  let s3: S3Server | undefined;
  let pg: FaultDatabase | undefined;
  try {
    // One machine, as `npm start` runs it: SQLite, files in the data directory.
    const one = await startServer({ databaseUrl: sqlite.url, name: 'the one machine', env: WEBHOOK_ENV });
    servers.push(one);
    secret = await subscribe(one, receiver.url);
    const journal = new WriteJournal();
    const built = await buildInstallation(one, journal, options.projects ?? 3);
    const admin = new ApiClient(one.origin, demoIdentity('admin'));
    // A consumer of the feed reads to its end and keeps the cursor; then the applicant goes on writing.
    const cursor = (await readFeed(admin, 0)).at(-1)?.sequence ?? 0;
    const applicant = new ApiClient(one.origin, demoIdentity('applicant'));
    const last = built.projects.at(-1)!;
    await writeDraft(applicant, journal, last, applicationDrafts('Mlast', 30)[1]);
    await uploadPdf(applicant, journal, last, 'SitePlan', pdfOf('site plan, second version'));
    built.files.push(`${PROGRAM_PATH}/Projects/${last}/Attachments/SitePlan/Versions/1`);
    const tail = await readFeed(admin, cursor);
    const seen = await answers(admin, built.projects, built.files);
    report.projects = built.projects.length;
    report.files = built.files.length;
    await one.stop();
    servers.length = 0;
    report.problems.push(...serverErrors(one.log()).map((line) => `the one machine logged an error: ${line}`));
    log(`one machine: ${built.projects.length} projects, ${built.files.length} files, feed read to ${cursor} and ${tail.length} events after it; stopped`);

    // The move, with the settings the one machine ran with (its key file beside the database) and the bucket's.
    [s3, pg] = await Promise.all([startS3Server('apas-cluster', 'files'), createFaultDatabase('postgres')]);
    const keyFile = path.join(path.dirname(sqlite.url), 'apas-secret.key');
    const env = { ...s3.env, APAS_BLOB_STORE: 'local', DATABASE_URL: sqlite.url, APAS_SECRET_KEY_FILE: keyFile, APAS_LOG_LEVEL: 'warn' };
    await move(['--to', pg.url, '--blobs', 's3'], env, log);
    await move(['--to', pg.url, '--blobs', 's3', '--check'], env, log);
    const objects = (await s3.keys()).filter((k) => k.startsWith('files/')).length;
    if (objects < built.files.length) report.problems.push(`the bucket holds ${objects} files, the installation ${built.files.length} or more`);

    // The cluster: instances on PostgreSQL with the files in the bucket and the one machine's key.
    adoptPostgresSecretKeys(pg.url, fs.readFileSync(keyFile, 'utf8'));
    const instanceEnv = { ...s3.env, ...WEBHOOK_ENV };
    const count = options.instances ?? 3;
    servers.push(...(await Promise.all(Array.from({ length: count }, (_, i) => startServer({ databaseUrl: pg!.url, demo: false, name: `instance ${i + 1}`, env: instanceEnv })))));
    log(`${servers.length} instances ready on PostgreSQL with the files in S3`);
    const admins = servers.map((s) => new ApiClient(s.origin, demoIdentity('admin')));
    const lastSeen = tail.at(-1)?.sequence ?? cursor;
    for (const [i, a] of admins.entries()) {
      report.problems.push(...differences(servers[i]!.name, seen, await answers(a, built.projects, built.files)));
      const feed = await readFeed(a, cursor);
      const old = feed.filter((e) => e.sequence <= lastSeen).map((e) => e.element);
      if (JSON.stringify(old) !== JSON.stringify(tail.map((e) => e.element))) report.problems.push(`${servers[i]!.name}: the feed after cursor ${cursor} gives ${old.length} events up to ${lastSeen}, the one machine gave ${tail.length} (or others)`);
    }

    // A write through one instance is seen by the others: a new project and its file, numbered after the old events.
    const writers = servers.map((s) => new ApiClient(s.origin, demoIdentity('applicant')));
    const { projectId } = await createProject(writers[0]!, journal);
    if (!projectId) throw new Error(`${servers[0]!.name} refused a new project`);
    await writeDraft(writers[1 % count]!, journal, projectId, applicationDrafts('Mnew', 40)[0]);
    const bytes = pdfOf('written after the move');
    await uploadPdf(writers[count - 1]!, journal, projectId, 'SitePlan', bytes);
    for (const [i, a] of admins.entries()) {
      if (!(await listProjects(a)).has(projectId)) report.problems.push(`${servers[i]!.name} does not list the project made through ${servers[0]!.name}`);
      const draft = await a.send('GET', `${PROGRAM_PATH}/Projects/${projectId}/Forms/Application/Draft/Data`);
      if (!draft.body.includes('First Mnew')) report.problems.push(`${servers[i]!.name} does not see the draft written through another instance: ${draft.body.slice(0, 300)}`);
      const file = await fileBytes(a, `${PROGRAM_PATH}/Projects/${projectId}/Attachments/SitePlan`);
      if (sha256(file) !== sha256(bytes)) report.problems.push(`${servers[i]!.name} serves other bytes for the file uploaded through another instance`);
      const after = await readFeed(a, lastSeen);
      if (after.length === 0 || after.some((e, j) => e.sequence <= (j === 0 ? lastSeen : after[j - 1]!.sequence))) {
        report.problems.push(`${servers[i]!.name}: the new events after ${lastSeen} are ${after.map((e) => e.sequence).join(', ') || 'none'}`);
      }
      if (!after.some((e) => xmlAttr(e.element, 'Event', 'ProjectId') === projectId)) report.problems.push(`${servers[i]!.name}: the feed lacks the new project's events`);
    }

    // The webhook queue moved with the rest: every event since the subscription arrives, verified with the moved secret.
    const { events } = await committedEvents(pg.config);
    report.events = events.length;
    const until = Date.now() + 30_000;
    const missing = () => events.filter((e) => !receiver.ids.includes(e.id));
    while (missing().length > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));
    if (missing().length > 0) report.problems.push(`${missing().length} of ${events.length} events never reached the webhook receiver, e.g. ${missing().slice(0, 3).map((e) => e.id).join(', ')}`);
    report.problems.push(...receiver.bad.slice(0, 5).map((b) => `a delivery failed verification: ${b}`));

    const verified = await verifyDatabase(pg.config, journal);
    report.problems.push(...verified.problems.map((p) => `database: ${p}`));
    for (const s of servers) report.problems.push(...serverErrors(s.log()).map((line) => `${s.name} logged an error: ${line}`));
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await receiver.close();
    await s3?.stop();
    await pg?.drop();
    await sqlite.drop();
    report.ms = Date.now() - started;
  }
  report.problems = report.problems.slice(0, 40);
  return report;
}
