import { ApiError } from '../domain/api-error.ts';
import { SIGN_ON_DEFAULTS, SignOnSettingsService, type SignOnView } from '../domain/sign-on/sign-on-settings-service.ts';
import type { Store } from '../store/store.ts';
import { type CliCommand, optionalText, text } from './cli-command.ts';
import { type CliIo, withContext } from './cli-context.ts';
import { UsageError } from './cli-error.ts';

const agency = { type: 'string', value: 'AGENCY', required: true, description: 'The agency\'s custom id or id' } as const;

async function agencyId(store: Store, ref: string): Promise<string> {
  const found = await store.accounts.findAgency(ref);
  if (!found) throw new ApiError('NOT_FOUND', `agency "${ref}" not found`);
  return found.id;
}

async function readClientSecret(io: CliIo): Promise<string> {
  if (io.stdinIsTty) throw new UsageError('pipe the client secret on standard input; it is never read from a terminal or the command line', 'agency sso set');
  const secret = (await io.readStdin()).replace(/\r?\n$/, '');
  if (secret === '') throw new UsageError('no client secret on standard input', 'agency sso set');
  return secret;
}

function print(io: CliIo, s: SignOnView): void {
  io.out(`provider         ${s.label}${s.enabled ? '' : '  (off)'}`);
  io.out(`issuer           ${s.issuer}`);
  io.out(`client id        ${s.clientId}`);
  io.out('client secret    (stored sealed; never shown)');
  io.out(`scopes           ${s.scopes.join(' ')}`);
  io.out(`e-mail claim     ${s.emailClaim}`);
  io.out(`groups claim     ${s.groupsClaim}`);
  io.out(`staff passwords  ${s.allowPasswords ? 'allowed' : 'off (staff sign in with single sign-on only)'}`);
  io.out('groups → grants');
  for (const line of s.groupGrantsText.split('\n').filter((l) => l !== '')) io.out(`  ${line}`);
}

/** `apas agency sso set|show|disable`: an agency's OpenID Connect provider for staff sign-in. */
export const signOnCommands: CliCommand[] = [
  {
    name: 'agency sso set',
    summary: 'Set an agency\'s OpenID Connect provider for staff sign-in (every setting; replaces the stored ones).',
    notes: [
      'The client secret is read from standard input with --secret-stdin, never from the command line; without it the',
      'stored secret is kept (the first set needs it). Example: printf \'%s\' "$SECRET" | apas agency sso set … --secret-stdin',
      '--map takes entries separated by ";" or newlines: GROUP = admin, or GROUP = PROGRAM ROLE [sensitive] [only ACCESSGROUP,...].',
    ],
    refused: { secret: 'the client secret is read from standard input (--secret-stdin), never from the command line' },
    options: {
      agency,
      label: { type: 'string', value: 'NAME', required: true, description: 'The provider\'s name on the sign-in page ("Sign in with NAME")' },
      issuer: { type: 'string', value: 'URL', required: true, description: 'The issuer URL (https; http only on localhost)' },
      'client-id': { type: 'string', value: 'ID', required: true, description: 'The client id registered at the provider' },
      'secret-stdin': { type: 'boolean', description: 'Read the client secret from standard input' },
      scopes: { type: 'string', value: 'SCOPES', description: `Scopes, space-separated (default "${SIGN_ON_DEFAULTS.scopes}")` },
      'email-claim': { type: 'string', value: 'CLAIM', description: `The ID token claim with the e-mail address (default ${SIGN_ON_DEFAULTS.emailClaim})` },
      'groups-claim': { type: 'string', value: 'CLAIM', description: `The ID token claim with the groups (default ${SIGN_ON_DEFAULTS.groupsClaim})` },
      map: { type: 'string', value: 'MAPPING', description: 'The groups → grants mapping (see below)' },
      'no-passwords': { type: 'boolean', description: 'Staff may no longer sign in with a local password' },
      off: { type: 'boolean', description: 'Store the settings but do not offer single sign-on yet' },
    },
    async run(input, io) {
      const secret = input.options['secret-stdin'] === true ? await readClientSecret(io) : '';
      const shown = await withContext(io, async (ctx) => new SignOnSettingsService(ctx).save(await agencyId(ctx.store, text(input, 'agency')), {
        label: text(input, 'label'), issuer: text(input, 'issuer'), clientId: text(input, 'client-id'), clientSecret: secret,
        scopes: optionalText(input, 'scopes') ?? '', emailClaim: optionalText(input, 'email-claim') ?? '', groupsClaim: optionalText(input, 'groups-claim') ?? '',
        groupGrants: optionalText(input, 'map') ?? '', allowPasswords: input.options['no-passwords'] !== true, enabled: input.options.off !== true,
      }, null));
      print(io, shown);
      return 0;
    },
  },
  {
    name: 'agency sso show',
    summary: 'Show an agency\'s single sign-on settings (never the client secret).',
    options: { agency },
    async run(input, io) {
      const shown = await withContext(io, async (ctx) => new SignOnSettingsService(ctx).show(await agencyId(ctx.store, text(input, 'agency'))));
      if (!shown) {
        io.err('This agency has no single sign-on; set one with "apas agency sso set".');
        return 0;
      }
      print(io, shown);
      return 0;
    },
  },
  {
    name: 'agency sso disable',
    summary: 'Turn an agency\'s single sign-on off: everyone signs in with a local password again.',
    options: { agency },
    async run(input, io) {
      await withContext(io, async (ctx) => new SignOnSettingsService(ctx).disable(await agencyId(ctx.store, text(input, 'agency')), null));
      io.out('Single sign-on is off.');
      return 0;
    },
  },
];
