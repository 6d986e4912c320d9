import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/api-error.ts';
import { ifMatchCondition } from './conditional.ts';
import type { Services } from './services.ts';
import './fastify-types.ts';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Authenticates every API request (Basic + X-ApiKey) and counts it against its key's throughput limit. A write's
 * If-Match goes with the caller to the change step, which checks it on the locked project (reads ignore If-Match).
 */
export function authenticateHook(services: Services) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const caller = await services.auth.authenticate({
      authorization: header(request, 'authorization'), apiKey: header(request, 'x-apikey'),
      totp: header(request, 'x-mfa-totp'), sessionToken: header(request, 'x-mfa-session-token'), clientAddress: request.ip,
    });
    const decision = await services.rateLimiter.hit(`key:${caller.apiKeyId}`);
    const headers = {
      'RateLimit-Limit': String(decision.limit),
      'RateLimit-Remaining': String(decision.remaining),
      'RateLimit-Reset': String(decision.resetSeconds),
    };
    if (!decision.allowed) {
      throw new ApiError('RATE_LIMITED', `This API key has used its ${decision.limit} requests of the current window; retry after ${decision.resetSeconds} s.`, {
        headers: { ...headers, 'Retry-After': String(decision.resetSeconds) },
      });
    }
    reply.headers(headers);
    const ifMatch = request.method === 'GET' || request.method === 'HEAD' ? undefined : ifMatchCondition(request);
    request.caller = { ...caller, requestId: request.id, ...(ifMatch ? { ifMatch } : {}) };
  };
}
