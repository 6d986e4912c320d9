import type { EventType } from './event.ts';

/**
 * The type of a test delivery (the console's "Send a test event"): sent to one subscription whatever its event types,
 * about no project and no event of the change feed, so its receiver can check its endpoint and signature check.
 */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** What a delivery carries: an event of the change feed, or a test. */
export type DeliveryEventType = EventType | typeof WEBHOOK_TEST_EVENT;

/** Where a delivery stands: waiting to be sent (or retried), sent with a 2xx answer, or given up on. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** A program's webhook target: where events of the listed types are posted, signed with its secret. */
export interface WebhookSubscription {
  id: string;
  agencyId: string;
  programId: string;
  url: string;
  /** The kinds of event sent; empty means every kind. */
  eventTypes: EventType[];
  /** The signing secret (`whsec_` and base64); shown to the admin only when the subscription is made or its secret rotated. */
  secret: string;
  /** The secret the last rotation replaced: deliveries are signed with it too until `previousSecretUntil`. */
  previousSecret: string | null;
  previousSecretUntil: number | null;
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: number | null;
  /** Failed attempts since the last answered with 2xx. */
  consecutiveFailures: number;
  /** When the current run of failed attempts began; null while the last attempt succeeded. */
  failingSince: number | null;
  /** Nothing is sent before this time (the subscription's backoff, or its receiver's Retry-After); null when not backing off. */
  pausedUntil: number | null;
  createdAt: number;
  /** The admin who made it; null when an operator did, on the command line. */
  createdBy: string | null;
  /**
   * The user a self-service subscription belongs to (null: the agency's own). It is sent only events of projects that
   * user can read, and only while the agency allows self-service webhooks.
   */
  ownerId: string | null;
  updatedAt: number;
}

/** One event sent (or to be sent) to one subscription, with its retry state. */
export interface WebhookDelivery {
  id: string;
  subscriptionId: string;
  eventId: string;
  /** The event's Sequence in the change feed; 0 for a test delivery. */
  eventSeq: number;
  eventType: DeliveryEventType;
  /** The event's project; empty for a test delivery. */
  projectId: string;
  /** The exact body posted: `{"type","timestamp","data"}`. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  createdAt: number;
  nextAttemptAt: number;
  firstAttemptAt: number | null;
  lastAttemptAt: number | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: number | null;
  /** The delivery this one sends again (manual redelivery). */
  redeliveryOf: string | null;
}
