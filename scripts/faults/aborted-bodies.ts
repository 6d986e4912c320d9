import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ApiClient, demoIdentity, escapeXml, NS, xmlAttr } from './api-client.ts';
import { applicationDrafts, APPLICATION, dataRequestXml, PROGRAM_PATH, TINY_PDF } from './demo-steps.ts';
import { createFaultDatabase, type FaultDatabase, type FaultDialect } from './fault-database.ts';
import { seededRandom } from './seeded-random.ts';
import { serverErrors } from './server-errors.ts';
import { type ServerProcess, startServer } from './server-process.ts';
import { compareSnapshots, snapshotState } from './state-snapshot.ts';

/**
 * Where an aborted body goes: SetProjectData (XML, JSON; the key is ignored there), SetInquiryNote (XML, JSON; keyed),
 * SetProjectAttachment (a binary upload, keyed) and the form page's multipart post with a file (the web pages ignore
 * the key).
 */
export type BodyTarget = 'draft-xml' | 'draft-json' | 'note-xml' | 'note-json' | 'upload' | 'form-upload';

const TARGETS: BodyTarget[] = ['draft-xml', 'draft-json', 'note-xml', 'note-json', 'upload', 'form-upload'];

/** One request whose body broke off: how much of it was sent, how it was framed, and how the connection ended. */
export interface AbortedTry {
  target: BodyTarget;
  /** The Idempotency-Key sent, if any. */
  key: string | null;
  framing: 'content-length' | 'chunked';
  /** Bytes of the body sent before the connection ended, of `size`. */
  sent: number;
  size: number;
  /** How long the connection stayed open after the last byte. */
  waitMs: number;
  /** A TCP reset, or an orderly close (FIN) with the body unfinished. */
  end: 'reset' | 'close';
}

/** How many aborted requests, on which database, from which seed. */
export interface AbortedBodiesOptions {
  dialect: FaultDialect;
  tries: number;
  seed: number;
  log?: (line: string) => void;
}

/** What a run saw; `problems` is empty when the server survived every abort and nothing was half stored. */
export interface AbortedBodiesReport {
  dialect: FaultDialect;
  seed: number;
  tries: AbortedTry[];
  /** Keyed requests sent again whole with their key afterwards, and how many of them succeeded. */
  retried: number;
  retriedOk: number;
  problems: string[];
  ms: number;
}

/** A request as raw bytes go out: method POST, its path, its headers but the framing ones, and its whole body. */
interface RawRequest { path: string; headers: Record<string, string>; body: Buffer }

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A PDF of exactly `size` bytes (the tiny PDF, then a comment line of filler) whose bytes `seed` makes distinct. */
function pdfOf(size: number, seed: string): Buffer {
  const filler = Buffer.alloc(size - TINY_PDF.length, 0x20);
  filler.write(`%${seed}\n`, 0, 'latin1');
  return Buffer.concat([TINY_PDF, filler]);
}

/** A browser of the web pages over fetch: cookies kept, forms posted with the same-origin Origin header. */
class Browser {
  readonly #cookies = new Map<string, string>();
  constructor(readonly origin: string) {}

  get cookieHeader(): string {
    return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async send(method: 'GET' | 'POST', url: string, form?: Record<string, string>): Promise<{ status: number; body: string }> {
    const res = await fetch(`${this.origin}${url}`, {
      method, redirect: 'manual', body: form ? new URLSearchParams(form).toString() : undefined,
      headers: { cookie: this.cookieHeader, ...(form ? { 'content-type': 'application/x-www-form-urlencoded', origin: this.origin } : {}) },
    });
    for (const c of res.headers.getSetCookie()) {
      const [name, ...rest] = c.split(';')[0]!.split('=');
      this.#cookies.set(name!, rest.join('='));
    }
    return { status: res.status, body: await res.text() };
  }
}

function formToken(page: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
  if (!token) throw new Error(`no form on the page: ${page.slice(0, 300)}`);
  return token;
}

/** A multipart/form-data body of `fields` and one file, in the order given, as a browser builds it. */
function multipart(parts: ({ name: string; value: string } | { name: string; file: Buffer; fileName: string })[]): { body: Buffer; type: string } {
  const boundary = `----aborted${sha256(Buffer.from(JSON.stringify(parts.map((p) => p.name)))).slice(0, 24)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ('value' in p) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.fileName}"\r\nContent-Type: application/pdf\r\n\r\n`), p.file, Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

/** Everything a run needs of the server: a project with a draft, an uploaded file, a signed-in browser at its form. */
interface Bed {
  server: ServerProcess;
  applicant: ApiClient;
  admin: ApiClient;
  browser: Browser;
  projectId: string;
  /** The form page's path, its CSRF token, and the SitePlan file input's attachment id. */
  formPath: string;
  formToken: string;
  sitePlanId: string;
}

async function must(what: string, answer: Promise<{ status: number; body: string }>, ok = [200]): Promise<string> {
  const got = await answer;
  if (!ok.includes(got.status)) throw new Error(`${what} answered ${got.status}: ${got.body.slice(0, 400)}`);
  return got.body;
}

const UPLOAD_PATH = (projectId: string) => `${PROGRAM_PATH}/Projects/${projectId}/Forms/${APPLICATION.form}/Attachments/SitePlan`;
const DRAFT_PATH = (projectId: string) => `${PROGRAM_PATH}/Projects/${projectId}/Forms/${APPLICATION.form}/Draft/Data`;

async function prepareBed(server: ServerProcess): Promise<Bed> {
  const applicant = new ApiClient(server.origin, demoIdentity('applicant'));
  const admin = new ApiClient(server.origin, demoIdentity('admin'));
  const created = await must('CreateNewProject', applicant.send('POST', `${PROGRAM_PATH}/NewProject`));
  const projectId = xmlAttr(created, 'Project', 'ProjectId')!;
  const programId = xmlAttr(created, 'Project', 'ProgramId') ?? 'RES-SOLAR';
  await must('SetProjectData', applicant.send('POST', DRAFT_PATH(projectId), { body: dataRequestXml(applicationDrafts('ABORT', 12)[0]) }));
  await must('SetProjectAttachment', applicant.send('POST', UPLOAD_PATH(projectId), {
    body: pdfOf(65_536, 'first'), contentType: 'application/pdf', headers: { 'content-disposition': 'attachment; filename="site-plan.pdf"' },
  }));
  const browser = new Browser(server.origin);
  const signIn = await browser.send('GET', '/MvcProjects/SignIn');
  const who = demoIdentity('applicant');
  const signedIn = await browser.send('POST', '/MvcProjects/SignIn', { _csrf: formToken(signIn.body), email: who.email, password: who.password, next: '/MvcProjects/' });
  if (signedIn.status !== 303) throw new Error(`signing in on the web pages answered ${signedIn.status}`);
  const formPath = `/MvcProjects/Programs/${encodeURIComponent(programId)}/Projects/${projectId}/Forms/${APPLICATION.form}`;
  const page = await must('the form page', browser.send('GET', formPath));
  const sitePlanId = [...page.matchAll(/name="file_([^"]+)"/g)].map((m) => m[1]!)[0];
  if (!sitePlanId) throw new Error('the form page has no file input');
  return { server, applicant, admin, browser, projectId, formPath, formToken: formToken(page), sitePlanId };
}

/** The request a try aborts (and a keyed retry sends whole): its body made for try `n`, padded to about `size` bytes. */
function requestFor(bed: Bed, target: BodyTarget, n: number, size: number): RawRequest {
  const applicant = { authorization: basic(bed.applicant), 'x-apikey': bed.applicant.who.apiKey };
  const values = { CustomerName: `Aborted ${n}`, ModuleCount: String(20 + n) };
  switch (target) {
    case 'draft-xml': {
      const xml = dataRequestXml(values);
      return { path: `/services/v2/${DRAFT_PATH(bed.projectId)}`, headers: { ...applicant, 'content-type': 'application/xml' }, body: padXml(xml, size) };
    }
    case 'draft-json': {
      const json = JSON.stringify({ Project: { DataFields: { DataField: Object.entries(values).map(([k, v]) => ({ DataFieldId: k, Value: v })) } } });
      return { path: `/services/v2/${DRAFT_PATH(bed.projectId)}`, headers: { ...applicant, 'content-type': 'application/json' }, body: padJson(json, size) };
    }
    case 'note-xml': {
      const xml = `<SetInquiryNoteRequest xmlns="${NS}" Subject="${escapeXml(`Aborted ${n}`)}" VisibleToApplicant="true"><Text>Note ${n}</Text></SetInquiryNoteRequest>`;
      return { path: `/services/v2/${PROGRAM_PATH}/Projects/${bed.projectId}/InquiryNotes`, headers: { ...staff(bed), 'content-type': 'application/xml' }, body: padXml(xml, size) };
    }
    case 'note-json': {
      const json = JSON.stringify({ Subject: `Aborted ${n}`, VisibleToApplicant: true, Text: `Note ${n}` });
      return { path: `/services/v2/${PROGRAM_PATH}/Projects/${bed.projectId}/InquiryNotes`, headers: { ...staff(bed), 'content-type': 'application/json' }, body: padJson(json, size) };
    }
    case 'upload':
      return {
        path: `/services/v2/${UPLOAD_PATH(bed.projectId)}`,
        headers: { ...applicant, 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="aborted-${n}.pdf"` },
        body: pdfOf(Math.max(size, 1024), `try ${n}`),
      };
    case 'form-upload': {
      // As a browser sends the form: token first, the fields, the file, then the button pressed.
      const form = multipart([
        { name: '_csrf', value: bed.formToken },
        ...Object.entries(values).map(([name, value]) => ({ name, value })),
        { name: `file_${bed.sitePlanId}`, file: pdfOf(Math.max(size, 1024), `form try ${n}`), fileName: `form-${n}.pdf` },
        { name: 'action', value: `upload:${bed.sitePlanId}` },
      ]);
      return { path: bed.formPath, headers: { cookie: bed.browser.cookieHeader, origin: bed.server.origin, 'content-type': form.type }, body: form.body };
    }
  }
}

function basic(client: ApiClient): string {
  return `Basic ${Buffer.from(`${client.who.email}:${client.who.password}`).toString('base64')}`;
}

function staff(bed: Bed): Record<string, string> {
  return { authorization: basic(bed.admin), 'x-apikey': bed.admin.who.apiKey };
}

// Whitespace between elements and after a JSON value is insignificant: it makes a body long enough to break off anywhere.
function padXml(xml: string, size: number): Buffer {
  const close = xml.lastIndexOf('</');
  return Buffer.from(`${xml.slice(0, close)}${' '.repeat(Math.max(0, size - xml.length))}${xml.slice(close)}`);
}

function padJson(json: string, size: number): Buffer {
  return Buffer.from(`${json}${' '.repeat(Math.max(0, size - json.length))}`);
}

/** Sends the request's head and the first `t.sent` bytes of its body, waits, then resets or closes the connection. */
function sendBrokenOff(port: number, request: RawRequest, t: AbortedTry): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    // Whatever the server answers (an early refusal, an error) is not the point here.
    socket.on('error', () => {});
    socket.on('data', () => {});
    socket.once('close', () => resolve());
    socket.once('connect', () => {
      const headers = { host: `127.0.0.1:${port}`, ...request.headers, ...(t.key === null ? {} : { 'idempotency-key': `"${t.key}"` }) };
      const framing = t.framing === 'content-length' ? `content-length: ${request.body.length}` : 'transfer-encoding: chunked';
      socket.write(`POST ${request.path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}${framing}\r\n\r\n`);
      const part = request.body.subarray(0, t.sent);
      // A chunked body without its last (empty) chunk is unfinished however much of it came.
      if (t.framing === 'chunked' && part.length > 0) socket.write(Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]));
      else if (part.length > 0) socket.write(part);
      setTimeout(() => (t.end === 'reset' ? socket.resetAndDestroy() : socket.end()), t.waitMs);
    });
  });
}

/** Sends a request whole (a keyed retry) with fetch; its status and body. */
async function sendWhole(origin: string, request: RawRequest, key: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${origin}${request.path}`, {
    method: 'POST', redirect: 'manual', body: new Uint8Array(request.body), headers: { ...request.headers, 'idempotency-key': `"${key}"` },
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, body: await res.text() };
}

/** Every file under `dir` (the local blob store), relative; empty when there is none. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}

/** The SHA-256 and version of the active SitePlan file, read through the API. */
async function activeFile(bed: Bed): Promise<{ sha256: string; version: string | undefined }> {
  const res = await fetch(`${bed.server.origin}/services/v2/${UPLOAD_PATH(bed.projectId).replace('/Forms/Application', '')}`, {
    headers: { authorization: basic(bed.applicant), 'x-apikey': bed.applicant.who.apiKey },
  });
  if (res.status !== 200) throw new Error(`GetActiveAttachment answered ${res.status}`);
  const body = Buffer.from(await res.arrayBuffer());
  const meta = await must('GetAttachmentMetadata', bed.applicant.send('GET', `${UPLOAD_PATH(bed.projectId).replace('/Forms/Application', '')}/Metadata`));
  return { sha256: sha256(body), version: xmlAttr(meta, 'Attachment', 'Version') ?? xmlAttr(meta, 'AttachmentMetadata', 'Version') };
}

/** The tries of a run, drawn from the seed: the targets in turn, each with and without a key about equally often. */
function drawTries(count: number, random: () => number): (AbortedTry & { at: number })[] {
  return Array.from({ length: count }, (_, i) => {
    const target = TARGETS[i % TARGETS.length]!;
    // Rounds of the targets alternate between mostly keyed and mostly not; every third stops a byte short of the end,
    // where all but the end has been read (a multipart post's last part).
    const round = Math.floor(i / TARGETS.length);
    const keyed = random() < (round % 2 === 0 ? 0.75 : 0.25);
    const at = random();
    return {
      target, key: keyed ? `aborted-${i}-${Math.floor(random() * 1e9)}` : null, framing: random() < 0.75 ? 'content-length' : 'chunked',
      at: round % 3 === 1 ? 1 : at, sent: 0, size: 0, waitMs: Math.floor(random() * (random() < 0.5 ? 8 : 40)), end: random() < 0.75 ? 'reset' : 'close',
    };
  });
}

/**
 * Starts `apas serve --demo` on a new database, prepares a project (a draft and an uploaded file) and a signed-in browser,
 * then sends `tries` requests whose bodies break off at random points (XML and JSON documents, a binary upload, the
 * form page's multipart post; with and without an Idempotency-Key; reset or closed; Content-Length or chunked). After
 * each, the server must be alive; at the end it must answer, no table may have changed, no blob file may have been left
 * behind, the previous file must still be the active one with its SHA-256, and the server must have logged no error.
 * Finally every keyed request is sent again whole with its key, which must succeed (the key was not taken).
 */
export async function runAbortedBodies(options: AbortedBodiesOptions): Promise<AbortedBodiesReport> {
  const started = Date.now();
  const say = options.log ?? (() => {});
  const report: AbortedBodiesReport = { dialect: options.dialect, seed: options.seed, tries: [], retried: 0, retriedOk: 0, problems: [], ms: 0 };
  const db: FaultDatabase = await createFaultDatabase(options.dialect);
  let server: ServerProcess | undefined;
  try {
    server = await startServer({ databaseUrl: db.url, name: `aborted bodies [${options.dialect}]` });
    say(`${options.dialect}: server ready after ${Date.now() - started} ms`);
    const bed = await prepareBed(server);
    say(`${options.dialect}: prepared after ${Date.now() - started} ms`);
    const random = seededRandom(options.seed);
    // Each target's body is about as long in every try of a run: up to 60 kB of XML or JSON, 64 KiB of file.
    const sizes = new Map(TARGETS.map((target) => [target, target === 'upload' || target === 'form-upload' ? 65_536 : 1_000 + Math.floor(random() * 60_000)]));
    const tries = drawTries(options.tries, random);
    const blobDir = db.config.kind === 'sqlite' ? path.join(path.dirname(db.config.file), 'blobs') : null;
    const filesBefore = blobDir ? filesUnder(blobDir) : [];
    const before = await snapshotState(db.config);
    const fileBefore = await activeFile(bed);
    for (const [i, t] of tries.entries()) {
      const request = requestFor(bed, t.target, i, sizes.get(t.target)!);
      const { at, ...aborted } = t;
      Object.assign(aborted, { size: request.body.length, sent: Math.min(request.body.length - 1, Math.floor(at * request.body.length)) });
      await sendBrokenOff(server.port, request, aborted);
      report.tries.push(aborted);
      // An unhandled 'error' ends the process a moment after the connection went: this try's, or one just before it.
      await delay(20);
      if (!server.alive()) {
        const recent = report.tries.slice(-3).map((r) => JSON.stringify(r)).join('\n  ');
        report.problems.push(`the server died during the last of these tries (${i + 1} in all):\n  ${recent}\n${server.log().slice(-1500)}`);
        return report;
      }
    }
    say(`${options.dialect}: ${tries.length} bodies broken off after ${Date.now() - started} ms; the server is alive`);
    report.problems.push(...(await settled(() => filesUnder(blobDir ?? ''), filesBefore)));
    const ready = await fetch(`${server.origin}/readyz`).then((r) => r.status, () => 0);
    if (ready !== 200) report.problems.push(`/readyz answered ${ready} after the aborts`);
    report.problems.push(...compareSnapshots(before, await snapshotState(db.config)).map((c) => `state changed by aborted requests: ${c}`));
    const fileAfter = await activeFile(bed);
    if (fileAfter.sha256 !== fileBefore.sha256 || fileAfter.version !== fileBefore.version) {
      report.problems.push(`the active file changed: version ${fileBefore.version} ${fileBefore.sha256} before, version ${fileAfter.version} ${fileAfter.sha256} after`);
    }
    say(`${options.dialect}: checked after ${Date.now() - started} ms`);
    await retryKeyed(bed, tries, sizes, report);
    say(`${options.dialect}: ${report.retriedOk} of ${report.retried} keyed requests sent again whole succeeded after ${Date.now() - started} ms`);
    report.problems.push(...serverErrors(server.log()).map((line) => `the server logged an error: ${line}`));
    if (!server.alive()) report.problems.push('the server died');
    return report;
  } finally {
    await server?.stop();
    await db.drop();
    report.ms = Date.now() - started;
  }
}

/** Waits (up to 5 s) for the aborted requests' leftovers to go: the blob store's files must be as before. */
async function settled(files: () => string[], before: string[]): Promise<string[]> {
  const want = JSON.stringify(before);
  for (let waited = 0; waited < 5_000; waited += 100) {
    if (JSON.stringify(files()) === want) return [];
    await delay(100);
  }
  const now = files();
  return [`blob files left behind: ${now.filter((f) => !before.includes(f)).join(', ')}${before.some((f) => !now.includes(f)) ? `; gone: ${before.filter((f) => !now.includes(f)).join(', ')}` : ''}`];
}

/** Sends every keyed try again, whole and with its key: it must succeed, and an upload must store exactly its bytes. */
async function retryKeyed(bed: Bed, tries: AbortedTry[], sizes: Map<BodyTarget, number>, report: AbortedBodiesReport): Promise<void> {
  for (const [i, t] of tries.entries()) {
    if (t.key === null) continue;
    const request = requestFor(bed, t.target, i, sizes.get(t.target)!);
    report.retried++;
    const answer = await sendWhole(bed.server.origin, request, t.key);
    const ok = t.target === 'form-upload' ? answer.status === 303 : answer.status === 200;
    if (!ok) {
      report.problems.push(`try ${i + 1} (${t.target}) sent again whole with its key answered ${answer.status}: ${answer.body.slice(0, 300)}`);
      continue;
    }
    if (t.target === 'upload' || t.target === 'form-upload') {
      const file = await activeFile(bed);
      const sent = t.target === 'upload' ? sha256(request.body) : sha256(pdfOf(Math.max(sizes.get(t.target)!, 1024), `form try ${i}`));
      if (file.sha256 !== sent) {
        report.problems.push(`try ${i + 1} (${t.target}) sent again whole: the active file is ${file.sha256}, not the ${sent} sent`);
        continue;
      }
    }
    report.retriedOk++;
  }
}
