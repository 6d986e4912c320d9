import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { BlobStore } from '../../store/blob-store.ts';
import type { Store } from '../../store/store.ts';

/** How long /readyz waits for each of its checks before it answers 503: a frozen database must not hang the probe. */
export const READY_TIMEOUT_MS = 2_000;

function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Liveness (/healthz), readiness (/readyz: a database round trip and a test write to the blob store, each within
 * READY_TIMEOUT_MS) and Prometheus metrics (/metrics; left out when `registry` is null, as on the API's port when
 * APAS_METRICS_PORT gives them a listener of their own).
 */
export function healthRoutes(app: FastifyInstance, store: Store, blobs: BlobStore, registry: Registry | null): void {
  app.get('/healthz', async (_request, reply) => reply.type('text/plain; charset=utf-8').send('ok\n'));
  app.get('/readyz', async (request, reply) => {
    const [database, uploads] = await Promise.allSettled([
      store.ping(READY_TIMEOUT_MS),
      within(READY_TIMEOUT_MS, 'the blob store', blobs.checkWritable()),
    ]);
    const problems: string[] = [];
    if (database.status === 'rejected') {
      request.log.error({ err: database.reason }, 'database not reachable');
      problems.push('database not reachable');
    }
    if (uploads.status === 'rejected') {
      request.log.error({ err: uploads.reason }, 'uploads cannot be stored');
      problems.push('uploads cannot be stored');
    }
    if (problems.length === 0) return reply.type('text/plain; charset=utf-8').send('ready\n');
    return reply.code(503).type('text/plain; charset=utf-8').send(`${problems.join('; ')}\n`);
  });
  if (registry === null) return;
  app.get('/metrics', async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()));
}
