import type { CreatedSubscriptionView, SubscriptionChangeInput, WebhookDeliveriesView, WebhookSubscriptionView } from '../../domain/webhooks/webhook-service.ts';
import { isoTimestamp } from '../../model/clock.ts';
import { EVENT_TYPES } from '../../model/event.ts';
import { WEBHOOK_TEST_EVENT, type WebhookDelivery } from '../../model/webhook.ts';
import {
  boolean, complex, type DocumentValue, dateTime, enumeration, many, maybe, nonNegativeInteger, one, optional, positiveInteger, requestDocument, required,
  responseDocument, restrict, string,
} from '../wire-type.ts';
import { EventTypeName } from './events.ts';

const EventTypes = complex({
  doc: 'The kinds of event sent to the subscription; none listed means every kind.',
  children: { EventType: many(EventTypeName) },
});

const DeliveryEventTypeName = enumeration('WebhookDeliveryEventType', [...EVENT_TYPES, WEBHOOK_TEST_EVENT],
  'What a delivery carries: a kind of event, or webhook.test for a test delivery sent from the console.');

const SubscriptionType = complex({
  name: 'WebhookSubscription',
  attributes: {
    SubscriptionId: required(string),
    ProgramId: required(string),
    Url: required(string, { doc: 'Where deliveries are posted.' }),
    Enabled: required(boolean),
    DisabledReason: optional(string, { doc: 'Why it was disabled: by whom, or the run of failures that disabled it.' }),
    DisabledTimestamp: optional(dateTime),
    ConsecutiveFailures: required(nonNegativeInteger, { doc: 'Failed attempts since the last one answered with 2xx.' }),
    PreviousSecretExpiresTimestamp: optional(dateTime, { doc: 'During a secret rotation\'s grace period: until when deliveries are signed with the replaced secret too.' }),
    CreatedTimestamp: required(dateTime),
    CreatedBy: optional(string, { doc: 'The e-mail address of the admin who made it.' }),
    UpdatedTimestamp: required(dateTime),
  },
  children: { EventTypes: one(EventTypes) },
});

const DeliveryType = complex({
  name: 'WebhookDelivery',
  attributes: {
    DeliveryId: required(string),
    EventId: required(string, { doc: 'The event\'s id, sent as webhook-id (the same on every attempt and redelivery).' }),
    Sequence: optional(positiveInteger, { doc: 'The event\'s Sequence in the change feed; absent for a test delivery.' }),
    EventType: required(DeliveryEventTypeName),
    ProjectId: optional(string, { doc: 'The event\'s project; absent for a test delivery.' }),
    Status: required(restrict(string, { name: 'DeliveryStatus', enumeration: ['pending', 'delivered', 'failed'] })),
    Attempts: required(nonNegativeInteger),
    CreatedTimestamp: required(dateTime),
    NextAttemptTimestamp: optional(dateTime, { doc: 'When it is tried next (pending deliveries only).' }),
    LastAttemptTimestamp: optional(dateTime),
    LastStatusCode: optional(nonNegativeInteger, { doc: 'The HTTP status of the last answer; absent when there was none (see LastError).' }),
    LastError: optional(string, { doc: 'Why the last attempt failed.' }),
    DeliveredTimestamp: optional(dateTime),
    RedeliveryOf: optional(string, { doc: 'The delivery this one sends again.' }),
  },
});

/** CreateWebhookSubscription's request body. */
export const CreateWebhookSubscriptionRequest = requestDocument('CreateWebhookSubscriptionRequest', complex({
  attributes: { Url: required(restrict(string, { minLength: 1, maxLength: 2000 })) },
  children: { EventTypes: maybe(EventTypes) },
}), 'CreateWebhookSubscription request: the https URL deliveries are posted to, and the kinds of event to send (none or no EventTypes: every kind).');

/** SetWebhookSubscription's request body: only what is given changes. */
export const SetWebhookSubscriptionRequest = requestDocument('SetWebhookSubscriptionRequest', complex({
  attributes: { Url: optional(restrict(string, { minLength: 1, maxLength: 2000 })), Enabled: optional(boolean) },
  children: { EventTypes: maybe(EventTypes) },
}), 'SetWebhookSubscription request: a new Url, Enabled true or false, and new EventTypes (replacing the old; an empty EventTypes means every kind). What is left out stays.');

/** RotateWebhookSecret's request body: the grace period. */
export const RotateWebhookSecretRequest = requestDocument('RotateWebhookSecretRequest', complex({
  attributes: { GraceHours: optional(nonNegativeInteger, { doc: 'Hours the replaced secret goes on signing deliveries, 0 to 168 (default 24).' }) },
}), 'RotateWebhookSecret request: how long deliveries are signed with the old secret too (GraceHours, default 24, at most 168; 0 ends it at once).');

/** RedeliverFailedWebhookDeliveries' request body: since when. */
export const RedeliverWebhookDeliveriesRequest = requestDocument('RedeliverWebhookDeliveriesRequest', complex({
  attributes: { Since: required(dateTime, { doc: 'Failed deliveries made at or after this time are sent again.' }) },
}), 'RedeliverFailedWebhookDeliveries request: every failed delivery made since this time that was not sent again yet is queued again (at most 1000 per request).');

/** RotateWebhookSecret's answer: the new secret, shown this once, and the subscription. */
export const RotateWebhookSecretResponse = responseDocument('RotateWebhookSecretResponse', complex({
  attributes: { Secret: required(string, { doc: 'The new signing secret (whsec_…); shown in this answer only.' }) },
  children: { WebhookSubscription: one(SubscriptionType) },
}), 'RotateWebhookSecret: the new signing secret, which no other answer shows, and the subscription with the end of the grace period.');

/** CreateWebhookSubscription's answer: the subscription and its secret, shown this once. */
export const CreateWebhookSubscriptionResponse = responseDocument('CreateWebhookSubscriptionResponse', complex({
  attributes: { Secret: required(string, { doc: 'The signing secret (whsec_…); shown in this answer only.' }) },
  children: { WebhookSubscription: one(SubscriptionType) },
}), 'CreateWebhookSubscription: the new subscription and its signing secret, which no other answer shows. Verify deliveries with it as the Standard Webhooks specification says.');

/** GetWebhookSubscription and SetWebhookSubscription: one subscription. */
export const WebhookSubscriptionResponse = responseDocument('WebhookSubscriptionResponse', complex({
  children: { WebhookSubscription: one(SubscriptionType) },
}), 'GetWebhookSubscription and SetWebhookSubscription: the subscription (without its secret).');

/** GetWebhookSubscriptions: every subscription of a program. */
export const WebhookSubscriptionsResponse = responseDocument('WebhookSubscriptionsResponse', complex({
  attributes: { ProgramId: required(string) },
  children: { WebhookSubscription: many(SubscriptionType) },
}), 'GetWebhookSubscriptions: the program\'s webhook subscriptions, oldest first (without their secrets).');

/** GetWebhookDeliveries: a subscription's delivery log. */
export const WebhookDeliveriesResponse = responseDocument('WebhookDeliveriesResponse', complex({
  attributes: { SubscriptionId: required(string) },
  children: { WebhookDelivery: many(DeliveryType) },
}), 'GetWebhookDeliveries: the subscription\'s latest deliveries, newest first; RedeliverFailedWebhookDeliveries: the deliveries it queued.');

/** RedeliverWebhookDelivery: the new delivery. */
export const WebhookDeliveryResponse = responseDocument('WebhookDeliveryResponse', complex({
  children: { WebhookDelivery: one(DeliveryType) },
}), 'RedeliverWebhookDelivery: the new delivery that sends the event again, due now.');

const time = (ms: number | null) => (ms === null ? undefined : isoTimestamp(ms));

function subscriptionValue(s: WebhookSubscriptionView) {
  return {
    SubscriptionId: s.id, ProgramId: s.programId, Url: s.url, Enabled: s.enabled, DisabledReason: s.disabledReason ?? undefined,
    DisabledTimestamp: time(s.disabledAt), ConsecutiveFailures: s.consecutiveFailures,
    PreviousSecretExpiresTimestamp: time(s.previousSecretUntil), CreatedTimestamp: isoTimestamp(s.createdAt),
    CreatedBy: s.createdBy ?? undefined, UpdatedTimestamp: isoTimestamp(s.updatedAt), EventTypes: { EventType: s.eventTypes },
  };
}

function deliveryValue(d: WebhookDelivery) {
  return {
    DeliveryId: d.id, EventId: d.eventId, Sequence: d.eventSeq > 0 ? d.eventSeq : undefined, EventType: d.eventType, ProjectId: d.projectId || undefined, Status: d.status,
    Attempts: d.attempts, CreatedTimestamp: isoTimestamp(d.createdAt), NextAttemptTimestamp: d.status === 'pending' ? isoTimestamp(d.nextAttemptAt) : undefined,
    LastAttemptTimestamp: time(d.lastAttemptAt), LastStatusCode: d.lastStatusCode ?? undefined, LastError: d.lastError ?? undefined,
    DeliveredTimestamp: time(d.deliveredAt), RedeliveryOf: d.redeliveryOf ?? undefined,
  };
}

/** The answer of CreateWebhookSubscription. */
export function createdSubscriptionValue(view: CreatedSubscriptionView): DocumentValue<typeof CreateWebhookSubscriptionResponse> {
  return { Secret: view.secret, WebhookSubscription: subscriptionValue(view.subscription) };
}

/** The answer of RotateWebhookSecret. */
export function rotatedSecretValue(view: CreatedSubscriptionView): DocumentValue<typeof RotateWebhookSecretResponse> {
  return { Secret: view.secret, WebhookSubscription: subscriptionValue(view.subscription) };
}

/** The answer of GetWebhookSubscription and SetWebhookSubscription. */
export function subscriptionResponseValue(view: WebhookSubscriptionView): DocumentValue<typeof WebhookSubscriptionResponse> {
  return { WebhookSubscription: subscriptionValue(view) };
}

/** The answer of GetWebhookSubscriptions. */
export function subscriptionsValue(programId: string, views: WebhookSubscriptionView[]): DocumentValue<typeof WebhookSubscriptionsResponse> {
  return { ProgramId: programId, WebhookSubscription: views.map(subscriptionValue) };
}

/** The answer of GetWebhookDeliveries. */
export function deliveriesValue(view: WebhookDeliveriesView): DocumentValue<typeof WebhookDeliveriesResponse> {
  return { SubscriptionId: view.subscriptionId, WebhookDelivery: view.deliveries.map(deliveryValue) };
}

/** The answer of RedeliverWebhookDelivery. */
export function deliveryResponseValue(d: WebhookDelivery): DocumentValue<typeof WebhookDeliveryResponse> {
  return { WebhookDelivery: deliveryValue(d) };
}

/** A SetWebhookSubscription request as the service takes it. */
export function subscriptionChangeInput(value: DocumentValue<typeof SetWebhookSubscriptionRequest>): SubscriptionChangeInput {
  return {
    ...(value.Url !== undefined && value.Url !== null ? { url: value.Url } : {}),
    ...(value.Enabled !== undefined && value.Enabled !== null ? { enabled: value.Enabled } : {}),
    ...(value.EventTypes !== undefined && value.EventTypes !== null ? { eventTypes: value.EventTypes.EventType } : {}),
  };
}
