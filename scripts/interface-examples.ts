/**
 * Produces the request/response examples of docs/interface.md by running the demo through the real app
 * (SQLite in a temporary directory, a fixed clock and seeded ids, so the output is the same every time).
 *
 *   npx tsx scripts/interface-examples.ts          # prints whether docs/interface.md is current
 *   npx tsx scripts/interface-examples.ts --write  # rewrites the examples in docs/interface.md
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { STATUS_CODES } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { XmlDocument } from 'libxml2-wasm';
import { loadConfig } from '../src/config.ts';
import type { Clock } from '../src/model/clock.ts';
import { DEMO_CREDENTIALS, seedDemo } from '../src/domain/programs/demo.ts';
import type { IdGenerator } from '../src/model/ids.ts';
import { totpCode } from '../src/domain/accounts/mfa.ts';
import { MfaService } from '../src/domain/accounts/mfa-service.ts';
import { OAuthClientService } from '../src/domain/accounts/oauth-client-service.ts';
import { buildApp } from '../src/http/app.ts';
import { openDatabase } from '../src/store/database.ts';
import { createKyselyStore } from '../src/store/kysely-store.ts';
import { ephemeralSecretBox } from '../src/store/secret-box.ts';
import { LocalBlobStore } from '../src/store/local-blob-store.ts';
import { programCheckers } from '../src/domain/wiring/program-checkers.ts';
import { changeReactions } from '../src/domain/wiring/change-reactions.ts';
import { eventTasks } from '../src/domain/wiring/event-tasks.ts';
import { createDocumentRenderer } from '../src/domain/documents/document-renderer.ts';

/** Where the examples live. */
export const INTERFACE_DOC = fileURLToPath(new URL('../docs/interface.md', import.meta.url));

const NS = 'http://service.powerclerk.com/api/v1/';
const FORM_TYPE = 'application/x-www-form-urlencoded';
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Ids from a seeded generator (mulberry32), shaped like the real ones. */
class SeededIds implements IdGenerator {
  #state = 20260504;
  next(): string {
    let out = '';
    for (let i = 0; i < 12; i++) out += ALPHABET[this.#random() & 31];
    return out;
  }
  #random(): number {
    this.#state = (this.#state + 0x6d2b79f5) | 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
}

/** A clock that moves 1.25 s every time it is read. */
class SteppingClock implements Clock {
  #time = Date.UTC(2026, 4, 4, 16, 20, 0);
  now(): number {
    this.#time += 1250;
    return this.#time;
  }
  /** Moves on by `ms` at once (a month for a daily schedule's example). */
  skip(ms: number): void {
    this.#time += ms;
  }
}

function pretty(xml: string): string {
  if (!xml.startsWith('<')) return xml;
  const doc = XmlDocument.fromString(xml);
  try {
    return doc.toString({ format: true, noDeclaration: !xml.startsWith('<?xml') }).trim();
  } finally {
    doc.dispose();
  }
}

type Who = 'admin' | 'applicant' | 'reviewer';

interface Call {
  method: string; url: string; as: Who | null; body?: string; headers?: Record<string, string>;
  /** A raw upload: its bytes (shown as text), media type and file name. */
  file?: { type: string; name: string; bytes: Buffer };
  /** An application/x-www-form-urlencoded body (the OAuth endpoints), shown as sent. */
  form?: string;
  /** Request headers shown with their values (`headers` are shown as `…`). */
  shown?: Record<string, string>;
  /** Response headers shown besides Content-Type. */
  responseHeaders?: string[];
}

function credentials(who: Who) {
  const c = DEMO_CREDENTIALS.find((d) => d.role === (who === 'admin' ? 'admin' : who))!;
  return { authorization: `Basic ${Buffer.from(`${c.email}:${c.password}`).toString('base64')}`, 'x-apikey': c.apiKey, email: c.email };
}

async function exchange(app: FastifyInstance, call: Call): Promise<{ markdown: string; body: string; link: string | undefined }> {
  const auth = call.as ? credentials(call.as) : null;
  const res = await app.inject({
    method: call.method as 'GET',
    url: call.url,
    payload: call.file?.bytes ?? call.body ?? call.form,
    headers: {
      ...(auth ? { authorization: auth.authorization, 'x-apikey': auth['x-apikey'] } : {}),
      ...(call.body !== undefined ? { 'content-type': 'application/xml' } : {}),
      ...(call.form !== undefined ? { 'content-type': FORM_TYPE } : {}),
      ...(call.file ? { 'content-type': call.file.type, 'content-disposition': `attachment; filename="${call.file.name}"` } : {}),
      ...call.shown,
      ...call.headers,
    },
  });
  const lines = [`${call.method} ${call.url}`];
  if (auth) lines.push(`Authorization: Basic …  (${auth.email})`, 'X-ApiKey: …');
  for (const [name, value] of Object.entries(call.shown ?? {})) lines.push(`${name}: ${value}`);
  // Secrets are shown as "…"; of an Authorization header, its scheme (Basic or Bearer) stays readable.
  for (const [name, value] of Object.entries(call.headers ?? {})) lines.push(`${name}: ${name === 'Authorization' ? `${value.split(' ')[0]} ` : ''}…`);
  if (call.body !== undefined) lines.push('Content-Type: application/xml', '', pretty(call.body));
  if (call.form !== undefined) lines.push(`Content-Type: ${FORM_TYPE}`, '', call.form);
  if (call.file) lines.push(`Content-Type: ${call.file.type}`, `Content-Disposition: attachment; filename="${call.file.name}"`, '', call.file.bytes.toString('latin1').trimEnd());
  const extra = (call.responseHeaders ?? []).filter((name) => res.headers[name.toLowerCase()] !== undefined).map((name) => `\n${name}: ${res.headers[name.toLowerCase()]}`);
  const head = `HTTP/1.1 ${res.statusCode} ${STATUS_CODES[res.statusCode] ?? ''}${res.headers['content-type'] ? `\nContent-Type: ${res.headers['content-type']}` : ''}${extra.join('')}`;
  // A downloaded file (any type but XML) is shown as text, as it came.
  const shownBody = /xml/.test(String(res.headers['content-type'] ?? 'xml')) ? pretty(res.body) : res.body.trimEnd();
  const markdown = ['Request:', '', '```http', ...lines, '```', '', 'Response:', '', '```http', head, '', shownBody, '```'].join('\n');
  return { markdown, body: res.body, link: res.headers.link === undefined ? undefined : String(res.headers.link) };
}

function attr(xml: string, element: string, name: string): string {
  const m = new RegExp(`<${element}\\b[^>]*?\\s${name}="([^"]*)"`).exec(xml);
  if (!m) throw new Error(`no ${element}@${name} in ${xml}`);
  return m[1]!;
}

function dataRequest(values: Record<string, string | string[]>): string {
  const fields = Object.entries(values).map(([id, v]) =>
    Array.isArray(v)
      ? `<DataField DataFieldId="${id}"><Values>${v.map((x) => `<Value>${x}</Value>`).join('')}</Values></DataField>`
      : `<DataField DataFieldId="${id}" Value="${v}"/>`);
  return `<ProjectDataRequest xmlns="${NS}"><Project><DataFields>${fields.join('')}</DataFields></Project></ProjectDataRequest>`;
}

const APPLICATION = {
  CustomerName: 'Jordan Rivera', CustomerEmail: 'jordan@example.org', ServiceAddress: '12 Sunny Lane, Springfield',
  UtilityAccountNumber: '8832-1190-4471', ServiceType: '1P-120-240', SystemSizeKwDc: '7.6', SystemSizeKwAc: '6.0',
  ModuleCount: '19', InverterMake: 'ENPHASE', MountingType: 'Roof', HasBattery: 'false', InstallerName: 'Bright Roofs Solar LLC',
};

/** The site plan the examples upload: a first draft, then the final one (tiny PDFs, readable as text). */
const SITE_PLAN_DRAFT = Buffer.from('%PDF-1.4\n% site plan, draft\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const SITE_PLAN = Buffer.from('%PDF-1.4\n% site plan: 12 Sunny Lane, 19 modules on the south roof\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** Runs the demo scenario and returns each example's markdown by name. */
export async function generateExamples(): Promise<Map<string, string>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-examples-'));
  const opened = await openDatabase({ kind: 'sqlite', file: path.join(dir, 'examples.db') });
  const store = createKyselyStore(opened, { secrets: ephemeralSecretBox() });
  const clock = new SteppingClock();
  const ids = new SeededIds();
  const out = new Map<string, string>();
  try {
    await seedDemo({ store, clock, ids, checkers: programCheckers() });
    const config = loadConfig({ APAS_PUBLIC_URL: 'https://apas.example.org' });
    const blobs = new LocalBlobStore(path.join(dir, 'blobs'));
    const app = await buildApp({ config, store, clock, ids, logger: false, blobs });
    const run = async (name: string, call: Call) => {
      const r = await exchange(app, call);
      out.set(name, r.markdown);
      return r.body;
    };
    const api = '/services/v2/Programs/RES-SOLAR';
    await run('GetPrograms', { method: 'GET', url: '/services/v2/Programs?Agency=demo', as: 'applicant' });
    const created = await run('CreateNewProject', { method: 'POST', url: `${api}/NewProject`, as: 'applicant' });
    const project = attr(created, 'Project', 'ProjectId');
    const form = `${api}/Projects/${project}/Forms/Application`;
    const partial = { CustomerName: APPLICATION.CustomerName, SystemSizeKwDc: APPLICATION.SystemSizeKwDc };
    await run('SetProjectData.draft', { method: 'POST', url: `${form}/Draft/Data`, as: 'applicant', body: dataRequest(partial) });
    // Attachment upload examples go here, before the application is submitted.
    const attachments = `${api}/Projects/${project}/Attachments`;
    const pdf = { type: 'application/pdf', name: 'site-plan.pdf', bytes: SITE_PLAN_DRAFT };
    await run('SetProjectAttachment', { method: 'POST', url: `${form}/Attachments/SitePlan`, as: 'applicant', file: pdf });
    await run('SetProjectAttachment.wrongType', { method: 'POST', url: `${form}/Attachments/SitePlan`, as: 'applicant', file: { type: 'image/png', name: 'site-plan.png', bytes: Buffer.from('(PNG image data)') } });
    // The applicant replaces the plan: version 2 becomes the active file, version 1 is kept.
    await exchange(app, { method: 'POST', url: `${form}/Attachments/SitePlan`, as: 'applicant', file: { ...pdf, bytes: SITE_PLAN } });
    await run('SubmitProject.incomplete', { method: 'POST', url: `${form}/Draft/Submit`, as: 'applicant' });
    await run('SetProjectData.invalid', { method: 'POST', url: `${form}/Draft/Data`, as: 'applicant', body: dataRequest({ ModuleCount: 'nineteen', InverterMake: 'ACME' }) });
    await exchange(app, { method: 'POST', url: `${form}/Draft/Data`, as: 'applicant', body: dataRequest(APPLICATION) });
    await run('GetProjectData.draft', { method: 'GET', url: `${form}/Draft/Data`, as: 'applicant' });
    await run('SubmitProject', { method: 'POST', url: `${form}/Draft/Submit`, as: 'applicant' });
    await run('GetProjectData.submitted', { method: 'GET', url: `${form}/Data`, as: 'reviewer' });
    const checklist = `${api}/Projects/${project}/Forms/ReviewChecklist/Data`;
    await run('SetProjectData.submitted', { method: 'POST', url: checklist, as: 'admin', body: dataRequest({ SiteInfoComplete: 'true', ReviewerNotes: 'Meets the 10 kW fast-track rules.' }) });
    await run('GetAttachmentMetadata', { method: 'GET', url: `${attachments}/SitePlan/Metadata`, as: 'reviewer' });
    await run('SetAttachmentMetadata', {
      method: 'POST', url: `${attachments}/SitePlan/Metadata`, as: 'admin',
      body: `<SetAttachmentMetadata xmlns="${NS}" AttachmentStatus="Approve" Note="Setbacks and panel layout shown."/>`,
    });
    const fileHeaders = ['Content-Length', 'Content-Disposition', 'ETag', 'Cache-Control'];
    await run('GetActiveAttachment', { method: 'GET', url: `${attachments}/SitePlan`, as: 'reviewer', responseHeaders: fileHeaders });
    await run('GetActiveAttachment.notModified', {
      method: 'GET', url: `${attachments}/SitePlan`, as: 'reviewer', shown: { 'If-None-Match': `"${createHash('sha256').update(SITE_PLAN).digest('hex')}"` }, responseHeaders: fileHeaders,
    });
    await run('GetAttachmentAsAdmin', { method: 'GET', url: `${attachments}/SitePlan/Versions/1`, as: 'admin', responseHeaders: fileHeaders });
    const second = attr((await exchange(app, { method: 'POST', url: `${api}/NewProject`, as: 'reviewer' })).body, 'Project', 'ProjectId');
    await run('SetProjectOwner', { method: 'POST', url: `${api}/Projects/${second}/Owner`, as: 'reviewer', body: `<SetProjectOwnerRequest xmlns="${NS}"><OwnerEmail>applicant@demo.apas.local</OwnerEmail></SetProjectOwnerRequest>` });
    await run('GetProjects', { method: 'GET', url: `${api}/Projects?limit=10&offset=0`, as: 'applicant' });
    await run('GetProjects.v2', { method: 'GET', url: `${api}/Projects?changed_since=2026-05-04T16:20:30%2B00:00&version=2`, as: 'reviewer' });
    await run('GetProjectsByNumber', { method: 'POST', url: `${api}/Projects/ByNumber?version=2`, as: 'reviewer', body: `<ProjectByNumberRequest xmlns="${NS}"><Project ProjectNumber="SOLAR-00001"/><Project ProjectNumber="SOLAR-99999"/></ProjectByNumberRequest>` });
    await run('GetForms', { method: 'GET', url: `${api}/Forms`, as: 'applicant' });
    await run('GetFormSchema', { method: 'GET', url: `${api}/Forms/CompletionCertificate/Schema?version=2`, as: 'applicant' });
    await run('GetCustomListChoices', { method: 'GET', url: `${api}/CustomLists/MountingTypes/Choices`, as: 'applicant' });
    await run('GetStatusList', { method: 'GET', url: `${api}/Statuses`, as: 'admin' });
    const projectUrl = `${api}/Projects/${project}`;
    await run('SetAssignee', { method: 'POST', url: `${projectUrl}/Assignee`, as: 'admin', body: `<SetAssigneeRequest xmlns="${NS}"><AssigneeEmail>reviewer@demo.apas.local</AssigneeEmail></SetAssigneeRequest>` });
    await run('SetProjectStatus.notAllowed', { method: 'POST', url: `${projectUrl}/Status`, as: 'admin', body: `<SetProjectStatusRequest xmlns="${NS}" StatusId="PermissionToOperate"/>` });
    await run('SetProjectStatus', { method: 'POST', url: `${projectUrl}/Status`, as: 'admin', body: `<SetProjectStatusRequest xmlns="${NS}" StatusId="ApprovedForInstallation"/>` });
    const history = await run('GetProjectStatusHistory', { method: 'GET', url: `${projectUrl}/StatusHistory`, as: 'admin' });
    const reviewedAt = /CustomId="ApplicationReview"[^>]*Timestamp="([^"]+)"/.exec(history)?.[1];
    await run('SetProjectStatusReportAs', { method: 'POST', url: `${projectUrl}/StatusHistory/ReportAs`, as: 'admin', body: `<SetProjectStatusHistoryReportAs xmlns="${NS}" StatusId="ApplicationReview" Timestamp="${reviewedAt}" ReportAs="suppress"/>` });
    await run('GetProjectsByData', {
      method: 'POST', url: `${api}/Projects/ByData?version=2&limit=100`, as: 'reviewer',
      body: `<ProjectByDataRequest xmlns="${NS}"><FilterByCurrentStatuses Operation="Exclude"><Status Id="Unsubmitted"/><Status Id="Withdrawn"/></FilterByCurrentStatuses><FilterByStatusDate Id="ApplicationReview" DateTime="2026-05-04T00:00:00Z" Operator="gt"/><DataFields><Field Id="SystemSizeKwDc" Content="5" Operator="gt"/><Field Id="InverterMake" Content="ENPHASE" Operator="eq"/><Field Id="CustomerName" Content="rivera" Operator="contains"/></DataFields></ProjectByDataRequest>`,
    });
    await run('GetAllProjectData', { method: 'GET', url: `${projectUrl}/Data`, as: 'admin' });
    await run('GetExportProject', { method: 'GET', url: `${projectUrl}/Export?version=2`, as: 'admin' });
    // Inquiry-thread examples go here, before the admin is enrolled in MFA below.
    const opened = await run('SetInquiryNote', {
      method: 'POST', url: `${projectUrl}/InquiryNotes`, as: 'admin',
      body: `<SetInquiryNoteRequest xmlns="${NS}" Subject="Single-line diagram" VisibleToApplicant="true"><Text>Please upload a single-line diagram that shows the battery disconnect.\nThe one on file predates the battery &amp; the new inverter.</Text></SetInquiryNoteRequest>`,
    });
    const thread = attr(opened, 'InquiryThread', 'ThreadId');
    const threadUrl = `${projectUrl}/InquiryThreads/${thread}`;
    await run('SetInquiryNote.hidden', {
      method: 'POST', url: `${projectUrl}/InquiryNotes`, as: 'admin',
      body: `<SetInquiryNoteRequest xmlns="${NS}" ThreadId="${thread}" VisibleToApplicant="false"><Text>Installer was slow to answer last time; call them on Friday if nothing arrives.</Text></SetInquiryNoteRequest>`,
    });
    // The applicant answers on the landing page (a form post, not an API call), which reopens the thread.
    const applicant = credentials('applicant');
    // The reply form carries the page's CSRF token; any page hands one out with its cookie (the sign-in page signs nobody in;
    // the cookie is __Host-apas_csrf here, since the examples' address is https).
    const formPage = await app.inject({ method: 'GET', url: '/MvcProjects/SignIn' });
    const csrfToken = /name="_csrf" value="([^"]+)"/.exec(formPage.body)?.[1] ?? '';
    const csrfCookie = [formPage.headers['set-cookie'] ?? []].flat().map(String).find((c) => /^(__Host-apas_csrf|_csrf)=/.test(c))?.split(';')[0] ?? '';
    const replied = await app.inject({
      method: 'POST', url: '/MvcProjects/InquiryReply',
      headers: { authorization: applicant.authorization, cookie: csrfCookie, origin: 'https://apas.example.org', 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: csrfToken, ProgramId: 'RES-SOLAR', ProjectId: project, ThreadId: thread, Text: 'Uploaded the new diagram to the Application form.' }).toString(),
    });
    if (replied.statusCode !== 303) throw new Error(`the landing-page reply failed: ${replied.statusCode} ${replied.body}`);
    await run('GetInquiryThreads', { method: 'GET', url: `${projectUrl}/InquiryThreads`, as: 'admin' });
    await run('GetNotesInInquiryThread', { method: 'GET', url: `${threadUrl}/Notes`, as: 'admin' });
    await run('SetInquiryThreadExternalId', { method: 'POST', url: `${threadUrl}/ExternalId`, as: 'admin', body: `<SetInquiryThreadExternalIdRequest xmlns="${NS}" ExternalId="CRM-4471"/>` });
    await run('SetInquiryThreadStatus', { method: 'POST', url: `${threadUrl}/Status`, as: 'admin', body: `<SetInquiryThreadStatusRequest xmlns="${NS}" Status="Resolved"/>` });
    await run('SetInquiryThreadStatus.notAllowed', { method: 'POST', url: `${threadUrl}/Status`, as: 'admin', body: `<SetInquiryThreadStatusRequest xmlns="${NS}" Status="AwaitingResponse"/>` });
    const secret = new URL(await new MfaService({ store, clock, ids }).enrol('admin@demo.apas.local')).searchParams.get('secret')!;
    const totp = () => ({ 'X-Mfa-Totp': totpCode(secret, clock.now() + 1250) });
    await run('Error.mfaRequired', { method: 'GET', url: `${api}/Projects?limit=1`, as: 'admin' });
    const tokenAnswer = await run('CreateMfaSessionToken', { method: 'POST', url: '/services/v2/Accounts/MfaSessionTokens', as: 'admin', headers: totp(), body: `<CreateMfaSessionTokenRequest xmlns="${NS}" ExpiresAfterMinutes="120"/>` });
    const session = { 'X-Mfa-Session-Token': attr(tokenAnswer, 'MfaSessionToken', 'Token') };
    await run('GetProjectData.reveal', { method: 'GET', url: `${form}/Data?reveal_sensitive_data=true`, as: 'admin', headers: session });
    await run('DeleteMfaSessionToken', { method: 'DELETE', url: `/services/v2/Accounts/MfaSessionTokens/${attr(tokenAnswer, 'MfaSessionToken', 'TokenId')}`, as: 'admin', headers: session });
    await run('Error.wrongNamespace', { method: 'POST', url: `${api}/Projects/ByNumber`, as: 'reviewer', body: '<ProjectByNumberRequest xmlns="urn:example:other"><Project ProjectNumber="SOLAR-00001"/></ProjectByNumberRequest>' });
    await run('Error.unauthenticated', { method: 'GET', url: `${api}/Projects`, as: null });
    // Keyset paging: the first page's Link header names the next page, whose own Link (if any) names the one after.
    const firstPage = await exchange(app, { method: 'GET', url: `${api}/Projects?limit=1`, as: 'reviewer', responseHeaders: ['Link'] });
    out.set('GetProjects.first', firstPage.markdown);
    const nextPage = /^<https:\/\/apas\.example\.org([^>]+)>; rel="next"$/.exec(firstPage.link ?? '')?.[1];
    if (!nextPage) throw new Error(`GetProjects gave no next page: ${firstPage.link}`);
    await run('GetProjects.after', { method: 'GET', url: nextPage, as: 'reviewer', responseHeaders: ['Link'] });
    // Conditional requests, last so that the examples above keep their ids and times.
    const read = await app.inject({ method: 'GET', url: `${form}/Data`, headers: { authorization: credentials('reviewer').authorization, 'x-apikey': credentials('reviewer')['x-apikey'] } });
    const seen = String(read.headers.etag);
    await run('Conditional.notModified', { method: 'GET', url: `${form}/Data`, as: 'reviewer', shown: { 'If-None-Match': seen }, responseHeaders: ['ETag'] });
    const assign = (email: string) => `<SetAssigneeRequest xmlns="${NS}"><AssigneeEmail>${email}</AssigneeEmail></SetAssigneeRequest>`;
    await run('Conditional.write', { method: 'POST', url: `${projectUrl}/Assignee`, as: 'reviewer', shown: { 'If-Match': seen }, body: assign('admin@demo.apas.local'), responseHeaders: ['ETag'] });
    await run('Conditional.stale', { method: 'POST', url: `${projectUrl}/Assignee`, as: 'reviewer', shown: { 'If-Match': seen }, body: assign('reviewer@demo.apas.local') });
    // OAuth 2.0 client credentials, last too: a client of the reviewer gets a token, uses it, and revokes it.
    const client = await new OAuthClientService({ store, clock, ids }).createClient('reviewer@demo.apas.local', 'CRM sync');
    const reviewerKey = credentials('reviewer')['x-apikey'];
    const clientAuth = (secret: string) => ({ Authorization: `Basic ${Buffer.from(`${client.id}:${secret}`).toString('base64')}`, 'X-ApiKey': reviewerKey });
    const oauthHeaders = ['Cache-Control', 'Pragma', 'WWW-Authenticate'];
    const issued = await run('OAuth.token', { method: 'POST', url: '/services/v2/oauth/token', as: null, headers: clientAuth(client.secret), form: 'grant_type=client_credentials', responseHeaders: oauthHeaders });
    const accessToken = (JSON.parse(issued) as { access_token: string }).access_token;
    const bearer = { Authorization: `Bearer ${accessToken}`, 'X-ApiKey': reviewerKey };
    await run('OAuth.bearer', { method: 'GET', url: `${api}/Projects?limit=1`, as: null, headers: bearer });
    await run('OAuth.invalidClient', { method: 'POST', url: '/services/v2/oauth/token', as: null, headers: clientAuth('not-the-secret'), form: 'grant_type=client_credentials', responseHeaders: oauthHeaders });
    await run('OAuth.unsupportedGrant', { method: 'POST', url: '/services/v2/oauth/token', as: null, headers: clientAuth(client.secret), form: 'grant_type=password&username=reviewer%40demo.apas.local&password=x', responseHeaders: oauthHeaders });
    await run('OAuth.revoke', { method: 'POST', url: '/services/v2/oauth/revoke', as: null, headers: clientAuth(client.secret), form: `token=${accessToken}`, responseHeaders: ['Cache-Control'] });
    await run('OAuth.revoked', { method: 'GET', url: `${api}/Projects?limit=1`, as: null, headers: bearer, responseHeaders: ['WWW-Authenticate'] });
    // Idempotent retries, after those for the same reason: a project created with a key, the same request again, another one.
    const key = { 'Idempotency-Key': '"8e03978e-40d5-43e8-bc93-6894a57f9324"' };
    const create: Call = { method: 'POST', url: `${api}/NewProject`, as: 'applicant', shown: key, responseHeaders: ['ETag', 'Idempotent-Replayed'] };
    const keyed = attr(await run('Idempotent.first', create), 'Project', 'ProjectId');
    await run('Idempotent.replay', create);
    await run('Idempotent.reused', { method: 'POST', url: `${api}/Projects/${keyed}/Forms/Application/Draft/Submit`, as: 'applicant', shown: key });
    // The change feed, last: the reviewer reads the first events of the program, then the page after them.
    const firstEvents = await run('GetEvents', { method: 'GET', url: '/services/v2/Events?program=RES-SOLAR&limit=3', as: 'reviewer' });
    await run('GetEvents.json', { method: 'GET', url: `/services/v2/Events?program=RES-SOLAR&limit=2&after=${attr(firstEvents, 'EventsResponse', 'NextCursor')}`, as: 'reviewer', shown: { Accept: 'application/json' } });
    // Representations and request ids, after everything else so that the ids and times above stay as they are.
    const json = { Accept: 'application/json' };
    await run('Conditional.json', { method: 'GET', url: `${attachments}/SitePlan/Metadata`, as: 'reviewer', shown: json, responseHeaders: ['ETag', 'Vary'] });
    await run('Conditional.readStale', { method: 'GET', url: `${form}/Data`, as: 'reviewer', shown: { 'If-Match': seen }, responseHeaders: ['Vary'] });
    await run('RequestId', { method: 'GET', url: `${api}/Projects/NOSUCHPROJECT/Forms/Application/Data`, as: 'reviewer', shown: { 'X-Request-Id': 'crm-sync-7f3a9c' }, responseHeaders: ['X-Request-Id'] });
    await run('OAuth.metadata', { method: 'GET', url: '/.well-known/oauth-authorization-server', as: null });
    // Deadlines, last too: the admin (with a second factor since the MFA examples) starts the answer deadline, the applicant reads the project's deadlines.
    await run('StartProjectDeadline', { method: 'POST', url: `${projectUrl}/Deadlines/AnswerDue/Start`, as: 'admin', headers: totp() });
    await run('GetProjectDeadlines', { method: 'GET', url: `${projectUrl}/Deadlines`, as: 'applicant' });
    // Automations, last as well: what they did on the project, then a month on, the daily draft reminder's preview and a run now.
    await run('GetProjectAutomationRuns', { method: 'GET', url: `${projectUrl}/AutomationRuns`, as: 'reviewer' });
    clock.skip(30 * 86_400_000);
    await run('GetAutomationSchedule', { method: 'GET', url: `${api}/Automations/DraftReminderDaily/Schedule`, as: 'admin', headers: totp() });
    clock.skip(60_000);
    await run('RunAutomationSchedule', { method: 'POST', url: `${api}/Automations/DraftReminderDaily/Schedule/Run`, as: 'admin', headers: totp() });
    // Documents and signing, last: the approval asked for the demo's letter and agreement; the plan reviewer asks for the
    // letter again (an admin: it takes generateDocuments); the background task renders them (the agreement goes out for signing), as serve runs it.
    clock.skip(60_000);
    await run('GenerateDocument', { method: 'POST', url: `${projectUrl}/Documents/ApprovalLetter/Generate`, as: 'admin', headers: totp() });
    const generation = eventTasks({ store, clock, ids, reactions: changeReactions(), publicUrl: config.publicUrl, mailer: null, mailIntervalMs: 1000,
      documents: { renderer: createDocumentRenderer({ store }), blobs }, signing: { blobs, maker: null } }).find((t) => t.what === 'document generation')!;
    while (await generation.run()) { /* a full round: there is more */ }
    clock.skip(60_000);
    await run('GetProjectDocuments', { method: 'GET', url: `${projectUrl}/Documents`, as: 'admin', headers: totp() });
    const envelopes = await run('GetProjectEnvelopes', { method: 'GET', url: `${projectUrl}/Envelopes`, as: 'applicant' });
    await run('GetEnvelope', { method: 'GET', url: `${projectUrl}/Envelopes/${attr(envelopes, 'Envelope', 'EnvelopeId')}`, as: 'reviewer' });
    // Last, so that the examples before it keep their times and ids.
    await run('GetProjectData.byNumber', { method: 'GET', url: `${api}/Projects/SOLAR-00001/Forms/CompletionCertificate/Data`, as: 'reviewer' });
    // Related projects, after that: the admin creates the interconnection's incentive claim (the demo program's relation
    // IncentiveClaim), the applicant reads the relations.
    await run('CreateRelatedProject', { method: 'POST', url: `${projectUrl}/Relations/IncentiveClaim/Create`, as: 'admin', headers: totp() });
    clock.skip(60_000);
    await run('LinkProject', { method: 'POST', url: `${projectUrl}/Relations`, as: 'admin', headers: totp(), body: `<LinkProjectRequest xmlns="${NS}" ProgramId="RES-SOLAR" ProjectId="${second}" Kind="successor"/>` });
    await run('GetProjectRelations', { method: 'GET', url: `${projectUrl}/Relations`, as: 'applicant' });
    clock.skip(60_000);
    await run('GetProjectRelations.json', { method: 'GET', url: `${projectUrl}/Relations`, as: 'admin', headers: totp(), shown: { Accept: 'application/json' } });
    // UnlinkProject, after those: two more of the applicant's projects linked, the links removed again (XML, then JSON).
    for (const format of ['', '.json']) {
      const other = attr((await exchange(app, { method: 'POST', url: `${api}/NewProject`, as: 'applicant' })).body, 'Project', 'ProjectId');
      const link = `<LinkProjectRequest xmlns="${NS}" ProgramId="RES-SOLAR" ProjectId="${other}" Kind="link"/>`;
      clock.skip(60_000);
      const linked = (await exchange(app, { method: 'POST', url: `${projectUrl}/Relations`, as: 'admin', headers: totp(), body: link })).body;
      clock.skip(60_000);
      await run(`UnlinkProject${format}`, {
        method: 'DELETE', url: `${projectUrl}/Relations/${attr(linked, 'Relation', 'RelationId')}`, as: 'admin', headers: totp(),
        ...(format === '.json' ? { shown: { Accept: 'application/json' } } : {}),
      });
    }
    // A byte range of a file, last as well.
    await run('GetActiveAttachment.range', {
      method: 'GET', url: `${attachments}/SitePlan`, as: 'reviewer', shown: { Range: 'bytes=0-7' }, responseHeaders: ['Content-Range', 'Content-Length', 'Accept-Ranges', 'ETag'],
    });
    await app.close();
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

const BLOCK = /<!-- example:([\w.]+) -->\n[\s\S]*?<!-- \/example -->/g;

/** The document with every example block replaced by its freshly generated content. */
export function fillExamples(doc: string, examples: Map<string, string>): string {
  return doc.replace(BLOCK, (_all, name: string) => {
    const example = examples.get(name);
    if (example === undefined) throw new Error(`docs/interface.md names an unknown example "${name}"`);
    return `<!-- example:${name} -->\n${example}\n<!-- /example -->`;
  });
}

async function main(): Promise<void> {
  const doc = fs.readFileSync(INTERFACE_DOC, 'utf8');
  const filled = fillExamples(doc, await generateExamples());
  if (process.argv.includes('--write')) {
    fs.writeFileSync(INTERFACE_DOC, filled);
    process.stdout.write('docs/interface.md examples rewritten\n');
  } else if (filled !== doc) {
    process.stdout.write('docs/interface.md examples are out of date; run with --write\n');
    process.exitCode = 1;
  } else {
    process.stdout.write('docs/interface.md examples are current\n');
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
