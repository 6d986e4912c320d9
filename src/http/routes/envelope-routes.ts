import type { FastifyInstance, FastifyRequest } from 'fastify';
import { envelopeAnswerValue, EnvelopeResponse, projectEnvelopesValue, ProjectEnvelopesResponse } from '../../wire/documents/envelopes.ts';
import type { EnvelopeRef, Visit } from '../../domain/signing/signing-service.ts';
import { idParam, optionalParam, type RawQuery } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';
import { projectTarget } from './workflow-routes.ts';

const TAGS = ['Signing'];

function envelopeRef(request: FastifyRequest): EnvelopeRef {
  const t = projectTarget(request);
  return { programRef: t.programId, projectId: t.projectId, envelopeId: idParam((request.params as { EnvelopeId?: string }).EnvelopeId, 'EnvelopeId') };
}

/** Where a request came from, for an envelope's audit trail. */
export function visitOf(request: FastifyRequest): Visit {
  const agent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof agent === 'string' ? agent : null, requestId: request.id };
}

/** GetProjectEnvelopes, GetEnvelope, VoidEnvelope and ResendEnvelope. */
export function envelopeRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  const base = '/Programs/:ProgramId/Projects/:ProjectId/Envelopes';
  app.get(base, {
    config: {
      operation: {
        operationId: 'GetProjectEnvelopes', tags: TAGS, response: ProjectEnvelopesResponse,
        summary: 'GetProjectEnvelopes: the project\'s e-signature envelopes with their signers, oldest first (anyone who may read the project).',
      },
    },
  }, async (request, reply) => {
    const t = projectTarget(request);
    const views = await services.signing.listForProject(callerOf(request), t.programId, t.projectId);
    return codec.send(request, reply, ProjectEnvelopesResponse, projectEnvelopesValue(views[0]?.project.id ?? t.projectId, views));
  });
  app.get(`${base}/:EnvelopeId`, {
    config: {
      operation: {
        operationId: 'GetEnvelope', tags: TAGS, response: EnvelopeResponse,
        summary: 'GetEnvelope: an e-signature envelope with its signers and audit trail (anyone who may read the project; IP addresses and user agents for staff only).',
      },
    },
  }, async (request, reply) => codec.send(request, reply, EnvelopeResponse, envelopeAnswerValue(await services.signing.get(callerOf(request), envelopeRef(request)))));
  app.post(`${base}/:EnvelopeId/Void`, {
    config: {
      operation: {
        operationId: 'VoidEnvelope', tags: TAGS, response: EnvelopeResponse,
        summary: 'VoidEnvelope: nobody may sign the envelope any more; its links stop working (privilege generateDocuments; query Reason optional).',
      },
    },
  }, async (request, reply) => {
    const view = await services.signing.void(callerOf(request), envelopeRef(request), optionalParam(request.query as RawQuery, 'Reason') ?? '', visitOf(request));
    return codec.send(request, reply, EnvelopeResponse, envelopeAnswerValue(view));
  });
  app.post(`${base}/:EnvelopeId/Signers/:SignerId/Resend`, {
    config: {
      operation: {
        operationId: 'ResendEnvelope', tags: TAGS, response: EnvelopeResponse,
        summary: 'ResendEnvelope: mails the signer whose turn it is a new link; the earlier links stop working (privilege generateDocuments).',
      },
    },
  }, async (request, reply) => {
    const signerId = idParam((request.params as { SignerId?: string }).SignerId, 'SignerId');
    const { view, link } = await services.signing.resend(callerOf(request), envelopeRef(request), signerId, visitOf(request));
    return codec.send(request, reply, EnvelopeResponse, envelopeAnswerValue(view, link));
  });
}
