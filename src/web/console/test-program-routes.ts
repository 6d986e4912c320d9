import { formField } from '../form-field.ts';
import { noticeOf } from './console-form.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/api-error.ts';
import { renderPage } from '../render-page.ts';
import type { WebAppDeps } from '../web-app-deps.ts';
import { type ConsoleRequest, consoleRequest, sendPage } from './console-request.ts';
import { TEST_PROGRAMS_PATH, TestProgramPage, TestProgramsPage, testProgramPath } from './test-program-pages.tsx';

// What a page says after a change; the address names one of these, so a crafted link cannot put words on the page.
const NOTICES = {
  created: 'The test copy was created.',
  updated: "The test copy now has the live program's definition.",
  unchanged: "The test copy already had the live program's definition: nothing changed.",
  reset: 'The test copy was reset: it has no projects and its numbering starts at 1 again.',
} as const;

// Refusals a person can read and act on, shown on the page they came from with nothing changed; FORBIDDEN and the
// rest go to the error pages.
const PAGE_REFUSALS = new Set(['CONFLICT', 'INVALID_REQUEST']);

/** The console's Test programs area: the list with Create, one test copy's page with Update from live, Reset and its outbox. */
export function testProgramRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const service = deps.services.testPrograms;
  const frame = (c: ConsoleRequest) => ({ user: c.user, csrfToken: c.csrfToken, agencyAdmin: c.scope.agencyAdmin });
  const listPage = async (reply: FastifyReply, c: ConsoleRequest, status: number, extra: { notice?: string | null; refusal?: string }) =>
    sendPage(reply, renderPage(TestProgramsPage({ ...frame(c), rows: await service.list(c.caller), ...extra })), status);
  const programPage = async (reply: FastifyReply, c: ConsoleRequest, id: string, status: number, extra: { notice?: string | null; refusal?: string }) =>
    sendPage(reply, renderPage(TestProgramPage({ ...frame(c), view: await service.view(c.caller, id), timeZone: deps.timeZone, ...extra })), status);
  // Runs a change; a refusal the page can explain shows the page again with it (nothing changed).
  const change = async (request: FastifyRequest, reply: FastifyReply, run: (c: ConsoleRequest) => Promise<FastifyReply>, again: (c: ConsoleRequest, refusal: ApiError) => Promise<FastifyReply>) => {
    const c = await consoleRequest(request, reply, deps);
    try {
      return await run(c);
    } catch (error) {
      if (!(error instanceof ApiError) || !PAGE_REFUSALS.has(error.code)) throw error;
      return again(c, error);
    }
  };
  const programId = (request: FastifyRequest) => formField(request.params, 'programId');

  web.get(TEST_PROGRAMS_PATH, async (request, reply) => listPage(reply, await consoleRequest(request, reply, deps), 200, { notice: noticeOf(NOTICES, request.query) }));

  web.post(`${TEST_PROGRAMS_PATH}/Create`, { preHandler: web.csrfProtection }, (request, reply) => change(request, reply, async (c) => {
    const test = await service.create(c.caller, formField(request.body, 'ProgramId'));
    return reply.redirect(`${testProgramPath(test.id)}?notice=created`, 303);
  }, (c, e) => listPage(reply, c, e.status, { refusal: e.message })));

  web.get(`${TEST_PROGRAMS_PATH}/:programId`, async (request, reply) =>
    programPage(reply, await consoleRequest(request, reply, deps), programId(request), 200, { notice: noticeOf(NOTICES, request.query) }));

  web.post(`${TEST_PROGRAMS_PATH}/:programId/Update`, { preHandler: web.csrfProtection }, (request, reply) => change(request, reply, async (c) => {
    const report = await service.updateFromLive(c.caller, programId(request));
    return reply.redirect(`${testProgramPath(report.programId)}?notice=${report.changed ? 'updated' : 'unchanged'}`, 303);
  }, (c, e) => programPage(reply, c, programId(request), e.status, { refusal: e.message })));

  web.post(`${TEST_PROGRAMS_PATH}/:programId/Reset`, { preHandler: web.csrfProtection }, (request, reply) => change(request, reply, async (c) => {
    // The form's checkbox: a reset deletes every project, so it is never done by a stray click.
    if (formField(request.body, 'Confirm') !== 'yes') throw new ApiError('INVALID_REQUEST', 'Tick the box to confirm that every project of the test copy is deleted.');
    await service.reset(c.caller, programId(request));
    return reply.redirect(`${testProgramPath(programId(request))}?notice=reset`, 303);
  }, (c, e) => programPage(reply, c, programId(request), e.status, { refusal: e.message })));
}
