import type { Clock } from '../../model/clock.ts';
import type { Backlog } from '../../store/backlog-queries.ts';
import type { StoreReader } from '../../store/store.ts';

/** Where the background work stands now: the mail queue and the webhook deliveries, and when this was read. */
export interface WorkBacklog { at: number; mail: Backlog; webhooks: Backlog }

/** Reads both backlogs (two indexed statements), for /metrics at scrape time. */
export async function workBacklog(store: Pick<StoreReader, 'backlog'>, clock: Clock): Promise<WorkBacklog> {
  const [mail, webhooks] = await Promise.all([store.backlog.mailBacklog(), store.backlog.webhookBacklog()]);
  return { at: clock.now(), mail, webhooks };
}

/** How long the oldest waiting row has waited, in seconds (0 when none waits). */
export function oldestAgeSeconds(backlog: Backlog, now: number): number {
  return backlog.oldestPendingAt === null ? 0 : Math.max(0, (now - backlog.oldestPendingAt) / 1000);
}
