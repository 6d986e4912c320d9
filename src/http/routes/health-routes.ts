import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { Store } from '../../store/store.ts';

/** Liveness (/healthz), readiness with a database round trip (/readyz) and Prometheus metrics (/metrics). */
export function healthRoutes(app: FastifyInstance, store: Store, registry: Registry): void {
  app.get('/healthz', async (_request, reply) => reply.type('text/plain; charset=utf-8').send('ok\n'));
  app.get('/readyz', async (request, reply) => {
    try {
      await store.ping();
      return reply.type('text/plain; charset=utf-8').send('ready\n');
    } catch (err) {
      request.log.error({ err }, 'database not reachable');
      return reply.code(503).type('text/plain; charset=utf-8').send('database not reachable\n');
    }
  });
  app.get('/metrics', async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()));
}
