import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../../domain/api-error.ts';
import { drainRequest } from '../../http/drain-request.ts';
import { requestComplete } from '../../http/request-complete.ts';
import { csrfPasses } from '../application-routes.ts';
import { formField } from '../form-field.ts';
import { renderPage } from '../render-page.ts';
import type { WebAppDeps } from '../web-app-deps.ts';
import { type ConsoleRequest, consoleRequest, sendPage } from './console-request.ts';
import { IMPORT_PATH, ImportPage, type ImportPageProps } from './import-pages.tsx';

/** The form's fields as posted: the program, the mapping, which button, and the file. */
interface ImportPost { program: string; mapping: string; mode: string; file: Buffer | null; tooLarge: boolean }

/**
 * The console's Import projects area (docs/administration.md, "Import projects"): the form, and its post, which
 * checks (dry run) or imports the file and shows the report. Every rule is services.imports'.
 */
export function importRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { imports } = deps.services;

  const page = async (c: ConsoleRequest, reply: FastifyReply, extra: Partial<ImportPageProps>, status = 200) => {
    const programs = await imports.programs(c.caller);
    const props: ImportPageProps = {
      user: c.user, csrfToken: c.csrfToken, agencyAdmin: c.scope.agencyAdmin, programs, bounds: imports.bounds, programId: null, mapping: '', ...extra,
    };
    return sendPage(reply, renderPage(ImportPage(props)), status);
  };

  web.get(IMPORT_PATH, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    return page(c, reply, { programId: formField(request.query, 'program') || null });
  });

  web.post(IMPORT_PATH, {
    // The token comes first in the multipart body, which is streamed: it is checked in the handler, before the file is read.
    preHandler: (request, reply, done) => (request.isMultipart() ? done() : web.csrfProtection(request, reply, done)),
    onResponse: async (request) => drainRequest(request.raw),
  }, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    if (!request.isMultipart()) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Upload the CSV file with the form (multipart/form-data).');
    const parts = request.parts({ limits: { fileSize: imports.bounds.maxBytes, files: 1, fields: 4, parts: 5, fieldSize: 64 * 1024 } });
    const first = await parts.next();
    const token = !first.done && first.value.type === 'field' && first.value.fieldname === '_csrf' ? String(first.value.value) : '';
    if (!first.done && first.value.type === 'file') first.value.file.resume();
    if (!csrfPasses(web, request, reply, token)) return reply;
    const post: ImportPost = { program: '', mapping: '', mode: '', file: null, tooLarge: false };
    try {
      for await (const part of parts) {
        if (part.type === 'file') {
          if (part.fieldname === 'file' && part.filename !== '' && post.file === null) post.file = await part.toBuffer();
          else part.file.resume();
        } else if (part.fieldname === 'program' || part.fieldname === 'mapping' || part.fieldname === 'mode') post[part.fieldname] = String(part.value);
      }
      await requestComplete(request.raw);
    } catch (error) {
      // Past the limit, the multipart reader stops with its own error; the rest of the body is read off after the answer.
      if ((error as { code?: unknown }).code !== 'FST_REQ_FILE_TOO_LARGE') throw error;
      post.tooLarge = true;
    }
    const shown = { programId: post.program || null, mapping: post.mapping };
    try {
      if (post.tooLarge) throw new ApiError('PAYLOAD_TOO_LARGE', `The file is larger than ${Math.floor(imports.bounds.maxBytes / 1024 / 1024)} MB; split it, or import it with apas import projects.`);
      if (post.file === null) throw new ApiError('INVALID_REQUEST', 'Choose the CSV file to import.');
      if (post.mode !== 'dry-run' && post.mode !== 'import') throw new ApiError('INVALID_REQUEST', 'Choose Check the file or Import.');
      const report = await imports.importProjects(c.caller, { programRef: post.program, csv: post.file, mapping: post.mapping, dryRun: post.mode === 'dry-run' });
      if (report.problems.length > 0) {
        const refusal = { message: 'No row was tried: the columns below cannot be imported. Correct the header or the mapping and try again.', problems: report.problems };
        return page(c, reply, { ...shown, refusal }, 400);
      }
      return page(c, reply, { ...shown, report });
    } catch (error) {
      if (!(error instanceof ApiError) || !['INVALID_REQUEST', 'PAYLOAD_TOO_LARGE'].includes(error.code)) throw error;
      return page(c, reply, { ...shown, refusal: { message: error.message, problems: [] } }, error.code === 'PAYLOAD_TOO_LARGE' ? 413 : 400);
    }
  });
}
