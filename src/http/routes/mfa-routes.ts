import type { FastifyInstance } from 'fastify';
import type { UnsupportedBody } from '../fastify-types.ts';
import { idParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';
import { sendXml, xmlBody } from '../xml-reply.ts';

/** CreateMfaSessionToken (POST, optional body) and DeleteMfaSessionToken (DELETE, no body). */
export function mfaRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  app.post('/Accounts/MfaSessionTokens', async (request, reply) => {
    const body = request.body as Buffer | UnsupportedBody | undefined;
    const empty = body === undefined || body === null || (Buffer.isBuffer(body) && body.length === 0);
    const { minutes } = empty ? { minutes: null } : codec.readCreateMfaSessionToken(xmlBody(request, 'CreateMfaSessionTokenRequest'));
    return sendXml(reply, codec.mfaSessionToken(await services.mfa.createSessionToken(callerOf(request), minutes)));
  });
  app.delete('/Accounts/MfaSessionTokens/:TokenId', async (request, reply) => {
    const tokenId = idParam((request.params as { TokenId?: string }).TokenId, 'TokenId');
    await services.mfa.deleteSessionToken(callerOf(request), tokenId);
    return reply.code(204).send();
  });
}
