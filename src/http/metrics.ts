import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** A metrics registry for one app: request counts and durations by route and status, plus process metrics. */
export function createMetrics(app: FastifyInstance): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({ name: 'apas_http_requests_total', help: 'HTTP requests by route and status', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const duration = new Histogram({
    name: 'apas_http_request_duration_seconds', help: 'HTTP request duration by route', labelNames: ['method', 'route'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw URL, so that ids do not explode the label space.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });
  return registry;
}
