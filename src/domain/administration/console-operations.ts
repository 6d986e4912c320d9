import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { Store } from '../../store/store.ts';
import type { WebhookService } from '../webhooks/webhook-service.ts';
import { AuditTrailService } from './audit-trail-service.ts';
import type { ConsoleService } from './console-service.ts';
import { MailOutboxService } from './mail-outbox-service.ts';
import { WebhookConsoleService } from './webhook-console-service.ts';

/** The console's operations areas: Webhooks, Audit trail and Mail. */
export interface ConsoleOperations { webhooks: WebhookConsoleService; audit: AuditTrailService; mail: MailOutboxService }

/** The operations areas' services over the console's scope, the webhook service and the store. */
export function consoleOperations(deps: { console: ConsoleService; webhooks: WebhookService; store: Store; clock: Clock; ids: IdGenerator }): ConsoleOperations {
  return { webhooks: new WebhookConsoleService(deps), audit: new AuditTrailService(deps), mail: new MailOutboxService(deps) };
}
