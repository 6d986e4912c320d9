import { OAuthClientService } from '../domain/accounts/oauth-client-service.ts';
import { isoTimestamp } from '../model/clock.ts';
import { type CliCommand, text } from './cli-command.ts';
import { withContext } from './cli-context.ts';

const user = { type: 'string', value: 'EMAIL', required: true, description: 'The e-mail address of the client\'s user' } as const;

/** `apas client create|list|revoke`: OAuth 2.0 clients of the client credentials grant (docs/interface.md). */
export const clientCommands: CliCommand[] = [
  {
    name: 'client create',
    summary: 'Create an OAuth client for a user and print its id and secret on standard output. The secret is shown this once only.',
    options: { user, name: { type: 'string', value: 'NAME', required: true, description: 'A label for the client, such as the integration it serves' } },
    notes: ['Its tokens act as the user; every request also carries an API key of that user (X-ApiKey).'],
    async run(input, io) {
      const client = await withContext(io, (ctx) => new OAuthClientService(ctx).createClient(text(input, 'user'), text(input, 'name')));
      io.out(`client_id=${client.id}`);
      io.out(`client_secret=${client.secret}`);
      io.err(`Created OAuth client ${client.id} ("${client.name}") for ${text(input, 'user')}.`);
      io.err('The secret is shown only once: store it now. Get tokens at POST /services/v2/oauth/token.');
      return 0;
    },
  },
  {
    name: 'client list',
    summary: 'List a user\'s OAuth clients (ids and names only; secrets are never stored).',
    options: { user },
    async run(input, io) {
      const clients = await withContext(io, (ctx) => new OAuthClientService(ctx).listClients(text(input, 'user')));
      for (const c of clients) {
        const state = c.revokedAt === null ? 'active' : `revoked ${isoTimestamp(c.revokedAt)}`;
        io.out(`${c.id}  ${isoTimestamp(c.createdAt)}  ${state.padEnd(8)}  ${c.name}`);
      }
      if (clients.length === 0) io.err(`${text(input, 'user')} has no OAuth clients.`);
      return 0;
    },
  },
  {
    name: 'client revoke',
    summary: 'Revoke an OAuth client and every token issued to it, for good; they are refused at once on every instance.',
    args: [{ name: 'CLIENT_ID', description: 'The client\'s id (client_id)' }],
    async run(input, io) {
      const id = input.args[0]!;
      await withContext(io, (ctx) => new OAuthClientService(ctx).revokeClient(id));
      io.out(`Revoked OAuth client ${id} and its tokens.`);
      return 0;
    },
  },
];
