import type { Store } from '../../store/store.ts';

const DAY_MS = 86_400_000;

/**
 * Deletes the delivery log's delivered and failed deliveries made more than `days` before `now`
 * (APAS_WEBHOOK_LOG_RETENTION_DAYS); pending ones stay however old. Returns how many were deleted.
 */
export function pruneWebhookLog(store: Pick<Store, 'transaction'>, now: number, days: number): Promise<number> {
  return store.transaction((tx) => tx.webhooks.pruneDeliveries(now - days * DAY_MS));
}
