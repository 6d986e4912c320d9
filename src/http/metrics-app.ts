import Fastify, { type FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { BlobStore } from '../store/blob-store.ts';
import type { Store } from '../store/store.ts';
import { healthRoutes } from './routes/health-routes.ts';

/**
 * The listener of APAS_METRICS_PORT: /metrics, /healthz and /readyz only, without logging each scrape, so that a
 * monitoring network reaches them while the proxy exposes only the API's port.
 */
export function buildMetricsApp(store: Store, blobs: BlobStore, registry: Registry): FastifyInstance {
  const app = Fastify({ logger: false, return503OnClosing: true });
  healthRoutes(app, store, blobs, registry);
  return app;
}
