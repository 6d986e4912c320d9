import type { Caller } from '../domain/caller.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authentication hook on every /services/v2 request that got through it. */
    caller?: Caller;
  }
}

/** A request body the XML content-type parser did not accept, kept so a route can say why. */
export interface UnsupportedBody { unsupportedContentType: string }
