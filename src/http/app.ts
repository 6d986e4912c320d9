import fs from 'node:fs';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Sleeper } from '../domain/accounts/sign-in-guard.ts';
import { type Clock, systemClock } from '../model/clock.ts';
import { type IdGenerator, RandomIdGenerator } from '../model/ids.ts';
import { createBlobStore } from '../store/create-blob-store.ts';
import type { BlobStore } from '../store/blob-store.ts';
import type { Store } from '../store/store.ts';
import { webApp } from '../web/web-app.ts';
import { fastifyTrustProxy } from './trust-proxy.ts';
import { createApiCodec } from './api-codec.ts';
import { authenticateHook } from './authenticate-hook.ts';
import { clientErrorHandler, installErrorHandlers, sendError } from './error-handler.ts';
import type { UnsupportedBody } from './fastify-types.ts';
import { installIdempotency } from './idempotency-hooks.ts';
import { createMetrics } from './metrics.ts';
import { workBacklog } from '../domain/events/work-backlog.ts';
import { OAUTH_BASE } from './oauth-reply.ts';
import { openApiDocument } from './openapi.ts';
import { OperationTable } from './operation-table.ts';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.ts';
import { RouteTable } from './route-table.ts';
import { attachmentRoutes, attachmentUploadRoutes } from './routes/attachment-routes.ts';
import { catalogRoutes } from './routes/catalog-routes.ts';
import { exportRoutes } from './routes/export-routes.ts';
import { formDataRoutes } from './routes/form-data-routes.ts';
import { healthRoutes } from './routes/health-routes.ts';
import { eventRoutes } from './routes/event-routes.ts';
import { inquiryRoutes } from './routes/inquiry-routes.ts';
import { mfaRoutes } from './routes/mfa-routes.ts';
import { oauthMetadataRoutes } from './routes/oauth-metadata-routes.ts';
import { oauthRoutes } from './routes/oauth-routes.ts';
import { openApiRoutes } from './routes/openapi-routes.ts';
import { programRoutes } from './routes/program-routes.ts';
import { projectRoutes } from './routes/project-routes.ts';
import { schemaRoutes } from './routes/schema-routes.ts';
import { submitRoutes } from './routes/submit-routes.ts';
import { webhookRoutes } from './routes/webhook-routes.ts';
import { workflowRoutes } from './routes/workflow-routes.ts';
import { automationRoutes } from './routes/automation-routes.ts';
import { deadlineRoutes } from './routes/deadline-routes.ts';
import { relationRoutes } from './routes/relation-routes.ts';
import { documentRoutes } from './routes/document-routes.ts';
import { envelopeRoutes } from './routes/envelope-routes.ts';
import { createServices } from './services.ts';

/** What an app instance is built from; tests swap the clock, ids and logger. */
export interface AppDeps {
  config: Config;
  store: Store;
  clock?: Clock;
  ids?: IdGenerator;
  /** A pino logger, or false for none (tests). */
  logger?: Logger | false;
  /** How failed sign-ins are slowed down; tests pass one that does not wait. */
  sleep?: Sleeper;
  /** Where uploads go; the configured blob store (config.blobStore) when left out. */
  blobs?: BlobStore;
  /** Called after each commit here that wrote events, so background work (webhooks, mail) starts on them at once. */
  onChange?: () => void;
}

/** How often Node looks for requests past APAS_REQUEST_TIMEOUT_MS: a slow client is cut off at most this much later. */
export const CONNECTION_CHECK_MS = 1000;

/** The base path of the V2 interface. */
export const API_BASE = '/services/v2';

// application/xml, text/xml and the application/*+xml family, with or without parameters (charset=utf-8):
// Fastify tests a RegExp parser against the whole normalised header, parameters included.
const XML_TYPES = /^(application\/([a-z0-9.-]+\+)?xml|text\/xml)(;.*)?$/;
// application/json and the application/*+json family, with or without parameters.
const JSON_TYPES = /^application\/([a-z0-9.-]+\+)?json(;.*)?$/;

function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

function programSchemaText(): string {
  return fs.readFileSync(new URL('../../schemas/program.schema.json', import.meta.url), 'utf8');
}

/** Builds the HTTP application: API routes under /services/v2, schemas, landing pages, health and metrics. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, store } = deps;
  const clock = deps.clock ?? systemClock;
  const ids = deps.ids ?? new RandomIdGenerator();
  const codec = await createApiCodec(config.xmlNamespace);
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger as FastifyBaseLogger } : { logger: false }),
    bodyLimit: config.bodyLimitBytes,
    // Bounds receiving a whole request, upload bodies included. There is deliberately no handler timeout: it would
    // answer 503 while the handler runs on and commits; write transactions bound themselves instead (kysely-store.ts).
    requestTimeout: config.requestTimeoutMs,
    // Node looks for requests past their time only every connectionsCheckingInterval (30 s by default), and cuts
    // unfinished headers by headersTimeout (60 s): a client sending a byte a second lasted 70-88 s, not 30 s.
    http: {
      requestTimeout: config.requestTimeoutMs, headersTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(CONNECTION_CHECK_MS, config.requestTimeoutMs),
    },
    // What Node cannot read (too slow, headers too large, not HTTP) is answered in XML too, not Fastify's JSON.
    clientErrorHandler: clientErrorHandler(codec, () => ids.next()),
    return503OnClosing: true,
    // The client's X-Request-Id when it is safe to repeat, else a new id (request-id.ts); Fastify's own header
    // handling would take any value unchecked.
    genReqId: (req) => requestIdOf(req.headers, () => ids.next()),
    requestIdHeader: false,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Failures of the router itself (a malformed percent-encoding, an over-long path parameter) bypass the
    // error handler; without this they would be answered with Fastify's own JSON body.
    frameworkErrors: (error, request, reply) => sendError(codec, request, reply, error),
  });
  const blobs = deps.blobs ?? createBlobStore(config, store);
  const services = createServices(config, store, clock, ids, deps.sleep, blobs);
  app.addHook('onClose', () => services.rateLimiter.close());
  app.addHook('onClose', () => services.selfService.close());
  if (deps.onChange) {
    const stop = store.onEventsCommitted(deps.onChange);
    app.addHook('onClose', async () => {
      stop();
    });
  }
  const routes = new RouteTable();
  routes.attach(app);
  const operations = new OperationTable();
  operations.attach(app);
  app.decorate('operations', operations);
  installErrorHandlers(app, codec, routes);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(XML_TYPES, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  // JSON bodies are kept as bytes too: the route's reader parses them strictly (duplicate and prototype keys, depth).
  app.addContentTypeParser(JSON_TYPES, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  // Other media types are read (within the size limit) but kept aside, so a route can name the problem.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, _body, done) =>
    done(null, { unsupportedContentType: String(request.headers['content-type'] ?? '') } satisfies UnsupportedBody));
  // Synchronous (done, not async), like the other hooks every request runs: an async hook costs each request a promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    // Every answer names its request, successes too, so that a client can quote it and an operator find its log lines.
    reply.header(REQUEST_ID_HEADER, request.id);
    done(null, payload);
  });
  const registry = createMetrics(app, () => workBacklog(store, clock));
  // With a metrics port of its own, /metrics is served there only: the API's port is the one a proxy exposes.
  healthRoutes(app, store, blobs, config.metrics === null ? registry : null);
  app.decorate('metricsRegistry', registry);
  schemaRoutes(app, codec, programSchemaText());
  oauthMetadataRoutes(app, config.publicUrl, OAUTH_BASE);
  openApiRoutes(app, () => openApiDocument(operations.list(), { version: packageVersion(), serverUrl: config.publicUrl, oauthBase: OAUTH_BASE }));
  await webApp(app, { services, publicUrl: config.publicUrl, timeZone: config.web.timeZone, codec });
  await app.register(async (api) => {
    api.addHook('onRequest', authenticateHook(services));
    installIdempotency(api, services.idempotency, { maxUploadBytes: config.maxUploadBytes });
    const routeDeps = { services, codec, clock, apiUrl: `${config.publicUrl}${API_BASE}` };
    programRoutes(api, routeDeps);
    projectRoutes(api, routeDeps);
    formDataRoutes(api, routeDeps);
    submitRoutes(api, routeDeps);
    catalogRoutes(api, routeDeps);
    workflowRoutes(api, routeDeps);
    deadlineRoutes(api, routeDeps);
    relationRoutes(api, routeDeps);
    documentRoutes(api, routeDeps);
    envelopeRoutes(api, routeDeps);
    automationRoutes(api, routeDeps);
    exportRoutes(api, routeDeps);
    mfaRoutes(api, routeDeps);
    attachmentRoutes(api, routeDeps);
    // Inside `api`, so its authentication hook runs before any byte of an upload is read.
    api.register(async (uploads) => attachmentUploadRoutes(uploads, routeDeps));
    inquiryRoutes(api, routeDeps);
    eventRoutes(api, routeDeps);
    webhookRoutes(api, routeDeps);
  }, { prefix: API_BASE });
  // The OAuth endpoints, outside `api`: the client authenticates itself there, with a form body (RFC 6749 §4.4).
  await app.register(async (oauth) => oauthRoutes(oauth, services), { prefix: OAUTH_BASE });
  return app;
}
