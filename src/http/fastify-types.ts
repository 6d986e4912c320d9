import type { Caller } from '../domain/caller.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The routes' OpenAPI entries, and the routes without one (src/http/operation-table.ts). */
    operations: import('./operation-table.ts').OperationTable;
    /** The app's Prometheus registry, which the separate metrics listener serves (src/http/metrics-app.ts). */
    metricsRegistry: import('prom-client').Registry;
  }
  interface FastifyContextConfig {
    /** The route's entry in the OpenAPI description (src/http/operation-table.ts). */
    operation?: import('./operation-table.ts').OperationSpec;
  }
  interface FastifyRequest {
    /** Set by the authentication hook on every /services/v2 request that got through it. */
    caller?: Caller;
  }
}

/** A request body the XML content-type parser did not accept, kept so a route can say why. */
export interface UnsupportedBody { unsupportedContentType: string }
