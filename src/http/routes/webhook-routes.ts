import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/api-error.ts';
import {
  CreateWebhookSubscriptionRequest, CreateWebhookSubscriptionResponse, createdSubscriptionValue, deliveriesValue, deliveryResponseValue,
  RedeliverWebhookDeliveriesRequest, RotateWebhookSecretRequest, RotateWebhookSecretResponse, rotatedSecretValue, SetWebhookSubscriptionRequest, subscriptionChangeInput, subscriptionResponseValue, subscriptionsValue, WebhookDeliveriesResponse,
  WebhookDeliveryResponse, WebhookSubscriptionResponse, WebhookSubscriptionsResponse,
} from '../../wire/documents/webhooks.ts';
import { idParam, intParam, type RawQuery } from '../query-params.ts';
import { callerOf } from '../request-caller.ts';
import type { RouteDeps } from '../route-deps.ts';

/** The most deliveries one GetWebhookDeliveries answer holds. */
export const MAX_DELIVERIES_PAGE = 1000;

const TAGS = ['Webhooks'];

function params(request: FastifyRequest): { programId: string; subscriptionId: string } {
  const p = request.params as { ProgramId?: string; SubscriptionId?: string };
  return { programId: idParam(p.ProgramId, 'ProgramId'), subscriptionId: idParam(p.SubscriptionId, 'SubscriptionId') };
}

function programId(request: FastifyRequest): string {
  return idParam((request.params as { ProgramId?: string }).ProgramId, 'ProgramId');
}

// An xs:dateTime with its offset (or Z), as the interface writes them; a date alone or a local time is refused.
function sinceParam(raw: string): number {
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.test(raw) ? Date.parse(raw) : Number.NaN;
  if (Number.isNaN(at)) throw new ApiError('INVALID_REQUEST', `Since must be a date and time with its offset, e.g. 2026-11-20T00:00:00Z; got "${raw.slice(0, 40)}".`);
  return at;
}

/** The webhook operations: subscriptions of a program (privilege manageWebhooks), their delivery logs and redelivery. */
export function webhookRoutes(app: FastifyInstance, { services, codec }: RouteDeps): void {
  const base = '/Programs/:ProgramId/Webhooks';
  app.post(base, {
    config: {
      operation: {
        operationId: 'CreateWebhookSubscription', tags: TAGS, request: CreateWebhookSubscriptionRequest, response: CreateWebhookSubscriptionResponse,
        summary: 'CreateWebhookSubscription: posts the program\'s events to a URL, signed as Standard Webhooks; the answer holds the secret, once.',
      },
    },
  }, async (request, reply) => {
    const body = codec.read(request, CreateWebhookSubscriptionRequest);
    const view = await services.webhooks.create(callerOf(request), programId(request), { url: body.Url, eventTypes: body.EventTypes?.EventType ?? [] });
    return codec.send(request, reply, CreateWebhookSubscriptionResponse, createdSubscriptionValue(view));
  });
  app.get(base, {
    config: {
      operation: {
        operationId: 'GetWebhookSubscriptions', tags: TAGS, response: WebhookSubscriptionsResponse,
        summary: 'GetWebhookSubscriptions: the program\'s webhook subscriptions (without secrets).',
      },
    },
  }, async (request, reply) => {
    const views = await services.webhooks.list(callerOf(request), programId(request));
    return codec.send(request, reply, WebhookSubscriptionsResponse, subscriptionsValue(programId(request), views));
  });
  app.get(`${base}/:SubscriptionId`, {
    config: {
      operation: {
        operationId: 'GetWebhookSubscription', tags: TAGS, response: WebhookSubscriptionResponse,
        summary: 'GetWebhookSubscription: one webhook subscription (without its secret).',
      },
    },
  }, async (request, reply) => {
    const p = params(request);
    return codec.send(request, reply, WebhookSubscriptionResponse, subscriptionResponseValue(await services.webhooks.get(callerOf(request), p.programId, p.subscriptionId)));
  });
  app.post(`${base}/:SubscriptionId`, {
    config: {
      operation: {
        operationId: 'SetWebhookSubscription', tags: TAGS, request: SetWebhookSubscriptionRequest, response: WebhookSubscriptionResponse,
        summary: 'SetWebhookSubscription: changes a subscription\'s URL or event types, or disables or enables it.',
      },
    },
  }, async (request, reply) => {
    const p = params(request);
    const input = subscriptionChangeInput(codec.read(request, SetWebhookSubscriptionRequest));
    const view = await services.webhooks.update(callerOf(request), p.programId, p.subscriptionId, input);
    return codec.send(request, reply, WebhookSubscriptionResponse, subscriptionResponseValue(view));
  });
  app.delete(`${base}/:SubscriptionId`, {
    config: {
      operation: {
        operationId: 'DeleteWebhookSubscription', tags: TAGS, status: 204,
        summary: 'DeleteWebhookSubscription: deletes a subscription and its delivery log.',
      },
    },
  }, async (request, reply) => {
    const p = params(request);
    await services.webhooks.delete(callerOf(request), p.programId, p.subscriptionId);
    return reply.code(204).send();
  });
  app.get(`${base}/:SubscriptionId/Deliveries`, {
    config: {
      operation: {
        operationId: 'GetWebhookDeliveries', tags: TAGS, response: WebhookDeliveriesResponse,
        summary: 'GetWebhookDeliveries: a subscription\'s delivery log, newest first.',
        query: [{ name: 'limit', type: 'integer', description: `Deliveries in the answer, 1–${MAX_DELIVERIES_PAGE} (default 100).` }],
      },
    },
  }, async (request, reply) => {
    const p = params(request);
    const limit = intParam(request.query as RawQuery, 'limit', 100, 1, MAX_DELIVERIES_PAGE);
    const view = await services.webhooks.deliveries(callerOf(request), p.programId, p.subscriptionId, limit);
    return codec.send(request, reply, WebhookDeliveriesResponse, deliveriesValue(view));
  });
  app.post(`${base}/:SubscriptionId/RotateSecret`, {
    config: {
      operation: {
        operationId: 'RotateWebhookSecret', tags: TAGS, request: RotateWebhookSecretRequest, response: RotateWebhookSecretResponse,
        summary: 'RotateWebhookSecret: a new signing secret, shown once; for the grace period deliveries carry a signature with the old one too.',
      },
    },
  }, async (request, reply) => {
    const p = params(request);
    const body = codec.read(request, RotateWebhookSecretRequest);
    const view = await services.webhooks.rotateSecret(callerOf(request), p.programId, p.subscriptionId, body.GraceHours ?? undefined);
    return codec.send(request, reply, RotateWebhookSecretResponse, rotatedSecretValue(view));
  });
  app.post(`${base}/:SubscriptionId/Deliveries/Redeliver`, {
    config: {
      operation: {
        operationId: 'RedeliverFailedWebhookDeliveries', tags: TAGS, request: RedeliverWebhookDeliveriesRequest, response: WebhookDeliveriesResponse,
        summary: 'RedeliverFailedWebhookDeliveries: sends again every failed delivery made since a time (not yet sent again), at most 1000 per request.',
      },
    },
  }, async (request, reply) => {
    const p = params(request);
    const body = codec.read(request, RedeliverWebhookDeliveriesRequest);
    const view = await services.webhooks.redeliverFailed(callerOf(request), p.programId, p.subscriptionId, sinceParam(body.Since));
    return codec.send(request, reply, WebhookDeliveriesResponse, deliveriesValue(view));
  });
  app.post(`${base}/:SubscriptionId/Deliveries/:DeliveryId/Redeliver`, {
    config: {
      operation: {
        operationId: 'RedeliverWebhookDelivery', tags: TAGS, response: WebhookDeliveryResponse,
        summary: 'RedeliverWebhookDelivery: sends a delivery\'s event again (same body and webhook-id) as a new delivery.',
      },
    },
  }, async (request, reply) => {
    const p = params(request);
    const deliveryId = idParam((request.params as { DeliveryId?: string }).DeliveryId, 'DeliveryId');
    const d = await services.webhooks.redeliver(callerOf(request), p.programId, p.subscriptionId, deliveryId);
    return codec.send(request, reply, WebhookDeliveryResponse, deliveryResponseValue(d));
  });
}
