import type { WebhookSubscription } from '../model/webhook.ts';
import type { SecretBox } from './secret-box.ts';
import type { ClaimedDelivery, WebhookReader, WebhookRepository } from './webhook-queries.ts';

/** What a webhook signing secret is sealed against: its column and its subscription. */
export function webhookSecretContext(subscriptionId: string): string {
  return `webhook_subscriptions.secret:${subscriptionId}`;
}

function opened(secrets: SecretBox) {
  return (s: WebhookSubscription): WebhookSubscription => ({ ...s, secret: secrets.open(s.secret, webhookSecretContext(s.id)) });
}

// The queries read and write the column as it is stored; these wrappers seal on the way in and open on the way out,
// so the services and the worker only ever see the secret in clear, and the database only sealed.
function sealedReads(reader: WebhookReader, secrets: SecretBox): Pick<WebhookReader, 'findSubscription' | 'listSubscriptions' | 'enabledSubscriptions'> {
  const open = opened(secrets);
  return {
    findSubscription: async (programId, id) => {
      const s = await reader.findSubscription(programId, id);
      return s ? open(s) : s;
    },
    listSubscriptions: async (programId) => (await reader.listSubscriptions(programId)).map(open),
    enabledSubscriptions: async (programIds) => (await reader.enabledSubscriptions(programIds)).map(open),
  };
}

/** The webhook reads with signing secrets opened. */
export function sealedWebhookReader(reader: WebhookReader, secrets: SecretBox): WebhookReader {
  return { ...reader, ...sealedReads(reader, secrets) };
}

/** The webhook reads and writes with signing secrets sealed when stored and opened when read or claimed. */
export function sealedWebhookRepository(repo: WebhookRepository, secrets: SecretBox): WebhookRepository {
  return {
    ...repo,
    ...sealedReads(repo, secrets),
    insertSubscription: (s) => repo.insertSubscription({ ...s, secret: secrets.seal(s.secret, webhookSecretContext(s.id)) }),
    claimDue: async (...args) => (await repo.claimDue(...args)).map((c: ClaimedDelivery) => ({ ...c, secret: secrets.open(c.secret, webhookSecretContext(c.delivery.subscriptionId)) })),
  };
}
