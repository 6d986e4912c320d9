import fc from 'fast-check';
import { parseTimestamp } from '../../src/model/clock.ts';
import { API, authHeaders, type Identity } from './api-client.ts';
import { TINY_PDF } from './demo-steps.ts';
import { type DocKind, defectiveBody, semanticallyBadBody, validDocument } from './hostile-bodies.ts';

/** One generated request; every one of them is wrong in at least one way and must be refused. */
export interface HostileRequest {
  /** Category and variant, for reports and for finding the generator of a failure. */
  label: string;
  method: string;
  /** Path and query exactly as they go on the wire (already percent-encoded where meant to be). */
  path: string;
  headers: Record<string, string>;
  /** Built when the request is sent, so that a sample of thousands does not hold megabytes of bodies. */
  body?: () => Buffer;
  /** The interface answers with an XML ErrorResponse; the landing page (a web page) with an HTML page. */
  expect: 'xml-error' | 'html-error' | 'sign-in';
  /** The body is over the server's limit, so the answer (413) comes before the body is all sent. */
  oversize?: boolean;
}

/** The real things requests aim at, so that the one defect a request has is the reason it is refused. */
export interface HostileTargets {
  /** The demo program's generated id (its custom id RES-SOLAR works too). */
  programId: string;
  /** A project of the applicant that is submitted (in Application Review), so the Application is closed. */
  submittedProjectId: string;
  /** A project of the applicant still in draft, for bodies that are well-formed but say something invalid. */
  draftProjectId: string;
  /** The Application form's generated id. */
  formId: string;
  admin: Identity;
  applicant: Identity;
  reviewer: Identity;
  bodyLimit: number;
  maxNumbers: number;
}

type Slot = 'P' | 'J' | 'F' | 'L' | 'T' | 'A' | 'H';

interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  doc?: DocKind;
  query?: 'projects' | 'version' | 'reveal' | 'agency' | 'page';
  /** An upload: the body is the file itself. */
  upload?: true;
}

// Every operation of the interface, with placeholders for the ids in its path.
const ROUTES: Route[] = [
  { method: 'GET', path: '/Programs', query: 'agency' },
  { method: 'GET', path: '/Programs/{P}/Projects', query: 'projects' },
  { method: 'GET', path: '/Programs/{P}/Forms' },
  { method: 'GET', path: '/Programs/{P}/Forms/{F}/Schema', query: 'version' },
  { method: 'GET', path: '/Programs/{P}/CustomLists/{L}/Choices' },
  { method: 'GET', path: '/Programs/{P}/Statuses' },
  { method: 'GET', path: '/Programs/{P}/Projects/{J}/Forms/{F}/Data', query: 'reveal' },
  { method: 'GET', path: '/Programs/{P}/Projects/{J}/Forms/{F}/Draft/Data', query: 'reveal' },
  { method: 'GET', path: '/Programs/{P}/Projects/{J}/Data', query: 'reveal' },
  { method: 'GET', path: '/Programs/{P}/Projects/{J}/Export', query: 'version' },
  { method: 'GET', path: '/Programs/{P}/Projects/{J}/StatusHistory' },
  { method: 'POST', path: '/Programs/{P}/Projects/{J}/Forms/{F}/Draft/Data', doc: 'ProjectDataRequest' },
  { method: 'POST', path: '/Programs/{P}/Projects/{J}/Forms/{F}/Data', doc: 'ProjectDataRequest' },
  { method: 'POST', path: '/Programs/{P}/Projects/ByNumber', doc: 'ProjectByNumberRequest', query: 'version' },
  { method: 'POST', path: '/Programs/{P}/ProjectsByNumber', doc: 'ProjectByNumberRequest', query: 'version' },
  { method: 'POST', path: '/Programs/{P}/Projects/ByData', doc: 'ProjectByDataRequest', query: 'page' },
  { method: 'POST', path: '/Programs/{P}/Projects/{J}/Owner', doc: 'SetProjectOwnerRequest' },
  { method: 'POST', path: '/Programs/{P}/Projects/{J}/Status', doc: 'SetProjectStatusRequest' },
  { method: 'POST', path: '/Programs/{P}/Projects/{J}/StatusHistory/ReportAs', doc: 'SetProjectStatusHistoryReportAs' },
  { method: 'POST', path: '/Programs/{P}/Projects/{J}/Assignee', doc: 'SetAssigneeRequest' },
  { method: 'POST', path: '/Accounts/MfaSessionTokens', doc: 'CreateMfaSessionTokenRequest' },
  { method: 'POST', path: '/Programs/{P}/NewProject' },
  { method: 'POST', path: '/Programs/{P}/Projects/{J}/Forms/{F}/Draft/Submit' },
  { method: 'POST', path: '/Programs/{P}/Projects/{J}/Forms/{F}/Submit' },
  { method: 'DELETE', path: '/Accounts/MfaSessionTokens/{T}' },
  { method: 'GET', path: '/Programs/{P}/Projects/{J}/Attachments/{A}' },
  { method: 'GET', path: '/Programs/{P}/Projects/{J}/Attachments/{A}/Metadata' },
  { method: 'POST', path: '/Programs/{P}/Projects/{J}/Attachments/{A}/Metadata', doc: 'SetAttachmentMetadata' },
  { method: 'POST', path: '/Programs/{P}/Projects/{J}/Forms/{F}/Attachments/{A}', upload: true },
  { method: 'GET', path: '/Programs/{P}/Projects/{J}/InquiryThreads' },
  { method: 'GET', path: '/Programs/{P}/Projects/{J}/InquiryThreads/{H}/Notes' },
  { method: 'POST', path: '/Programs/{P}/Projects/{J}/InquiryNotes', doc: 'SetInquiryNoteRequest' },
  { method: 'POST', path: '/Programs/{P}/Projects/{J}/InquiryThreads/{H}/Status', doc: 'SetInquiryThreadStatusRequest' },
  { method: 'POST', path: '/Programs/{P}/Projects/{J}/InquiryThreads/{H}/ExternalId', doc: 'SetInquiryThreadExternalIdRequest' },
];

const WITH_DOC = ROUTES.filter((r) => r.doc);
const WITH_QUERY = ROUTES.filter((r) => r.query);
const WITH_IDS = ROUTES.filter((r) => /\{[PJFLTAH]\}/.test(r.path));

// Ids that are wrong in every way an id can be: traversal, SQL, NUL, bad percent-encoding, too long, odd names, and
// project numbers of no project (a read accepts a project's number in place of its id).
const ID_TRICKS = [
  '..', '.', '%2e%2e', '%2E%2E%2F..%2F', '..%2f..%2f..%2fetc%2fpasswd', '..%5c..%5cwindows%5cwin.ini', '%252e%252e',
  "'%20OR%201%3D1%20--", "1'%3B%20DROP%20TABLE%20projects%3B--", '%22%3E%3Cscript%3E', '%00', 'abc%00def', '%FF', '%C3%28',
  '%E2%82', '%', '%zz', '%25', '*', '~', '-', '_', 'A'.repeat(65), 'B'.repeat(500), '%F0%9F%92%A9', '%20', 'null', 'undefined',
  '__proto__', 'constructor', 'prototype', 'hasOwnProperty', '0', '-1', '1e999', 'SOLAR-99999', 'SOLAR-0', '',
];

function fillPath(route: Route, t: HostileTargets, projectId: string, trick?: { slot: Slot; value: string }): string {
  const ids: Record<Slot, string> = { P: t.programId, J: projectId, F: t.formId, L: 'InverterMakes', T: 'NOSUCHTOKEN0', A: 'SitePlan', H: 'NOSUCHTHREAD' };
  return API + route.path.replace(/\{([PJFLTAH])\}/g, (_, s: Slot) => (trick?.slot === s ? trick.value : ids[s]));
}

function xmlHeaders(who: Identity | null, contentType = 'application/xml'): Record<string, string> {
  return { ...(who ? authHeaders(who) : {}), 'content-type': contentType };
}

/** Writes go to the project whose Application is closed and as a non-admin, so even a mistake changes nothing. */
const writer = (t: HostileTargets) => fc.constantFrom(t.applicant, t.reviewer);
const anyone = (t: HostileTargets) => fc.constantFrom(t.applicant, t.reviewer, t.admin);

/** Credentials that are missing, malformed or wrong in one part (user, password, key, key owner). */
function badCredentials(t: HostileTargets): fc.Arbitrary<{ label: string; headers: Record<string, string> }> {
  const a = t.applicant;
  const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
  const basic = (user: string, password: string) => `Basic ${b64(`${user}:${password}`)}`;
  const h = (label: string, authorization: string | null, key: string | null) => ({
    label, headers: { ...(authorization !== null ? { authorization } : {}), ...(key !== null ? { 'x-apikey': key } : {}) },
  });
  const junk = fc.string({ minLength: 1, maxLength: 60, unit: 'grapheme-ascii' });
  return fc.oneof(
    fc.constant(h('no credentials', null, null)),
    fc.constant(h('no API key', basic(a.email, a.password), null)),
    fc.constant(h('API key only', null, a.apiKey)),
    fc.constantFrom('Bearer abc.def.ghi', 'Digest username="x"', 'Basic', 'Basic ', 'Basic !!!!', 'basic', 'NTLM TlRMTVNTUAAB', `Basic ${b64('no-colon')}`, `Basic ${b64(`:${a.password}`)}`)
      .map((v) => h(`Authorization "${v.slice(0, 24)}"`, v, a.apiKey)),
    junk.map((j) => h('Authorization junk', j.replace(/[^\x20-\x7e]/g, ''), a.apiKey)),
    fc.emailAddress().map((e) => h('unknown user', basic(e, a.password), a.apiKey)),
    junk.filter((p) => p !== a.password).map((p) => h('wrong password', basic(a.email, p), a.apiKey)),
    fc.constant(h("another user's key", basic(a.email, a.password), t.reviewer.apiKey)),
    fc.constant(h('right key id, wrong secret', basic(a.email, a.password), `${a.apiKey.slice(0, -4)}XXXX`)),
    fc.constantFrom('apas_', 'apas__', 'apas_DEMOAPPLCNT0_', `apas_DEMOAPPLCNT0_${'x'.repeat(65)}`, "apas_' OR 1=1 --_x", 'x'.repeat(4000), `${a.apiKey}x`, `${a.apiKey.slice(0, -1)}`)
      .map((k) => h(`malformed key "${k.slice(0, 20)}"`, basic(a.email, a.password), k)),
    fc.constant(h('NUL in the user name', `Basic ${b64(`${a.email}\u0000:${a.password}`)}`, a.apiKey)),
    fc.constant(h('invalid UTF-8 credentials', `Basic ${b64(Buffer.concat([Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from(`:${a.password}`)]))}`, a.apiKey)),
    fc.constant(h('4 KB password', basic(a.email, 'p'.repeat(4096)), a.apiKey)),
  );
}

/** The body a route takes when it is otherwise right: its valid document, or the tiny PDF for an upload. */
function routeBody(route: Route): fc.Arbitrary<{ body?: () => Buffer; type?: string }> {
  if (route.upload) return fc.constant({ body: () => TINY_PDF, type: 'application/pdf' });
  if (!route.doc) return fc.constant({});
  return validDocument(route.doc).map((d) => ({ body: () => Buffer.from(d, 'utf8'), type: 'application/xml' }));
}

function bodyHeaders(b: { body?: () => Buffer; type?: string }): Record<string, string> {
  return b.type ? { 'content-type': b.type, ...(b.type === 'application/pdf' ? { 'content-disposition': 'attachment; filename="site-plan.pdf"' } : {}) } : {};
}

function authCategory(t: HostileTargets): fc.Arbitrary<HostileRequest> {
  return fc.tuple(fc.constantFrom(...ROUTES), badCredentials(t)).chain(([route, creds]) =>
    routeBody(route).map((b): HostileRequest => ({
      label: `auth: ${creds.label}`, method: route.method, path: fillPath(route, t, t.submittedProjectId),
      headers: { ...creds.headers, ...bodyHeaders(b) }, ...(b.body ? { body: b.body } : {}), expect: 'xml-error',
    })));
}

const ROUTE_PATTERNS = ROUTES.map((r) => new RegExp(`^${API}${r.path.replace(/\{[PJFLTAH]\}/g, '[^/]+')}$`));

/**
 * True when dot segments (`..`, `%2e%2e`) make a path another operation's: clients and Fastify's inject
 * resolve them as URLs do, so `…/Forms/../Data` is a valid read of `…/Data`, not a hostile request.
 */
function resolvesToOperation(path: string): boolean {
  const resolved = new URL(path, 'http://127.0.0.1').pathname;
  return resolved !== path && ROUTE_PATTERNS.some((p) => p.test(resolved));
}

function pathCategory(t: HostileTargets): fc.Arbitrary<HostileRequest> {
  const real = /^(Application|RES-SOLAR|InverterMakes|SitePlan|SingleLineDiagram)$/;
  const random = fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent).filter((s) => !real.test(s) && s.length !== 12);
  return fc.tuple(fc.constantFrom(...WITH_IDS), fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...ID_TRICKS) }, { weight: 1, arbitrary: random }))
    .chain(([route, value]) => {
      const slots = [...route.path.matchAll(/\{([PJFLTAH])\}/g)].map((m) => m[1] as Slot);
      return fc.tuple(fc.constantFrom(...slots), route.method === 'GET' ? anyone(t) : writer(t), routeBody(route)).map(([slot, who, b]): HostileRequest => ({
        label: `path: ${slot} = ${value.slice(0, 30)}`, method: route.method, path: fillPath(route, t, t.submittedProjectId, { slot, value }),
        headers: { ...authHeaders(who), ...bodyHeaders(b) }, ...(b.body ? { body: b.body } : {}), expect: 'xml-error',
      }));
    }).filter((r) => !resolvesToOperation(r.path));
}

/** Query values that break the parameter's rules (checked against the rules, so none slips through as valid). */
function badQuery(kind: NonNullable<Route['query']>): fc.Arbitrary<{ label: string; query: string }> {
  const enc = encodeURIComponent;
  const anyText = fc.string({ maxLength: 30 });
  const pick = (name: string, fixed: string[], valid: (v: string) => boolean) =>
    fc.oneof(fc.constantFrom(...fixed), anyText).filter((v) => !valid(v)).map((v) => ({ label: `${name}=${v.slice(0, 30)}`, query: `${name}=${enc(v)}` }));
  const whole = (v: string, min: number, max: number) => /^\d{1,9}$/.test(v) && Number(v) >= min && Number(v) <= max;
  const version = (ok: number[]) => pick('version', ['3', '0', '2.1', 'v3', 'latest', '', '-1', '1.5', '02.x', '9'.repeat(40)], (v) => {
    const m = /^v?(\d{1,3})(\.0+)?$/i.exec(v.trim());
    return m !== null && ok.includes(Number(m[1]));
  });
  const repeated = (name: string, value: string) => fc.constant({ label: `${name} twice`, query: `${name}=${value}&${name}=${value}` });
  switch (kind) {
    case 'projects':
      return fc.oneof(
        pick('limit', ['0', '-1', '1001', '99999999999', '1e3', '+5', ' 5', '0x10', 'abc', '', '1.0', '\uff11', 'NaN', 'Infinity', '10;DROP TABLE projects'], (v) => whole(v, 1, 1000)),
        pick('offset', ['-1', '1000000001', 'x', '1e2', '', '4294967296', "0' OR '1'='1"], (v) => whole(v, 0, 1_000_000_000)),
        pick('changed_since', ['2026-02-30', '2026-13-01', '9999-99-99T99:99:99Z', '2026-01-01T00:00:00+25:00', "' OR 1=1 --", 'yesterday', '0', ''],
          (v) => parseTimestamp(v.replace(/(T[\d:.]+) (\d{2}:?\d{2})$/, '$1+$2')) !== null),
        version([1, 2]),
        repeated('limit', '10'),
        fc.constant({ label: 'invalid UTF-8 in limit', query: 'limit=%FF%FE' }),
        fc.constant({ label: 'NUL in offset', query: 'offset=%00' }),
      );
    case 'version':
      return fc.oneof(version([1, 2]), repeated('version', '2'));
    case 'page':
      return fc.oneof(
        pick('limit', ['0', '1001', '-5', 'all'], (v) => whole(v, 1, 1000)),
        pick('offset', ['-1', 'x'], (v) => whole(v, 0, 1_000_000_000)),
        version([1, 2]),
      );
    case 'reveal':
      return fc.oneof(
        pick('reveal_sensitive_data', ['yes', '1', '0', 'TRUE ', '', 'on', "true' --"], (v) => /^(true|false)$/i.test(v)),
        // Allowed syntax, but no demo user may reveal: 403 SENSITIVE_DATA_NOT_ALLOWED.
        fc.constant({ label: 'reveal_sensitive_data=true without the privilege', query: 'reveal_sensitive_data=true' }),
        repeated('reveal_sensitive_data', 'false'),
      );
    case 'agency':
      return fc.oneof(
        fc.constant({ label: 'no Agency', query: '' }),
        fc.constantFrom('', '%20', "demo'%20OR%201%3D1--", '..%2F..', '%00', 'demo%00', 'x'.repeat(300)).map((v) => ({ label: `Agency=${v.slice(0, 30)}`, query: `Agency=${v}` })),
        fc.string({ minLength: 1, maxLength: 30 }).filter((v) => v.trim().toLowerCase() !== 'demo').map((v) => ({ label: 'Agency=random', query: `Agency=${enc(v)}` })),
        repeated('Agency', 'demo'),
      );
  }
}

function queryCategory(t: HostileTargets): fc.Arbitrary<HostileRequest> {
  return fc.constantFrom(...WITH_QUERY).chain((route) =>
    fc.tuple(badQuery(route.query!), route.method === 'GET' ? anyone(t) : writer(t), routeBody(route)).map(([q, who, b]): HostileRequest => ({
      label: `query: ${q.label}`, method: route.method, path: `${fillPath(route, t, t.submittedProjectId)}${q.query ? `?${q.query}` : ''}`,
      headers: { ...authHeaders(who), ...bodyHeaders(b) }, ...(b.body ? { body: b.body } : {}), expect: 'xml-error',
    })));
}

function bodyCategory(t: HostileTargets): fc.Arbitrary<HostileRequest> {
  return fc.constantFrom(...WITH_DOC).chain((route) =>
    fc.tuple(defectiveBody(route.doc!, t.bodyLimit), writer(t), fc.constantFrom('application/xml', 'text/xml', 'application/xml; charset=utf-8', 'application/soap+xml', 'application/xml; charset=iso-8859-1'))
      .map(([body, who, type]): HostileRequest => ({
        label: `body: ${body.label}`, method: 'POST', path: fillPath(route, t, t.draftProjectId), headers: xmlHeaders(who, type), body: body.build, expect: 'xml-error',
        ...(body.oversize ? { oversize: true } : {}),
      })));
}

function semanticCategory(t: HostileTargets): fc.Arbitrary<HostileRequest> {
  return fc.constantFrom(...WITH_DOC).chain((route) =>
    fc.tuple(semanticallyBadBody(route.doc!, t.maxNumbers), anyone(t)).map(([body, who]): HostileRequest => ({
      label: `content: ${route.doc}: ${body.label}`, method: 'POST', path: fillPath(route, t, t.draftProjectId), headers: xmlHeaders(who), body: body.build, expect: 'xml-error',
    })));
}

/** Uploads to the draft project that must be refused: a type the attachment does not take, no bytes, too many, no such attachment. */
function uploadCategory(t: HostileTargets): fc.Arbitrary<HostileRequest> {
  const upload = (form: string, attachment: string) => `${API}/Programs/${t.programId}/Projects/${t.draftProjectId}/Forms/${form}/Attachments/${attachment}`;
  const pdf = 'application/pdf';
  return fc.oneof(
    fc.constantFrom('image/png', 'text/plain', 'application/xml', 'application/pdfx', 'application/x-pdf', 'pdf', '*/*', null)
      .map((type) => ({ label: `type ${type ?? 'none'}`, path: upload(t.formId, 'SitePlan'), type, body: () => TINY_PDF })),
    fc.constant({ label: 'empty file', path: upload(t.formId, 'SitePlan'), type: pdf as string | null, body: () => Buffer.alloc(0) }),
    fc.integer({ min: 1, max: 4096 }).map((extra) => ({
      label: `${extra} bytes over 10 MiB`, path: upload(t.formId, 'SitePlan'), type: pdf as string | null, body: () => Buffer.alloc(10 * 1024 * 1024 + extra, 0x25), oversize: true,
    })),
    fc.constantFrom('NoSuchAttachment', 'SignedCertificate', 'SystemPhotos').map((a) => ({ label: `attachment ${a}`, path: upload(t.formId, a), type: pdf as string | null, body: () => TINY_PDF })),
    fc.constant({ label: 'staff-only form', path: upload('ReviewChecklist', 'SitePlan'), type: pdf as string | null, body: () => TINY_PDF }),
  ).map((u: { label: string; path: string; type: string | null; body: () => Buffer; oversize?: boolean }): HostileRequest => ({
    label: `upload: ${u.label}`, method: 'POST', path: u.path,
    headers: { ...authHeaders(t.applicant), ...(u.type ? { 'content-type': u.type } : {}), 'content-disposition': 'attachment; filename="../../etc/passwd"' },
    body: u.body, expect: 'xml-error', ...(u.oversize ? { oversize: true } : {}),
  }));
}

function contentTypeCategory(t: HostileTargets): fc.Arbitrary<HostileRequest> {
  const types = ['text/plain', 'application/json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=----x', 'application/octet-stream',
    'image/svg+xml', 'application/xml-dtd', 'application/xmlx', 'text/html', 'application/pdf', 'xml', 'application/', '*/*', 'text/xml2'];
  return fc.tuple(fc.constantFrom(...WITH_DOC), fc.constantFrom(...types, null)).chain(([route, type]) =>
    fc.tuple(validDocument(route.doc!), writer(t)).map(([doc, who]): HostileRequest => ({
      label: `content type: ${type ?? 'none'}`, method: 'POST', path: fillPath(route, t, t.submittedProjectId),
      headers: type === null ? authHeaders(who) : xmlHeaders(who, type), body: () => Buffer.from(doc, 'utf8'), expect: 'xml-error',
    })));
}

function methodCategory(t: HostileTargets): fc.Arbitrary<HostileRequest> {
  // Paths and the methods they answer to; anything else must be 405 with Allow (DELETE of a token is a real operation).
  const paths = [...new Set(ROUTES.filter((r) => r.method !== 'DELETE').map((r) => r.path))];
  const allowed = (p: string) => ROUTES.filter((r) => r.path === p).map((r) => r.method as string);
  const methods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'SEARCH', 'PURGE'];
  return fc.constantFrom(...paths).chain((path) =>
    fc.tuple(fc.constantFrom(...methods.filter((m) => !allowed(path).includes(m))), anyone(t), fc.boolean()).map(([method, who, withXml]): HostileRequest => ({
      label: `method: ${method}`, method, path: fillPath({ method: 'GET', path }, t, t.submittedProjectId),
      headers: withXml ? xmlHeaders(who) : authHeaders(who), ...(withXml ? { body: () => Buffer.from(`<ProjectDataRequest xmlns="x"/>`) } : {}), expect: 'xml-error',
    })));
}

function unknownPathCategory(t: HostileTargets): fc.Arbitrary<HostileRequest> {
  const segment = fc.stringMatching(/^zz[A-Za-z0-9._~-]{0,20}$/);
  return fc.oneof(
    fc.array(segment, { minLength: 1, maxLength: 6 }).map((s) => `${API}/${s.join('/')}`),
    fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => `${API}/Programs/${t.programId}/${s.join('/')}`),
    // '/' is the web application's front door (it redirects to the home page), so it is not an unknown path.
    fc.constantFrom('/services', '/services/v1/Programs', '/services/v2', '/services/v2/', '/.env', '/admin', '/etc/passwd',
      '/schemas/..%2F..%2Fpackage.json', '/schemas/%2e%2e%2fpackage.json', '/schemas/Nope.xsd', '/schemas/ErrorResponse.xsd%00', '/schemas/program.schema.json.bak',
      `${API}/Programs/${t.programId}/Projects/${t.submittedProjectId}/Forms/${t.formId}/Draft/Data/zz`, '/healthzz', '/%FF', '/%C0%AF', `/${'a'.repeat(2000)}`),
  ).chain((path) => fc.tuple(fc.constantFrom('GET', 'POST'), fc.option(anyone(t))).map(([method, who]): HostileRequest => ({
    label: 'unknown path', method, path, headers: who ? authHeaders(who) : {}, expect: 'xml-error',
  })));
}

function landingCategory(t: HostileTargets): fc.Arbitrary<HostileRequest> {
  const page = '/MvcProjects/LandingPage';
  const good = `ProgramId=${t.programId}&ProjectId=${t.submittedProjectId}`;
  const basic = (who: Identity, password = who.password) => `Basic ${Buffer.from(`${who.email}:${password}`).toString('base64')}`;
  return fc.oneof(
    fc.constant({ label: 'no credentials', query: good, auth: null as string | null }),
    fc.constant({ label: 'wrong password', query: good, auth: basic(t.applicant, 'wrong') }),
    fc.constantFrom('', 'ProgramId=', `ProgramId=${t.programId}`, `ProgramId=${t.programId}&ProjectId=..%2F..`, `ProgramId=%27%20OR%201%3D1&ProjectId=${t.submittedProjectId}`,
      `ProgramId=${t.programId}&ProjectId=NOSUCHPROJEC`, `ProgramId=${t.programId}&ProjectId=${t.submittedProjectId}&ProjectId=${t.submittedProjectId}`)
      .map((query) => ({ label: `query ${query.slice(0, 30)}`, query, auth: basic(t.applicant) })),
  ).map((c): HostileRequest => ({
    label: `landing page: ${c.label}`, method: 'GET', path: `${page}${c.query ? `?${c.query}` : ''}`, headers: c.auth ? { authorization: c.auth } : {},
    // A browser without any sign-in is sent to the sign-in page, which refuses it nothing else.
    expect: c.auth ? 'html-error' : 'sign-in',
  }));
}

/** Every kind of hostile request, weighted so that each gets a fair share of a run. */
export function hostileRequests(t: HostileTargets): fc.Arbitrary<HostileRequest> {
  return fc.oneof(
    { weight: 3, arbitrary: bodyCategory(t) },
    { weight: 1, arbitrary: semanticCategory(t) },
    { weight: 1, arbitrary: contentTypeCategory(t) },
    { weight: 2, arbitrary: pathCategory(t) },
    { weight: 2, arbitrary: queryCategory(t) },
    { weight: 2, arbitrary: authCategory(t) },
    { weight: 1, arbitrary: methodCategory(t) },
    { weight: 1, arbitrary: unknownPathCategory(t) },
    { weight: 1, arbitrary: landingCategory(t) },
    { weight: 1, arbitrary: uploadCategory(t) },
  );
}
