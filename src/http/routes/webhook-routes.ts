import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CreateWebhookSubscriptionRequest, CreateWebhookSubscriptionResponse, createdSubscriptionValue, deliveriesValue, deliveryResponseValue,
  SetWebhookSubscriptionRequest, subscriptionChangeInput, subscriptionResponseValue, subscriptionsValue, WebhookDeliveriesResponse,
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

/** The webhook operations: subscriptions of a program (its admins only), their delivery logs and redelivery. */
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
