import { newSecretKeyLine } from '../store/secret-box.ts';
import type { CliCommand } from './cli-command.ts';
import { withContext } from './cli-context.ts';
import { CliError } from './cli-error.ts';

function keyCounts(byKey: Record<string, number>): string {
  const entries = Object.entries(byKey);
  return entries.length === 0 ? 'no stored secrets' : entries.map(([key, n]) => `${n} sealed with ${key}`).join(', ').replace(/(\d+) sealed with unsealed/, '$1 NOT sealed');
}

/** `apas secrets new-key|status|rotate`: the keys that seal TOTP and webhook signing secrets at rest. */
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
      const report = await withContext(io, (ctx) => ctx.store.resealSecrets('count'));
      io.out(keyCounts(report.byKey));
      if (report.missingKeys.length === 0) return 0;
      io.err(`Some secrets are sealed with key(s) that are not configured and cannot be read: ${report.missingKeys.join(', ')}.`);
      return 1;
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
];
