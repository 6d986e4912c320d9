import { AccountService } from '../domain/accounts/account-service.ts';
import { type PolicyChange, type PolicyView, SelfServicePolicyService } from '../domain/administration/self-service-policy-service.ts';
import { isoTimestamp } from '../model/clock.ts';
import { type CliCommand, type CommandInput, optionalText, text } from './cli-command.ts';
import { withContext } from './cli-context.ts';
import { UsageError } from './cli-error.ts';

// An on/off option of `agency policy`; undefined when not given (that setting stays as it is).
function onOff(input: CommandInput, key: string): boolean | undefined {
  const value = optionalText(input, key);
  if (value === undefined) return undefined;
  if (value !== 'on' && value !== 'off') throw new UsageError(`--${key} must be on or off, got "${value}"`, 'agency policy');
  return value === 'on';
}

function printPolicy(policy: PolicyView, out: (line: string) => void): void {
  out(`own-credentials  ${policy.ownCredentials ? 'on' : 'off'}`);
  out(`own-webhooks     ${policy.ownWebhooks ? 'on' : 'off'}`);
  out(policy.updatedAt === null ? 'never set (the defaults)' : `set ${isoTimestamp(policy.updatedAt)} by ${policy.updatedByEmail ?? 'the operator'}`);
}

/** `apas agency create|list|policy`. */
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
  {
    name: 'agency policy',
    summary: 'Show or set the agency\'s self-service policy: may users create their own API keys and OAuth clients, subscribe webhooks.',
    options: {
      agency: { type: 'string', value: 'AGENCY', required: true, description: 'The agency (custom id or id)' },
      'own-credentials': { type: 'string', value: 'on|off', description: 'Users may create and revoke their own API keys and OAuth clients' },
      'own-webhooks': { type: 'string', value: 'on|off', description: 'Users may subscribe webhooks for the projects they can read' },
    },
    notes: [
      'Without --own-credentials or --own-webhooks it shows the policy; both are off until set.',
      'Turning own-webhooks off stops every user\'s subscription at once: nothing more is sent, and what was waiting is not sent.',
    ],
    async run(input, io) {
      const change: PolicyChange = { ownCredentials: onOff(input, 'own-credentials'), ownWebhooks: onOff(input, 'own-webhooks') };
      const agency = text(input, 'agency');
      const policy = await withContext(io, async (ctx) => {
        const service = new SelfServicePolicyService(ctx);
        if (change.ownCredentials === undefined && change.ownWebhooks === undefined) return service.showFor(agency);
        await service.set({ operator: true }, change, agency);
        return service.showFor(agency);
      });
      printPolicy(policy, (line) => io.out(line));
      return 0;
    },
  },
];
