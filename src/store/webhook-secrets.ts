import type { WebhookSubscription } from '../model/webhook.ts';
import type { SecretBox } from './secret-box.ts';
import type { SubscriptionPatch, WebhookReader, WebhookRepository } from './webhook-queries.ts';

/** What a subscription's signing secrets (current and, during a rotation, previous) are sealed against: its row. */
export function webhookSecretContext(subscriptionId: string): string {
  return `webhook_subscriptions.secret:${subscriptionId}`;
}

function opened(secrets: SecretBox) {
  return (s: WebhookSubscription): WebhookSubscription => {
    const context = webhookSecretContext(s.id);
    return { ...s, secret: secrets.open(s.secret, context), previousSecret: s.previousSecret === null ? null : secrets.open(s.previousSecret, context) };
  };
}

function sealedPatch(secrets: SecretBox, id: string, p: SubscriptionPatch): SubscriptionPatch {
  const context = webhookSecretContext(id);
  return {
    ...p,
    ...(p.secret !== undefined ? { secret: secrets.seal(p.secret, context) } : {}),
    ...(p.previousSecret !== undefined && p.previousSecret !== null ? { previousSecret: secrets.seal(p.previousSecret, context) } : {}),
  };
}

// The queries read and write the columns as they are stored; these wrappers seal on the way in and open on the way
// out, so the services and the worker only ever see the secrets in clear, and the database only sealed.
function sealedReads(reader: WebhookReader, secrets: SecretBox): Pick<WebhookReader, 'findSubscription' | 'listSubscriptions' | 'findOwnedSubscription' | 'listOwnedSubscriptions' | 'enabledSubscriptions'> {
  const open = opened(secrets);
  return {
    findSubscription: async (programId, id) => {
      const s = await reader.findSubscription(programId, id);
      return s ? open(s) : s;
    },
    listSubscriptions: async (programId) => (await reader.listSubscriptions(programId)).map(open),
    findOwnedSubscription: async (ownerId, id) => {
      const s = await reader.findOwnedSubscription(ownerId, id);
      return s ? open(s) : s;
    },
    listOwnedSubscriptions: async (ownerId) => (await reader.listOwnedSubscriptions(ownerId)).map(open),
    enabledSubscriptions: async (programIds) => (await reader.enabledSubscriptions(programIds)).map(open),
  };
}

/** The webhook reads with signing secrets opened. */
export function sealedWebhookReader(reader: WebhookReader, secrets: SecretBox): WebhookReader {
  return { ...reader, ...sealedReads(reader, secrets) };
}

/** The webhook reads and writes with signing secrets sealed when stored and opened when read or claimed. */
export function sealedWebhookRepository(repo: WebhookRepository, secrets: SecretBox): WebhookRepository {
  const open = opened(secrets);
  return {
    ...repo,
    ...sealedReads(repo, secrets),
    insertSubscription: (s) => repo.insertSubscription({ ...s, ...sealedPatch(secrets, s.id, { secret: s.secret, previousSecret: s.previousSecret }) } as WebhookSubscription),
    updateSubscription: (id, p) => repo.updateSubscription(id, sealedPatch(secrets, id, p)),
    noteFailure: async (...args) => {
      const s = await repo.noteFailure(...args);
      return s ? open(s) : s;
    },
    claimDue: async (...args) => (await repo.claimDue(...args)).map((c) => ({
      ...c, secrets: c.secrets.map((secret) => secrets.open(secret, webhookSecretContext(c.delivery.subscriptionId))),
    })),
  };
}
