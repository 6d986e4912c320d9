import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { oldestAgeSeconds, type WorkBacklog } from '../domain/events/work-backlog.ts';

/** How long a scrape waits for the backlog reads before it answers without them. */
export const BACKLOG_READ_LIMIT_MS = 2_000;

/**
 * A metrics registry for one app: request counts and durations by route and status, process metrics, and (given
 * `backlog`) the mail and webhook backlogs, read from the database when scraped.
 */
export function createMetrics(app: FastifyInstance, backlog?: () => Promise<WorkBacklog>): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({ name: 'apas_http_requests_total', help: 'HTTP requests by route and status', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const duration = new Histogram({
    name: 'apas_http_request_duration_seconds', help: 'HTTP request duration by route', labelNames: ['method', 'route'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the raw URL, so that ids do not explode the label space.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    done();
  });
  if (backlog) backlogGauges(registry, backlog);
  return registry;
}

type Reading = { value: WorkBacklog | null };

/**
 * The backlog gauges. prom-client collects the gauges of one scrape concurrently, so they share one reading (a
 * promise kept while it runs); a database that does not answer within BACKLOG_READ_LIMIT_MS leaves them out of
 * that scrape (apas_backlog_read_ok says so) rather than holding /metrics up: they show NaN, never a reassuring 0.
 */
function backlogGauges(registry: Registry, backlog: () => Promise<WorkBacklog>): void {
  let running: Promise<Reading> | null = null;
  const read = (): Promise<Reading> => {
    running ??= withLimit(backlog()).finally(() => {
      running = null;
    });
    return running;
  };
  new Gauge({
    name: 'apas_backlog_read_ok', help: '1 when this scrape read the mail and webhook backlogs from the database, 0 when it could not in time', registers: [registry],
    async collect() {
      this.set((await read()).value === null ? 0 : 1);
    },
  });
  const gauge = (name: string, help: string, pick: (b: WorkBacklog) => number) => new Gauge({
    name, help, registers: [registry],
    async collect() {
      const { value } = await read();
      // NaN, not 0: an unread backlog must not look empty.
      this.set(value === null ? Number.NaN : pick(value));
    },
  });
  gauge('apas_mail_pending', 'Mails waiting to be sent (new, or failed and waiting for their retry)', (b) => b.mail.pending);
  gauge('apas_mail_failing', 'Mails waiting for a retry after a failed attempt', (b) => b.mail.failing);
  gauge('apas_mail_failed', 'Mails given up after their last attempt (apas mail retry sends them again)', (b) => b.mail.failed);
  gauge('apas_mail_oldest_pending_age_seconds', 'How long the oldest mail waiting to be sent has waited (0 when none waits)', (b) => oldestAgeSeconds(b.mail, b.at));
  gauge('apas_webhook_deliveries_pending', 'Webhook deliveries waiting to be sent (new, or failed and waiting for their retry)', (b) => b.webhooks.pending);
  gauge('apas_webhook_deliveries_failing', 'Webhook deliveries waiting for a retry after a failed attempt', (b) => b.webhooks.failing);
  gauge('apas_webhook_deliveries_failed', 'Webhook deliveries given up after their last attempt', (b) => b.webhooks.failed);
  gauge('apas_webhook_oldest_pending_age_seconds', 'How long the oldest webhook delivery waiting to be sent has waited (0 when none waits)', (b) => oldestAgeSeconds(b.webhooks, b.at));
}

async function withLimit(reading: Promise<WorkBacklog>): Promise<Reading> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Reading>((resolve) => {
    timer = setTimeout(() => resolve({ value: null }), BACKLOG_READ_LIMIT_MS);
  });
  try {
    return await Promise.race([reading.then((value) => ({ value }), () => ({ value: null })), late]);
  } finally {
    clearTimeout(timer);
  }
}
