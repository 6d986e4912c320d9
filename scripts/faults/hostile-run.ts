import fc from 'fast-check';
import type { SchemaRegistry } from '../../src/xml/schema-registry.ts';
import { API, authHeaders, demoIdentity, type Identity, xmlAttr } from './api-client.ts';
import { APPLICATION, applicationDrafts, dataRequestXml, missingAttachments, PROGRAM_PATH, TINY_PDF } from './demo-steps.ts';
import { type HostileRequest, type HostileTargets, hostileRequests } from './hostile-requests.ts';
import type { HostileAnswer, Sender } from './hostile-senders.ts';

/** How a hostile run goes. */
export interface HostileRunOptions {
  count: number;
  seed: number;
  /** Requests in flight at once. */
  concurrency: number;
  send: Sender;
  targets: HostileTargets;
  /** The service's XSDs, to check that every refusal is a valid ErrorResponse. */
  schemas: SchemaRegistry;
  log?: (line: string) => void;
}

/** A request whose answer was not a proper refusal. */
export interface HostileFailure { label: string; method: string; path: string; status: number | null; problem: string }

/** The outcome of a hostile run. */
export interface HostileReport {
  seed: number;
  sent: number;
  /** Answers by HTTP status and ErrorResponse Code, e.g. "400 MALFORMED_XML". */
  byStatus: Record<string, number>;
  /** Answers by category (the label up to its first colon) and status. */
  byCategory: Record<string, Record<string, number>>;
  failures: HostileFailure[];
  /**
   * Requests with a body over the limit whose connection was reset before the 413 could be read: the server
   * closes right after answering while the client is still sending (see docs/reliability.md, Known problems).
   */
  resets: HostileFailure[];
  ms: number;
}

/** Why an answer is not a proper refusal, or null when it is: 4xx and an XML ErrorResponse (HTML for the landing page), or the sign-in page for a page asked for signed out. */
export function judgeAnswer(request: HostileRequest, answer: HostileAnswer, schemas: SchemaRegistry): string | null {
  if (answer.status >= 500) return `server error ${answer.status}: ${answer.body.slice(0, 300)}`;
  if (request.expect === 'sign-in') return answer.status === 303 && answer.location?.startsWith('/MvcProjects/SignIn?next=') ? null : `not sent to sign in: ${answer.status} ${answer.location ?? ''}`;
  if (answer.status < 400) return `accepted with ${answer.status}: ${answer.body.slice(0, 300)}`;
  if (request.expect === 'html-error') return /^text\/html\b/.test(answer.contentType) ? null : `a landing page error as "${answer.contentType}"`;
  if (!/^application\/xml\b/.test(answer.contentType)) return `an error as "${answer.contentType}": ${answer.body.slice(0, 200)}`;
  const errors = schemas.validate('ErrorResponse', answer.body);
  if (errors.length > 0) return `not a valid ErrorResponse (${errors[0]}): ${answer.body.slice(0, 200)}`;
  const status = xmlAttr(answer.body, 'ErrorResponse', 'Status');
  if (status !== String(answer.status)) return `ErrorResponse Status="${status}" on an HTTP ${answer.status} answer`;
  return null;
}

/**
 * Generates `count` hostile requests with fast-check from `seed` (the same seed gives the same requests),
 * sends them `concurrency` at a time and judges every answer. State and readiness are checked by the caller.
 */
export async function runHostile(options: HostileRunOptions): Promise<HostileReport> {
  const started = Date.now();
  const requests = fc.sample(hostileRequests(options.targets), { numRuns: options.count, seed: options.seed });
  const report: HostileReport = { seed: options.seed, sent: 0, byStatus: {}, byCategory: {}, failures: [], resets: [], ms: 0 };
  let next = 0;
  let lastLog = Date.now();
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++]!;
      let problem: string | null;
      let key: string;
      let status: number | null = null;
      try {
        const answer = await options.send(request);
        status = answer.status;
        problem = judgeAnswer(request, answer, options.schemas);
        key = `${answer.status} ${xmlAttr(answer.body, 'ErrorResponse', 'Code') ?? (request.expect === 'html-error' ? 'HTML' : '-')}`;
      } catch (error) {
        problem = `no answer: ${(error as Error).message}`;
        const reset = request.oversize && /EPIPE|ECONNRESET/.test(String((error as NodeJS.ErrnoException).code ?? (error as Error).message));
        key = reset ? 'reset instead of 413' : 'no answer';
      }
      report.sent++;
      report.byStatus[key] = (report.byStatus[key] ?? 0) + 1;
      const category = request.label.split(':')[0]!;
      const cat = (report.byCategory[category] ??= {});
      cat[key] = (cat[key] ?? 0) + 1;
      if (problem) (key === 'reset instead of 413' ? report.resets : report.failures).push({ label: request.label, method: request.method, path: request.path.slice(0, 200), status, problem });
      if (options.log && Date.now() - lastLog > 10_000) {
        lastLog = Date.now();
        options.log(`${report.sent}/${requests.length} sent, ${report.failures.length} not properly refused`);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, () => worker()));
  report.ms = Date.now() - started;
  return report;
}

/**
 * Sets up what hostile requests aim at, through the interface as the demo applicant: one submitted project
 * (uploading the required attachments if the server asks for them) and one project with a draft.
 */
export async function prepareTargets(send: Sender, limits: { bodyLimit: number; maxNumbers: number }): Promise<HostileTargets> {
  const applicant = demoIdentity('applicant');
  const call = async (method: string, path: string, body?: Buffer | string, type = 'application/xml', extra: Record<string, string> = {}) => {
    const answer = await send({
      method, path: `${API}/${path}`, headers: { ...authHeaders(applicant), ...(body !== undefined ? { 'content-type': type } : {}), ...extra },
      ...(body !== undefined ? { body: () => Buffer.from(body) } : {}),
    });
    if (answer.status >= 300 && !(answer.status === 422 && answer.body.includes('ATTACHMENT_REQUIRED'))) {
      throw new Error(`${method} ${path} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    }
    return answer;
  };
  const created = await call('POST', `${PROGRAM_PATH}/NewProject`);
  const submittedProjectId = xmlAttr(created.body, 'Project', 'ProjectId')!;
  const programId = xmlAttr(created.body, 'Project', 'ProgramId')!;
  const formId = /<Form FormId="([^"]+)" CustomId="Application"/.exec(created.body)?.[1] ?? APPLICATION.form;
  const project = `${PROGRAM_PATH}/Projects/${submittedProjectId}/Forms/${APPLICATION.form}`;
  for (const values of applicationDrafts('HOSTILE', 20)) await call('POST', `${project}/Draft/Data`, dataRequestXml(values));
  const submitted = await call('POST', `${project}/Draft/Submit`);
  if (submitted.status === 422) {
    const missing = missingAttachments(submitted.body);
    for (const attachment of missing.length > 0 ? missing : ['SitePlan']) {
      await call('POST', `${project}/Attachments/${attachment}`, TINY_PDF, 'application/pdf', { 'content-disposition': `attachment; filename="${attachment}.pdf"` });
    }
    await call('POST', `${project}/Draft/Submit`);
  }
  const draft = await call('POST', `${PROGRAM_PATH}/NewProject`);
  const draftProjectId = xmlAttr(draft.body, 'Project', 'ProjectId')!;
  await call('POST', `${PROGRAM_PATH}/Projects/${draftProjectId}/Forms/${APPLICATION.form}/Draft/Data`, dataRequestXml(applicationDrafts('HOSTILE2', 7)[0]));
  const who = (role: 'admin' | 'applicant' | 'reviewer'): Identity => demoIdentity(role);
  return { programId, submittedProjectId, draftProjectId, formId, admin: who('admin'), applicant, reviewer: who('reviewer'), ...limits };
}

/** Problems when the service no longer serves: /readyz must say ready, and GetPrograms must list RES-SOLAR. */
export async function stillServing(send: Sender): Promise<string[]> {
  const problems: string[] = [];
  try {
    const ready = await send({ method: 'GET', path: '/readyz', headers: {} });
    if (ready.status !== 200) problems.push(`/readyz answered ${ready.status}`);
    const programs = await send({ method: 'GET', path: `${API}/Programs?Agency=demo`, headers: authHeaders(demoIdentity('applicant')) });
    if (programs.status !== 200 || !programs.body.includes('Residential Solar Interconnection')) problems.push(`GetPrograms answered ${programs.status}: ${programs.body.slice(0, 200)}`);
  } catch (error) {
    problems.push(`no answer after the run: ${(error as Error).message}`);
  }
  return problems;
}
