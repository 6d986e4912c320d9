import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../../domain/api-error.ts';
import { formatProblems } from '../../domain/lists/list-load.ts';
import { MAX_LIST_FILE_BYTES } from '../../domain/lists/list-console-service.ts';
import { drainRequest } from '../../http/drain-request.ts';
import { requestComplete } from '../../http/request-complete.ts';
import { csrfPasses } from '../application-routes.ts';
import type { WebAppDeps } from '../web-app-deps.ts';
import { type ConsoleRequest, consoleRequest } from './console-request.ts';
import { PROGRAMS_PATH, programsPaths } from './programs-paths.ts';
import type { PageProblem } from './programs-pages.tsx';

/** What a program page shows beyond the program: a notice, a refused program file, a refused list file. */
export interface ProgramPageExtra { notice?: string | null; problem?: string; status?: number; listProblem?: PageProblem | null }

type ProgramPageOf = (c: ConsoleRequest, reply: FastifyReply, programId: string, extra?: ProgramPageExtra) => Promise<FastifyReply>;

/** The notice of a program page after a list's rows were loaded (`?loaded=<list>&rows=<n>`), or null. */
export function listNotice(query: unknown): string | null {
  const q = (query ?? {}) as Record<string, unknown>;
  if (typeof q.loaded !== 'string' || typeof q.rows !== 'string' || !/^\d+$/.test(q.rows)) return null;
  return `List ${q.loaded.slice(0, 64)} now holds the ${q.rows} rows of the file.`;
}

/**
 * POST a CSV file for a list of `rows: csv` (docs/administration.md, "Programs"): "Check the file" lists its problems
 * by line on the program's page; "Load the rows" replaces the list's rows and comes back to the page with a notice,
 * or shows the problems (400) having loaded nothing.
 */
export function listUploadRoute(web: FastifyInstance, deps: WebAppDeps, programPage: ProgramPageOf): void {
  web.post(`${PROGRAMS_PATH}/:programId/Lists/:listId`, {
    preHandler: (request, reply, done) => (request.isMultipart() ? done() : web.csrfProtection(request, reply, done)),
    onResponse: async (request) => drainRequest(request.raw),
  }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const { programId, listId } = request.params as { programId: string; listId: string };
    if (!request.isMultipart()) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Upload the CSV file with the form (multipart/form-data).');
    const parts = request.parts({ limits: { fileSize: MAX_LIST_FILE_BYTES, files: 1, fields: 4, parts: 5 } });
    const first = await parts.next();
    const token = !first.done && first.value.type === 'field' && first.value.fieldname === '_csrf' ? String(first.value.value) : '';
    if (!first.done && first.value.type === 'file') first.value.file.resume();
    if (!csrfPasses(web, request, reply, token)) return reply;
    let file: { fileName: string; bytes: Buffer } | null = null;
    let check = false;
    let tooLarge = false;
    try {
      for await (const part of parts) {
        if (part.type === 'field') {
          if (part.fieldname === 'check') check = true;
          continue;
        }
        if (part.fieldname !== 'file' || part.filename === '' || file !== null) {
          part.file.resume();
          continue;
        }
        file = { fileName: part.filename, bytes: await part.toBuffer() };
      }
      await requestComplete(request.raw);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'FST_REQ_FILE_TOO_LARGE') throw error;
      tooLarge = true;
    }
    const refused = (headline: string, lines: string[], status: number) => programPage(c, reply, programId, { listProblem: { headline, lines }, status });
    if (tooLarge) return refused(`A list's CSV file may be at most ${MAX_LIST_FILE_BYTES / 1024 / 1024} MB.`, [], 413);
    if (file === null) return refused('Choose a CSV file to upload.', [], 400);
    try {
      const report = await deps.services.listAdmin.load(c.caller, programId, listId, file, check);
      if (report.problems.length > 0) {
        const [headline = '', ...lines] = formatProblems(report).split('\n');
        return refused(headline, lines.map((l) => l.trim()), check ? 200 : 400);
      }
      if (check) {
        const notice = `The file is fine: list ${report.listName} would hold ${report.rows} rows (it holds ${report.rowsBefore}). Nothing was loaded.`;
        return programPage(c, reply, programId, { notice });
      }
      return reply.redirect(`${programsPaths.program(programId)}?loaded=${encodeURIComponent(report.listName)}&rows=${report.rows}`, 303);
    } catch (error) {
      if (!(error instanceof ApiError) || !['INVALID_REQUEST', 'PAYLOAD_TOO_LARGE'].includes(error.code)) throw error;
      const [headline = '', ...lines] = error.message.split('\n');
      return refused(headline, lines.map((l) => l.trim()), error.code === 'PAYLOAD_TOO_LARGE' ? 413 : 400);
    }
  });
}
