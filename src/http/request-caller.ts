import type { FastifyRequest } from 'fastify';
import type { Caller } from '../domain/caller.ts';
import './fastify-types.ts';

/** The authenticated caller of a request; the authentication hook guarantees one on API routes. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error('route reached without authentication');
  return request.caller;
}
