import { readFile } from 'node:fs/promises';
import { ApiError } from '../domain/api-error.ts';
import { ConnectionSettingsService, type ConnectionSettingsView } from '../domain/connections/connection-settings-service.ts';
import { isoTimestamp } from '../model/clock.ts';
import type { ConnectionAuth } from '../model/connection.ts';
import type { Program } from '../model/model.ts';
import { type CliCommand, type CommandInput, optionalText, text } from './cli-command.ts';
import { type CliContext, type CliIo, withContext } from './cli-context.ts';
import { UsageError } from './cli-error.ts';

const program = { type: 'string', value: 'PROGRAM', required: true, description: 'The program\'s id, or its custom id with --agency (a test copy is a program of its own)' } as const;
const agency = { type: 'string', value: 'AGENCY', description: 'The agency\'s id or custom id, to find the program by its custom id' } as const;
const connection = { type: 'string', value: 'CONNECTION', required: true, description: 'The customId of one of the program file\'s connections' } as const;

function service(ctx: CliContext): ConnectionSettingsService {
  return new ConnectionSettingsService({ ...ctx, policy: { allowInsecure: ctx.config.webhooks.allowInsecure } });
}

async function findAgencyId(ctx: CliContext, ref: string): Promise<string> {
  const found = await ctx.store.accounts.findAgency(ref);
  if (!found) throw new ApiError('NOT_FOUND', `agency "${ref}" not found`);
  return found.id;
}

async function findProgram(ctx: CliContext, input: CommandInput): Promise<Program> {
  const ref = optionalText(input, 'agency');
  const agencyId = ref === undefined ? undefined : await findAgencyId(ctx, ref);
  const found = await ctx.store.programs.findProgram(text(input, 'program'), agencyId);
  if (!found) throw new ApiError('NOT_FOUND', `program "${text(input, 'program')}" not found${ref === undefined ? ' (give --agency to find it by its custom id)' : ''}`);
  return found;
}

async function secretFromStdin(io: CliIo, what: string): Promise<string> {
  if (io.stdinIsTty) throw new UsageError(`pipe the ${what} on standard input; it is never read from a terminal or the command line`, 'connection set');
  const secret = (await io.readStdin()).replace(/\r?\n$/, '');
  if (secret === '') throw new UsageError(`no ${what} on standard input`, 'connection set');
  return secret;
}

// Exactly one way of signing in, or none; the secret of a header or OAuth client comes on standard input.
async function authOf(input: CommandInput, io: CliIo): Promise<ConnectionAuth> {
  const header = optionalText(input, 'header-secret');
  const oauth = optionalText(input, 'oauth-client-credentials');
  const cert = optionalText(input, 'client-cert');
  if ([header, oauth, cert].filter((x) => x !== undefined).length > 1) throw new UsageError('give one of --header-secret, --oauth-client-credentials or --client-cert', 'connection set');
  if (header !== undefined) {
    if (header.includes('=')) throw new UsageError('--header-secret takes the header\'s NAME; pipe its value on standard input, never on the command line', 'connection set');
    return { kind: 'header', name: header, value: await secretFromStdin(io, 'header\'s secret value') };
  }
  if (oauth !== undefined) {
    const clientId = optionalText(input, 'client-id');
    if (clientId === undefined) throw new UsageError('--oauth-client-credentials needs --client-id (the client secret comes on standard input)', 'connection set');
    return { kind: 'oauth', tokenUrl: oauth, clientId, clientSecret: await secretFromStdin(io, 'OAuth client secret'), scope: optionalText(input, 'scope') ?? null };
  }
  if (cert !== undefined) return { kind: 'clientCert', pem: await readFile(cert, 'utf8').catch(() => { throw new UsageError(`cannot read ${cert}`, 'connection set'); }) };
  return { kind: 'none' };
}

function line(v: ConnectionSettingsView): string {
  const where = v.url === null ? '(not set: calls wait, lookups are unavailable)' : `${v.url}  ${v.auth ?? 'none'}  set ${v.updatedAt === null ? '' : isoTimestamp(v.updatedAt)}`;
  return `${v.programCustomId}${v.testCopy ? ' (test copy)' : ''}  ${v.connectionId}  ${where}`;
}

/** `apas connection set|list|remove|allow-host|disallow-host|hosts`: where a program's connections go and how they sign in (docs/operations.md, "Connections"). */
export const connectionCommands: CliCommand[] = [
  {
    name: 'connection set',
    summary: 'Set where a program\'s connection goes and how it signs in (replaces what was set). Secrets are sealed at rest and never exported.',
    notes: [
      'Sign-in: --header-secret NAME (the value on standard input), --oauth-client-credentials TOKEN_URL --client-id ID [--scope S]',
      '(the client secret on standard input), or --client-cert FILE (PEM with the certificate and its private key); none for no sign-in.',
      'The host (and the token URL\'s) must be on the agency\'s allowlist (apas connection allow-host); https and public addresses',
      'only, unless APAS_WEBHOOK_ALLOW_INSECURE. Example: printf \'%s\' "$KEY" | apas connection set --program P --agency A',
      '  --connection accountLookup --url https://billing.example.com/accounts --header-secret X-Api-Key',
    ],
    options: {
      program, agency, connection,
      url: { type: 'string', value: 'URL', required: true, description: 'The full address the connection calls' },
      'header-secret': { type: 'string', value: 'NAME', description: 'Send a secret header NAME (its value read from standard input)' },
      'oauth-client-credentials': { type: 'string', value: 'TOKEN_URL', description: 'Sign in with OAuth 2.0 client credentials at TOKEN_URL' },
      'client-id': { type: 'string', value: 'ID', description: 'The OAuth client id' },
      scope: { type: 'string', value: 'SCOPE', description: 'The OAuth scope to ask for' },
      'client-cert': { type: 'string', value: 'FILE', description: 'Present a client certificate (PEM file with the certificate and key)' },
    },
    async run(input, io) {
      const auth = await authOf(input, io);
      const shown = await withContext(io, async (ctx) => service(ctx).set(await findProgram(ctx, input), text(input, 'connection'), text(input, 'url'), auth, null));
      io.out(line(shown));
      return 0;
    },
  },
  {
    name: 'connection remove',
    summary: 'Remove a program\'s connection settings: its calls wait and its lookups are shown as unavailable.',
    options: { program, agency, connection },
    async run(input, io) {
      await withContext(io, async (ctx) => service(ctx).remove(await findProgram(ctx, input), text(input, 'connection'), null));
      io.out('removed');
      return 0;
    },
  },
  {
    name: 'connection list',
    summary: 'List the connections of an agency\'s programs (test copies included), or of one program, with where they go; never a secret.',
    options: {
      agency: { ...agency, description: 'The agency\'s id or custom id: every program of it' },
      program: { ...program, required: false },
    },
    async run(input, io) {
      const views = await withContext(io, async (ctx) => {
        if (optionalText(input, 'program') !== undefined) return service(ctx).list([await findProgram(ctx, input)]);
        const ref = optionalText(input, 'agency');
        if (ref === undefined) throw new UsageError('give --agency, or --program', 'connection list');
        return service(ctx).list(await ctx.store.programs.listPrograms(await findAgencyId(ctx, ref)));
      });
      if (views.length === 0) io.err('No program here declares connections.');
      for (const v of views) io.out(line(v));
      return 0;
    },
  },
  ...(['allow-host', 'disallow-host'] as const).map((name): CliCommand => ({
    name: `connection ${name}`,
    summary: name === 'allow-host' ? 'Add a host to the agency\'s allowlist: connections may reach only the hosts listed.' : 'Remove a host from the agency\'s allowlist.',
    args: [{ name: 'HOST', description: 'The host name (no scheme or port)' }],
    options: { agency: { ...agency, required: true } },
    async run(input, io) {
      const hosts = await withContext(io, async (ctx) => service(ctx).allowHost(await findAgencyId(ctx, text(input, 'agency')), input.args[0]!, name === 'allow-host', null));
      io.out(hosts.length === 0 ? '(no host allowed)' : hosts.join('\n'));
      return 0;
    },
  })),
];
