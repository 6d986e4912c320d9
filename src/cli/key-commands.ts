import { AccountService } from '../domain/accounts/account-service.ts';
import { isoTimestamp } from '../model/clock.ts';
import { type CliCommand, optionalText, text } from './cli-command.ts';
import { withContext } from './cli-context.ts';

const user = { type: 'string', value: 'EMAIL', required: true, description: 'The e-mail address of the key\'s user' } as const;

/** `apas key create|list|revoke`. */
export const keyCommands: CliCommand[] = [
  {
    name: 'key create',
    summary: 'Create an API key for a user and print it on standard output. It is shown this once only.',
    options: { user, name: { type: 'string', value: 'NAME', description: 'A label for the key (default "default")' } },
    async run(input, io) {
      const key = await withContext(io, (ctx) => new AccountService(ctx).createApiKey(text(input, 'user'), optionalText(input, 'name')));
      io.out(key.key);
      io.err(`Created API key ${key.id} ("${key.name}") for ${text(input, 'user')}.`);
      io.err('This key is shown only once: store it now. Send it in the X-ApiKey header.');
      return 0;
    },
  },
  {
    name: 'key list',
    summary: 'List a user\'s API keys (ids and names only; secrets are never stored).',
    options: { user },
    async run(input, io) {
      const keys = await withContext(io, (ctx) => new AccountService(ctx).listApiKeys(text(input, 'user')));
      for (const k of keys) {
        const state = k.revokedAt === null ? 'active' : `revoked ${isoTimestamp(k.revokedAt)}`;
        io.out(`${k.id}  ${isoTimestamp(k.createdAt)}  ${state.padEnd(8)}  ${k.name}`);
      }
      if (keys.length === 0) io.err(`${text(input, 'user')} has no API keys.`);
      return 0;
    },
  },
  {
    name: 'key revoke',
    summary: 'Revoke an API key for good.',
    options: { id: { type: 'string', value: 'KEY_ID', required: true, description: 'The key\'s id (the 12 characters after "apas_")' } },
    async run(input, io) {
      await withContext(io, (ctx) => new AccountService(ctx).revokeApiKey(text(input, 'id')));
      io.out(`Revoked API key ${text(input, 'id')}.`);
      return 0;
    },
  },
];
