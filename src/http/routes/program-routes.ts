import type { FastifyInstance } from 'fastify';
import type { RawQuery } from '../query-params.ts';
import { requiredParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';
import { sendXml } from '../xml-reply.ts';

/** GetPrograms: GET /Programs?Agency=… */
export function programRoutes(app: FastifyInstance, { services, codec, clock }: RouteDeps): void {
  app.get('/Programs', async (request, reply) => {
    const requestTimestamp = clock.now();
    const agency = requiredParam(request.query as RawQuery, 'Agency');
    const programs = await services.projects.getPrograms(callerOf(request), agency);
    return sendXml(reply, codec.programs(programs, requestTimestamp));
  });
}
