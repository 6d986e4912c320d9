import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DocumentRequestResponse, documentRequestValue, ProjectDocumentsResponse, projectDocumentsValue } from '../../wire/documents/generated-documents.ts';
import { sendProjectAnswer } from '../conditional.ts';
import { idParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';
import { projectTarget } from './workflow-routes.ts';

function documentRef(request: FastifyRequest): string {
  return idParam((request.params as { DocumentId?: string }).DocumentId, 'DocumentId');
}

/** GetProjectDocuments and GenerateDocument (src/domain/documents). */
export function documentRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  const base = '/Programs/:ProgramId/Projects/:ProjectId/Documents';
  app.get(base, {
    config: {
      operation: {
        operationId: 'GetProjectDocuments', tags: ['Documents'], etag: true, response: ProjectDocumentsResponse,
        summary: 'GetProjectDocuments: the program\'s documents on the project, each with its newest generation request (applicants: those shown to them).',
      },
    },
  }, async (request, reply) => {
    const t = projectTarget(request);
    const view = await services.generation.list(callerOf(request), t.programId, t.projectId);
    return sendProjectAnswer(codec, request, reply, view, ProjectDocumentsResponse, projectDocumentsValue);
  });
  app.post(`${base}/:DocumentId/Generate`, {
    config: {
      idempotent: true,
      operation: {
        operationId: 'GenerateDocument', tags: ['Documents'], etag: true, response: DocumentRequestResponse,
        summary: 'GenerateDocument: asks for the document to be generated from its template; answers with the request, queued (privilege generateDocuments).',
      },
    },
  }, async (request, reply) => {
    const t = projectTarget(request);
    const view = await services.generation.generate(callerOf(request), t.programId, t.projectId, documentRef(request));
    return sendProjectAnswer(codec, request, reply, view, DocumentRequestResponse, documentRequestValue);
  });
}
