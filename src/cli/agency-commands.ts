import { AccountService } from '../domain/accounts/account-service.ts';
import { type CliCommand, text } from './cli-command.ts';
import { withContext } from './cli-context.ts';

/** `apas agency create|list`. */
export const agencyCommands: CliCommand[] = [
  {
    name: 'agency create',
    summary: 'Create an agency.',
    options: {
      id: { type: 'string', value: 'CUSTOM_ID', required: true, description: 'The agency\'s stable key, e.g. "demo"' },
      name: { type: 'string', value: 'NAME', required: true, description: 'The agency\'s display name' },
    },
    async run(input, io) {
      const agency = await withContext(io, (ctx) => new AccountService(ctx).createAgency(text(input, 'id'), text(input, 'name')));
      io.out(`Created agency ${agency.customId} (id ${agency.id}).`);
      return 0;
    },
  },
  {
    name: 'agency list',
    summary: 'List the agencies: custom id, generated id and name.',
    async run(_input, io) {
      const agencies = await withContext(io, ({ store }) => store.accounts.listAgencies());
      for (const a of agencies) io.out(`${(a.customId ?? '-').padEnd(16)} ${a.id}  ${a.name}`);
      if (agencies.length === 0) io.err('No agencies yet; create one with "apas agency create".');
      return 0;
    },
  },
];
