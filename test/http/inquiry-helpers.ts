import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { Project } from '../../src/model/model.ts';
import type { Store } from '../../src/store/store.ts';
import { escapeXml } from '../../src/xml/xml-writer.ts';
import { IDS, programRows, T0 } from '../support/fixtures.ts';
import { assertValidXml, attr, authHeaders, type HttpHarness, NS, type Who } from '../support/http-harness.ts';
import { API, PROGRAM } from './http-helpers.ts';

/** The paths of the inquiry operations of one project (of the fixture program unless `program` is given). */
export const inquiryUrls = {
  threads: (projectId: string, program = PROGRAM) => `${program}/Projects/${projectId}/InquiryThreads`,
  notes: (projectId: string, threadId: string, program = PROGRAM) => `${program}/Projects/${projectId}/InquiryThreads/${threadId}/Notes`,
  addNote: (projectId: string, program = PROGRAM) => `${program}/Projects/${projectId}/InquiryNotes`,
  status: (projectId: string, threadId: string, program = PROGRAM) => `${program}/Projects/${projectId}/InquiryThreads/${threadId}/Status`,
  externalId: (projectId: string, threadId: string, program = PROGRAM) => `${program}/Projects/${projectId}/InquiryThreads/${threadId}/ExternalId`,
};

/** What a SetInquiryNoteRequest says; `rawText` is put into the document unescaped (CDATA, references). */
export interface NoteSpec { text?: string; rawText?: string; threadId?: string; subject?: string; visible?: boolean | string }

/** A SetInquiryNoteRequest body; the text is escaped unless given raw. */
export function noteRequest(spec: NoteSpec): string {
  const attrs = [
    spec.threadId === undefined ? '' : ` ThreadId="${escapeXml(spec.threadId, true)}"`,
    spec.subject === undefined ? '' : ` Subject="${escapeXml(spec.subject, true)}"`,
    spec.visible === undefined ? '' : ` VisibleToApplicant="${String(spec.visible)}"`,
  ].join('');
  const text = spec.rawText ?? escapeXml(spec.text ?? '', false);
  return `<SetInquiryNoteRequest xmlns="${NS}"${attrs}><Text>${text}</Text></SetInquiryNoteRequest>`;
}

/** A SetInquiryThreadStatusRequest body. */
export function threadStatusRequest(status: string): string {
  return `<SetInquiryThreadStatusRequest xmlns="${NS}" Status="${status}"/>`;
}

/** A SetInquiryThreadExternalIdRequest body; null leaves ExternalId out. */
export function externalIdRequest(externalId: string | null): string {
  return externalId === null
    ? `<SetInquiryThreadExternalIdRequest xmlns="${NS}"/>`
    : `<SetInquiryThreadExternalIdRequest xmlns="${NS}" ExternalId="${escapeXml(externalId, true)}"/>`;
}

/** Sends SetInquiryNote as `who` (the clock moves on first), expects 200 with a valid body; returns the ids and the answer. */
export async function addNote(h: HttpHarness, projectId: string, spec: NoteSpec, who: Who = 'admin', program = PROGRAM): Promise<{ threadId: string; noteId: string; res: LightMyRequestResponse }> {
  h.clock.advance();
  const res = await h.request({ method: 'POST', url: inquiryUrls.addNote(projectId, program), as: who, body: noteRequest(spec) });
  assert.equal(res.statusCode, 200, res.body);
  assertValidXml(h, res, 'InquiryNotesResponse');
  return { threadId: attr(res.body, 'InquiryThread', 'ThreadId')!, noteId: attr(res.body, 'Note', 'NoteId')!, res };
}

/** Opens a thread with one note as the admin and returns its id. */
export async function openThread(h: HttpHarness, projectId: string, spec: Omit<NoteSpec, 'threadId'> = {}, who: Who = 'admin'): Promise<string> {
  const { threadId } = await addNote(h, projectId, { subject: 'A question', text: 'Please check.', ...spec }, who);
  return threadId;
}

/** Sends SetInquiryThreadStatus as `who` (the clock moves on first) and expects 200. */
export async function setThreadStatus(h: HttpHarness, projectId: string, threadId: string, status: string, who: Who = 'admin'): Promise<LightMyRequestResponse> {
  h.clock.advance();
  const res = await h.request({ method: 'POST', url: inquiryUrls.status(projectId, threadId), as: who, body: threadStatusRequest(status) });
  assert.equal(res.statusCode, 200, res.body);
  assertValidXml(h, res, 'InquiryThreadResponse');
  return res;
}

/** Everything an inquiry request could change about one project, read straight from the store. */
export async function inquiryState(h: HttpHarness, projectId: string, programId: string = IDS.program) {
  const threads = await h.store.inquiries.listThreads(projectId);
  return {
    project: await h.store.projects.getProject(programId, projectId),
    threads,
    notes: await Promise.all(threads.map((t) => h.store.inquiries.listNotes(t.id))),
    audit: await h.store.audit.list({ projectId }),
    events: await h.store.events.listProjectEvents(projectId),
  };
}

/** The text of an XML text node or attribute value as a reader sees it (the five entities and character references). */
export function xmlText(escaped: string): string {
  return escaped.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_all, ref: string) => {
    if (ref.startsWith('#x')) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(Number(ref.slice(1)));
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[ref]!;
  });
}

/** The texts of the Note elements of an InquiryNotesResponse, decoded, in document order. */
export function noteTexts(xml: string): string[] {
  return [...xml.matchAll(/<Text>([\s\S]*?)<\/Text>/g)].map((m) => xmlText(m[1]!));
}

/** The custom id and generated id of a second program of the fixture agency (one status, no forms). */
export const OTHER = { program: 'PROGRAM00002', customId: 'wind', status: 'STATUS000009' } as const;

/** The second program's address by custom id. */
export const OTHER_PROGRAM = `${API}/Programs/${OTHER.customId}`;

/** Stores a second program in the fixture agency and one project of it owned by the applicant; returns the project id. */
export async function seedOtherProgram(store: Store, projectId = 'WINDPROJECT1'): Promise<string> {
  const base = programRows();
  await store.transaction(async (tx) => {
    if (!(await tx.programs.findProgram(OTHER.program))) {
      await tx.programs.saveProgramDefinition({
        program: { ...base.program, id: OTHER.program, customId: OTHER.customId, name: 'Wind Interconnection', numberPrefix: 'WND-' },
        lists: [], fields: [], forms: [],
        statuses: [{ id: OTHER.status, customId: 'new', publicId: 'NEW', name: 'New', isInitial: true, position: 0, next: [] }],
      });
    }
    const project: Project = {
      id: projectId, programId: OTHER.program, number: null, statusId: OTHER.status, statusAt: T0, createdAt: T0, createdBy: IDS.applicant,
      updatedAt: T0, updatedBy: IDS.applicant, ownerId: IDS.applicant, assigneeId: null, version: 0,
    };
    await tx.projects.insertProject(project);
  });
  return projectId;
}

/** The landing page of a project as `who` (password sign-in), or without credentials for null. */
export function landingPage(h: HttpHarness, projectId: string, who: Who | null): Promise<LightMyRequestResponse> {
  const url = `/MvcProjects/LandingPage?ProgramId=${IDS.program}&ProjectId=${projectId}`;
  return h.app.inject({ method: 'GET', url, headers: who ? { authorization: authHeaders(h.who[who]).authorization! } : {} });
}

/** The headers a browser sends with a form post from a page of the service (the harness's public URL). */
export const SAME_ORIGIN = { origin: 'http://apas.test' } as const;

/** A CSRF token of the web pages and the `_csrf` cookie it belongs to, as a browser has them after opening any page with a form. */
export async function csrfToken(h: Pick<HttpHarness, 'app'>): Promise<{ token: string; cookie: string }> {
  const res = await h.app.inject({ method: 'GET', url: '/MvcProjects/SignIn' });
  const token = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1];
  const setCookie = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('_csrf='));
  assert.ok(token && setCookie, 'the sign-in page hands out a CSRF token and its cookie');
  return { token, cookie: setCookie.split(';')[0]! };
}

/**
 * Posts the project page's reply form as `who`, with the page's CSRF token (left out with `csrf: false`); `headers`
 * replaces the same-origin Origin header.
 */
export function postReply(
  h: HttpHarness, who: Who | null, fields: Record<string, string>, headers: Record<string, string> = SAME_ORIGIN, opts: { csrf?: boolean } = {},
): Promise<LightMyRequestResponse> {
  return postReplyWith(h, who ? authHeaders(h.who[who]).authorization! : null, fields, headers, opts);
}

/** postReply for any app and caller: `authorization` is the header to send (none with null). */
export async function postReplyWith(
  h: Pick<HttpHarness, 'app'>, authorization: string | null, fields: Record<string, string>, headers: Record<string, string> = SAME_ORIGIN,
  opts: { csrf?: boolean } = {},
): Promise<LightMyRequestResponse> {
  const csrf = opts.csrf === false ? null : await csrfToken(h);
  return h.app.inject({
    method: 'POST', url: '/MvcProjects/InquiryReply', payload: new URLSearchParams({ ...(csrf ? { _csrf: csrf.token } : {}), ...fields }).toString(),
    headers: {
      ...(authorization ? { authorization } : {}), ...(csrf ? { cookie: csrf.cookie } : {}),
      'content-type': 'application/x-www-form-urlencoded', ...headers,
    },
  });
}

/** The note texts the landing page shows for one thread, decoded from HTML, oldest first; null when the thread is not shown. */
export function pageNotes(html: string, threadId: string): string[] | null {
  const section = new RegExp(`<section class="inquiry" id="thread-${threadId}"[^>]*>([\\s\\S]*?)</section>`).exec(html);
  if (!section) return null;
  return [...section[1]!.matchAll(/<div class="note"[^>]*>([\s\S]*?)<\/div>/g)].map((m) => xmlText(m[1]!));
}

/** True when the landing page shows a reply form for the thread. */
export function hasReplyForm(html: string, threadId: string): boolean {
  const section = new RegExp(`<section class="inquiry" id="thread-${threadId}"[^>]*>([\\s\\S]*?)</section>`).exec(html);
  return section !== null && section[1]!.includes('<form method="post" action="http://apas.test/MvcProjects/InquiryReply">') &&
    section[1]!.includes(`name="ThreadId" value="${threadId}"`);
}
