import { WebhookService, type WebhookSubscriptionView } from '../domain/webhooks/webhook-service.ts';
import { isoTimestamp } from '../model/clock.ts';
import { EVENT_TYPES, type EventType, isEventType } from '../model/event.ts';
import { type CliCommand, type CommandInput, optionalText, text } from './cli-command.ts';
import { type CliContext, type CliIo, withContext } from './cli-context.ts';
import { UsageError } from './cli-error.ts';

const program = { type: 'string', value: 'PROGRAM', required: true, description: 'The program\'s id, or its custom id with --agency' } as const;
const agency = { type: 'string', value: 'AGENCY', description: 'The agency\'s id or custom id, to find the program by its custom id' } as const;
const SUBSCRIPTION = { name: 'SUBSCRIPTION_ID', description: 'The subscription\'s id' };

// The operator on the command line may manage any program's webhooks; the agency narrows a custom-id look-up.
async function withWebhooks<T>(io: CliIo, input: CommandInput, work: (service: WebhookService, operator: { operator: true; agencyId?: string }) => Promise<T>): Promise<T> {
  return withContext(io, async (ctx: CliContext) => {
    const ref = optionalText(input, 'agency');
    const found = ref === undefined ? undefined : await ctx.store.accounts.findAgency(ref);
    if (ref !== undefined && !found) throw new UsageError(`agency "${ref}" was not found`);
    const service = new WebhookService({ ...ctx, policy: { allowInsecure: ctx.config.webhooks.allowInsecure } });
    return work(service, { operator: true, ...(found ? { agencyId: found.id } : {}) });
  });
}

function eventTypes(raw: string | undefined): EventType[] {
  if (raw === undefined || raw.trim() === '' || raw.trim() === 'all') return [];
  const types = raw.split(',').map((t) => t.trim()).filter((t) => t !== '');
  const bad = types.find((t) => !isEventType(t));
  if (bad !== undefined) throw new UsageError(`unknown event type "${bad}"; the types are: ${EVENT_TYPES.join(', ')}`);
  return types as EventType[];
}

function line(s: WebhookSubscriptionView): string {
  const state = s.enabled ? 'enabled' : `disabled ${s.disabledAt === null ? '' : isoTimestamp(s.disabledAt)}: ${s.disabledReason ?? ''}`;
  return `${s.id}  ${s.url}  ${s.eventTypes.length === 0 ? 'all' : s.eventTypes.join(',')}  ${state}`;
}

function enabling(enabled: boolean): CliCommand {
  return {
    name: enabled ? 'webhook enable' : 'webhook disable',
    summary: enabled
      ? 'Enable a webhook subscription again; its pending deliveries are sent at once.'
      : 'Disable a webhook subscription: nothing is sent to it, and events meanwhile are not queued for it.',
    args: [SUBSCRIPTION],
    options: { program, agency },
    async run(input, io) {
      const view = await withWebhooks(io, input, (s, op) => s.update(op, text(input, 'program'), input.args[0]!, { enabled }));
      io.out(line(view));
      return 0;
    },
  };
}

/** `apas webhook create|list|disable|enable|delete|deliveries|redeliver|redeliver-failed|rotate-secret|test`: a program's webhook subscriptions (docs/interface.md, Webhooks). */
export const webhookCommands: CliCommand[] = [
  {
    name: 'webhook create',
    summary: 'Subscribe a URL to a program\'s events and print the subscription\'s id and signing secret. The secret is shown this once only.',
    options: {
      program, agency,
      url: { type: 'string', value: 'URL', required: true, description: 'Where deliveries are posted (https, public addresses, unless APAS_WEBHOOK_ALLOW_INSECURE)' },
      types: { type: 'string', value: 'TYPES', description: `Comma-separated event types (default: all): ${EVENT_TYPES.join(', ')}` },
    },
    async run(input, io) {
      const created = await withWebhooks(io, input, (s, op) => s.create(op, text(input, 'program'), { url: text(input, 'url'), eventTypes: eventTypes(optionalText(input, 'types')) }));
      io.out(`subscription_id=${created.subscription.id}`);
      io.out(`secret=${created.secret}`);
      io.err(`Subscribed ${created.subscription.url} to ${created.subscription.eventTypes.length === 0 ? 'every event' : created.subscription.eventTypes.join(', ')} of program ${created.subscription.programId}.`);
      io.err('The secret is shown only once: give it to the receiver now, to verify deliveries (Standard Webhooks).');
      return 0;
    },
  },
  {
    name: 'webhook list',
    summary: 'List a program\'s webhook subscriptions: id, URL, event types and state (never secrets).',
    options: { program, agency },
    async run(input, io) {
      const all = await withWebhooks(io, input, (s, op) => s.list(op, text(input, 'program')));
      for (const s of all) io.out(line(s));
      if (all.length === 0) io.err('The program has no webhook subscriptions.');
      return 0;
    },
  },
  enabling(false),
  enabling(true),
  {
    name: 'webhook delete',
    summary: 'Delete a webhook subscription and its delivery log.',
    args: [SUBSCRIPTION],
    options: { program, agency },
    async run(input, io) {
      await withWebhooks(io, input, (s, op) => s.delete(op, text(input, 'program'), input.args[0]!));
      io.out(`Deleted webhook subscription ${input.args[0]}.`);
      return 0;
    },
  },
  {
    name: 'webhook deliveries',
    summary: 'Show a subscription\'s delivery log, newest first: status, attempts, last answer, times.',
    args: [SUBSCRIPTION],
    options: { program, agency, limit: { type: 'string', value: 'N', description: 'How many deliveries (default 50, at most 1000)' } },
    async run(input, io) {
      const raw = optionalText(input, 'limit') ?? '50';
      const limit = Number(raw);
      if (!/^\d+$/.test(raw) || limit < 1 || limit > 1000) throw new UsageError('--limit must be a whole number from 1 to 1000');
      const view = await withWebhooks(io, input, (s, op) => s.deliveries(op, text(input, 'program'), input.args[0]!, limit));
      for (const d of view.deliveries) {
        const last = d.lastAttemptAt === null ? 'never tried' : `last ${isoTimestamp(d.lastAttemptAt)} ${d.lastStatusCode ?? d.lastError ?? ''}`;
        const next = d.status === 'pending' ? `  next ${isoTimestamp(d.nextAttemptAt)}` : '';
        io.out(`${d.id}  ${d.eventType}  ${d.eventId}  ${d.status.padEnd(9)}  attempts=${d.attempts}  ${last}${next}`);
      }
      if (view.deliveries.length === 0) io.err('No deliveries yet.');
      return 0;
    },
  },
  {
    name: 'webhook redeliver',
    summary: 'Send a delivery\'s event again (same body and webhook-id) as a new delivery, due at once.',
    args: [SUBSCRIPTION, { name: 'DELIVERY_ID', description: 'The delivery to send again' }],
    options: { program, agency },
    async run(input, io) {
      const d = await withWebhooks(io, input, (s, op) => s.redeliver(op, text(input, 'program'), input.args[0]!, input.args[1]!));
      io.out(`Queued delivery ${d.id} (event ${d.eventId}); a running server sends it within APAS_WEBHOOK_INTERVAL_MS.`);
      return 0;
    },
  },
  {
    name: 'webhook redeliver-failed',
    summary: 'Send again every failed delivery made since a time that was not sent again yet (at most 1000 per run).',
    args: [SUBSCRIPTION],
    options: { program, agency, since: { type: 'string', value: 'TIME', required: true, description: 'A date and time with its offset, e.g. 2026-11-20T00:00:00Z' } },
    async run(input, io) {
      const raw = text(input, 'since');
      const since = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.test(raw) ? Date.parse(raw) : Number.NaN;
      if (Number.isNaN(since)) throw new UsageError('--since must be a date and time with its offset, e.g. 2026-11-20T00:00:00Z');
      const view = await withWebhooks(io, input, (s, op) => s.redeliverFailed(op, text(input, 'program'), input.args[0]!, since));
      for (const d of view.deliveries) io.out(`${d.id}  ${d.eventType}  ${d.eventId}  redelivers ${d.redeliveryOf}`);
      io.err(`Queued ${view.deliveries.length} failed deliveries again; a running server sends them within APAS_WEBHOOK_INTERVAL_MS.`);
      return 0;
    },
  },
  {
    name: 'webhook test',
    summary: 'Queue a signed webhook.test delivery to one subscription (whatever its event types), to check its receiver; it is listed in the delivery log.',
    args: [SUBSCRIPTION],
    options: { program, agency },
    async run(input, io) {
      const d = await withWebhooks(io, input, (s, op) => s.sendTest(op, text(input, 'program'), input.args[0]!));
      io.out(`Queued test delivery ${d.id} (webhook-id ${d.eventId}); a running server sends it within APAS_WEBHOOK_INTERVAL_MS.`);
      return 0;
    },
  },
  {
    name: 'webhook rotate-secret',
    summary: 'Give a subscription a new signing secret (printed once); deliveries carry a signature with the old one too for the grace period.',
    args: [SUBSCRIPTION],
    options: { program, agency, 'grace-hours': { type: 'string', value: 'HOURS', description: 'How long the old secret still signs, 0 to 168 (default 24)' } },
    async run(input, io) {
      const raw = optionalText(input, 'grace-hours') ?? '24';
      if (!/^\d{1,3}$/.test(raw)) throw new UsageError('--grace-hours must be a whole number from 0 to 168');
      const rotated = await withWebhooks(io, input, (s, op) => s.rotateSecret(op, text(input, 'program'), input.args[0]!, Number(raw)));
      io.out(`secret=${rotated.secret}`);
      const until = rotated.subscription.previousSecretUntil;
      io.err(until === null ? 'The old secret no longer signs deliveries.' : `Deliveries are signed with the old secret too until ${isoTimestamp(until)}: give the receiver the new one before then.`);
      return 0;
    },
  },
];
