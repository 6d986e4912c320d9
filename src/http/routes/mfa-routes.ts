import type { FastifyInstance } from 'fastify';
import { CreateMfaSessionTokenRequest, CreateMfaSessionTokenResponse, sessionTokenValue } from '../../wire/documents/mfa-session-token.ts';
import type { UnsupportedBody } from '../fastify-types.ts';
import { idParam } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';

/** CreateMfaSessionToken (POST, optional body) and DeleteMfaSessionToken (DELETE, no body). */
export function mfaRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  app.post('/Accounts/MfaSessionTokens', {
    config: {
      operation: {
        operationId: 'CreateMfaSessionToken', tags: ['MFA'], request: CreateMfaSessionTokenRequest, requestOptional: true, response: CreateMfaSessionTokenResponse,
        summary: 'CreateMfaSessionToken: a session token to send in X-Mfa-Session-Token instead of a TOTP code.',
      },
    },
  }, async (request, reply) => {
    const body = request.body as Buffer | UnsupportedBody | undefined;
    // The body is optional: none at all means the default lifetime; anything sent is read (and refused) as usual.
    const empty = body === undefined || body === null || (Buffer.isBuffer(body) && body.length === 0);
    const minutes = empty ? null : (codec.read(request, CreateMfaSessionTokenRequest).ExpiresAfterMinutes ?? null);
    return codec.send(request, reply, CreateMfaSessionTokenResponse, sessionTokenValue(await services.mfa.createSessionToken(callerOf(request), minutes)));
  });
  app.delete('/Accounts/MfaSessionTokens/:TokenId', {
    config: {
      operation: {
        operationId: 'DeleteMfaSessionToken', tags: ['MFA'], status: 204,
        summary: 'DeleteMfaSessionToken: deletes one of the caller\'s own MFA session tokens.',
      },
    },
  }, async (request, reply) => {
    const tokenId = idParam((request.params as { TokenId?: string }).TokenId, 'TokenId');
    await services.mfa.deleteSessionToken(callerOf(request), tokenId);
    return reply.code(204).send();
  });
}
