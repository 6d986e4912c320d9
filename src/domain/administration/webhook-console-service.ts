import type { EventType } from '../../model/event.ts';
import type { Program } from '../../model/model.ts';
import type { WebhookDelivery } from '../../model/webhook.ts';
import type { WebhookReader } from '../../store/webhook-queries.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { hasPrivilege, roleIn } from '../roles/access.ts';
import type { CreatedSubscriptionView, WebhookService, WebhookSubscriptionView } from '../webhooks/webhook-service.ts';
import { consolePage, decodeConsoleCursor } from './console-cursor.ts';
import { requireAdministeredProgram } from './console-scope.ts';
import type { ConsoleService } from './console-service.ts';

/** Deliveries per page of a subscription's log in the console. */
export const DELIVERY_PAGE_SIZE = 25;

/** A page of a subscription's delivery log, newest first, and the cursor of the next (older) page. */
export interface DeliveryLogPage { program: Program; subscription: WebhookSubscriptionView; deliveries: WebhookDelivery[]; nextCursor: string | null }

/** What the console's webhook pages need. */
export interface WebhookConsoleDeps { console: ConsoleService; webhooks: WebhookService; store: { webhooks: Pick<WebhookReader, 'pageDeliveries' | 'findSubscription'> } }

/**
 * The console's Webhooks area: the subscriptions of the programs a caller administers and may manage webhooks of
 * (`administerProgram` and `manageWebhooks`: agency admins and the built-in `admin` role hold both). Every action is
 * WebhookService's, acting as the caller, so the API's rules (SSRF checks, the 20-subscription cap, audit rows) hold.
 */
export class WebhookConsoleService {
  readonly #deps: WebhookConsoleDeps;

  constructor(deps: WebhookConsoleDeps) {
    this.#deps = deps;
  }

  /** The programs whose webhooks the caller manages in the console (FORBIDDEN when they administer nothing). */
  async programs(caller: Caller): Promise<Program[]> {
    const scope = await this.#deps.console.scope(caller);
    return scope.programs.filter((p) => hasPrivilege(roleIn(caller, p), 'manageWebhooks'));
  }

  /** A program's subscriptions, oldest first. */
  async list(caller: Caller, programRef: string): Promise<{ program: Program; subscriptions: WebhookSubscriptionView[] }> {
    const program = await this.#program(caller, programRef);
    return { program, subscriptions: await this.#deps.webhooks.list(caller, program.id) };
  }

  /** A new subscription of the program; its secret is in this answer only. */
  async create(caller: Caller, programRef: string, url: string, eventTypes: EventType[]): Promise<CreatedSubscriptionView> {
    const program = await this.#program(caller, programRef);
    return this.#deps.webhooks.create(caller, program.id, { url, eventTypes });
  }

  /** Replaces the event types a subscription gets (none: every type). */
  async setEventTypes(caller: Caller, programRef: string, id: string, eventTypes: EventType[]): Promise<WebhookSubscriptionView> {
    const program = await this.#program(caller, programRef);
    return this.#deps.webhooks.update(caller, program.id, id, { eventTypes });
  }

  /** Disables or enables a subscription (enabling sends its pending deliveries at once). */
  async setEnabled(caller: Caller, programRef: string, id: string, enabled: boolean): Promise<WebhookSubscriptionView> {
    const program = await this.#program(caller, programRef);
    return this.#deps.webhooks.update(caller, program.id, id, { enabled });
  }

  /** Deletes a subscription and its delivery log. */
  async delete(caller: Caller, programRef: string, id: string): Promise<void> {
    const program = await this.#program(caller, programRef);
    await this.#deps.webhooks.delete(caller, program.id, id);
  }

  /** A new secret, shown this once; the old one signs too for `graceHours`. */
  async rotateSecret(caller: Caller, programRef: string, id: string, graceHours: number): Promise<CreatedSubscriptionView> {
    const program = await this.#program(caller, programRef);
    return this.#deps.webhooks.rotateSecret(caller, program.id, id, graceHours);
  }

  /** A page of the subscription's delivery log, newest first, after `cursor` (a previous page's nextCursor). */
  async deliveries(caller: Caller, programRef: string, id: string, cursor: string | undefined): Promise<DeliveryLogPage> {
    const program = await this.#program(caller, programRef);
    const subscription = await this.#deps.webhooks.get(caller, program.id, id);
    const after = decodeConsoleCursor(subscription.id, cursor);
    const rows = await this.#deps.store.webhooks.pageDeliveries(subscription.id, after, DELIVERY_PAGE_SIZE + 1);
    const page = consolePage(subscription.id, rows, DELIVERY_PAGE_SIZE, (d) => ({ at: d.createdAt, id: d.id }));
    return { program, subscription, deliveries: page.rows, nextCursor: page.nextCursor };
  }

  /** Sends one delivery again, as a new delivery due now. */
  async redeliver(caller: Caller, programRef: string, id: string, deliveryId: string): Promise<WebhookDelivery> {
    const program = await this.#program(caller, programRef);
    return this.#deps.webhooks.redeliver(caller, program.id, id, deliveryId);
  }

  /** Sends again every failed delivery of the log that was not sent again yet (as RedeliverFailedWebhookDeliveries from the start). */
  async redeliverFailed(caller: Caller, programRef: string, id: string): Promise<number> {
    const program = await this.#program(caller, programRef);
    return (await this.#deps.webhooks.redeliverFailed(caller, program.id, id, 0)).deliveries.length;
  }

  /** Sends the subscription a signed `webhook.test` delivery through the normal delivery path. */
  async sendTest(caller: Caller, programRef: string, id: string): Promise<WebhookDelivery> {
    const program = await this.#program(caller, programRef);
    return this.#deps.webhooks.sendTest(caller, program.id, id);
  }

  // A program the caller administers and may manage webhooks of; FORBIDDEN otherwise.
  async #program(caller: Caller, programRef: string): Promise<Program> {
    const program = requireAdministeredProgram(await this.#deps.console.scope(caller), programRef);
    if (!hasPrivilege(roleIn(caller, program), 'manageWebhooks')) {
      throw new ApiError('FORBIDDEN', `Managing the webhooks of program ${program.id} needs the privilege manageWebhooks, which your role does not have.`);
    }
    return program;
  }
}
