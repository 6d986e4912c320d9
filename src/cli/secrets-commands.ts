import { newWebhookSecret } from '../domain/webhooks/webhook-service.ts';
import { existingSecretBox } from '../store/open-secret-box.ts';
import { newSecretKeyLine } from '../store/secret-box.ts';
import { describeUnreadable, unreadableCount } from '../store/unreadable-secrets.ts';
import type { CliCommand } from './cli-command.ts';
import { withContext } from './cli-context.ts';
import { CliError } from './cli-error.ts';

function keyCounts(byKey: Record<string, number>): string {
  const entries = Object.entries(byKey);
  return entries.length === 0 ? 'no stored secrets' : entries.map(([key, n]) => `${n} sealed with ${key}`).join(', ').replace(/(\d+) sealed with unsealed/, '$1 NOT sealed');
}

/** `apas secrets new-key|status|rotate|drop-unreadable`: the keys that seal TOTP and webhook signing secrets and sensitive values at rest. */
export const secretsCommands: CliCommand[] = [
  {
    name: 'secrets new-key',
    summary: 'Print a new key line ID:BASE64 for APAS_SECRET_KEY_FILE or APAS_SECRET_KEYS (nothing is stored).',
    notes: ['The first key of the list seals new secrets; every key in the list opens them. See docs/operations.md, "Secrets at rest".'],
    async run(_input, io) {
      io.out(newSecretKeyLine());
      return 0;
    },
  },
  {
    name: 'secrets status',
    summary: 'Count the stored secrets per key that seals them (and any not sealed yet); changes nothing.',
    async run(_input, io) {
      const { report, unreadable } = await withContext(io, async (ctx) => ({ report: await ctx.store.resealSecrets('count'), unreadable: await ctx.store.unreadableSecrets() }));
      io.out(keyCounts(report.byKey));
      if (report.missingKeys.length > 0) io.err(`Some secrets are sealed with key(s) that are not configured and cannot be read: ${report.missingKeys.join(', ')}.`);
      else if (unreadableCount(unreadable) > 0) io.err(`Some secrets do not open with the configured keys (a wrong key of the same id, or a damaged value): ${describeUnreadable(unreadable)}.`);
      return report.missingKeys.length > 0 || unreadableCount(unreadable) > 0 ? 1 : 0;
    },
  },
  {
    name: 'secrets rotate',
    summary: 'Re-wrap every stored secret with the first configured key, so that older keys can be removed.',
    notes: [
      'Run it once every instance has the new key first in its list. Only the small data keys are re-wrapped; the values',
      'themselves are not decrypted, except to index values of sensitive fields again with the new key. One transaction:',
      'an error changes nothing.',
    ],
    async run(_input, io) {
      const report = await withContext(io, (ctx) => ctx.store.resealSecrets('all'));
      if (report.missingKeys.length > 0) throw new CliError(`Some secrets are sealed with key(s) that are not configured: ${report.missingKeys.join(', ')}. Add them to the list (after the first key) and run this again.`);
      io.out(`Re-wrapped ${report.resealed} secrets: ${keyCounts(report.byKey)}.`);
      return 0;
    },
  },
  {
    name: 'secrets drop-unreadable',
    summary: 'Drop the stored secrets and sensitive values no configured key opens (a lost key), with an audit record, so that the server starts again.',
    notes: [
      'For a key that is lost for good: put it back instead if you can. Every sealed value is tried with the configured',
      'keys; those that do not open are dropped in one transaction: TOTP enrolments end (the users enrol again), webhook',
      'subscriptions get a new secret nobody knows and are disabled (rotate the secret, then enable them), submitted and',
      'draft values of sensitive fields are deleted. An audit record (secrets.drop_unreadable, and one per project) says',
      'what went. On SQLite without a key file, a new one is made first. See docs/operations.md, "Restoring without the key".',
    ],
    options: { 'dry-run': { type: 'boolean', description: 'Only say what would be dropped; change nothing' } },
    async run(input, io) {
      const dryRun = input.options['dry-run'] === true;
      // A dry run tries the keys there are now and makes none.
      const dropped = await withContext(io, (ctx) => (dryRun ? ctx.store.unreadableSecrets(existingSecretBox(ctx.config)?.box ?? null)
        : ctx.store.dropUnreadableSecrets({ at: ctx.clock.now(), newId: () => ctx.ids.next(), newWebhookSecret })), { makeKeyFile: !dryRun });
      const count = unreadableCount(dropped);
      if (count === 0) io.out(`All ${dropped.sealed} sealed values open with the configured keys: nothing to drop.`);
      else if (dryRun) io.out(`Would drop ${count} values that no configured key opens: ${describeUnreadable(dropped)}. Nothing was changed.`);
      else io.out(`Dropped ${count} values that no configured key opened: ${describeUnreadable(dropped)}. Recorded in the audit log as secrets.drop_unreadable.`);
      return 0;
    },
  },
];
