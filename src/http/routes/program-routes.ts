import type { FastifyInstance } from 'fastify';
import { ProgramsResponse, programsValue } from '../../wire/documents/projects.ts';
import type { RawQuery } from '../query-params.ts';
import { requiredParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';

/** GetPrograms: GET /Programs?Agency=… */
export function programRoutes(app: FastifyInstance, { services, codec, clock }: RouteDeps): void {
  app.get('/Programs', {
    config: {
      operation: {
        operationId: 'GetPrograms', tags: ['Programs'], response: ProgramsResponse,
        summary: "GetPrograms: the programs of the caller's agency in which the caller has a role.",
        query: [{ name: 'Agency', type: 'string', description: "The agency's id or custom id (required)." }],
      },
    },
  }, async (request, reply) => {
    const requestTimestamp = clock.now();
    const agency = requiredParam(request.query as RawQuery, 'Agency');
    const programs = await services.projects.getPrograms(callerOf(request), agency);
    return codec.send(request, reply, ProgramsResponse, programsValue(programs, requestTimestamp));
  });
}
