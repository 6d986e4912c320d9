import type { FastifyReply, FastifyRequest } from 'fastify';
import { admitKey } from '../domain/accounts/rate-limiter.ts';
import { ifMatchCondition } from './conditional.ts';
import type { Services } from './services.ts';
import { testProgramMarker } from './test-program-marker.ts';
import './fastify-types.ts';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Authenticates every API request (Basic credentials or an OAuth access token, plus X-ApiKey) and counts it against
 * its key's throughput limit. A write's If-Match goes with the caller to the change step, which checks it on the
 * locked project (reads ignore If-Match).
 */
export function authenticateHook(services: Services) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const caller = await services.auth.authenticate({
      authorization: header(request, 'authorization'), apiKey: header(request, 'x-apikey'),
      totp: header(request, 'x-mfa-totp'), sessionToken: header(request, 'x-mfa-session-token'), clientAddress: request.ip,
    });
    reply.headers(await admitKey(services.rateLimiter, caller.apiKeyId));
    const ifMatch = request.method === 'GET' || request.method === 'HEAD' ? undefined : ifMatchCondition(request);
    const onProgram = testProgramMarker(request, reply);
    request.caller = { ...caller, requestId: request.id, ...(ifMatch ? { ifMatch } : {}), ...(onProgram ? { onProgram } : {}) };
  };
}
