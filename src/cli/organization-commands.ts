import { OrganizationService } from '../domain/organizations/organization-service.ts';
import { isoTimestamp } from '../model/clock.ts';
import { type CliCommand, optionalText } from './cli-command.ts';
import { type CliContext, withContext } from './cli-context.ts';

// Read-only: no mail is sent, so whether mail is on does not matter here.
function organizations(ctx: CliContext): OrganizationService {
  return new OrganizationService({ store: ctx.store, clock: ctx.clock, ids: ctx.ids, publicUrl: ctx.config.publicUrl, maxNumbersPerRequest: ctx.config.maxNumbersPerRequest, mailOn: false });
}

/** `apas organization list|members`: the installer organizations, which their own admins manage on the web pages. */
export const organizationCommands: CliCommand[] = [
  {
    name: 'organization list',
    summary: 'List the installer organizations: id, agency, member count and name.',
    options: { agency: { type: 'string', value: 'AGENCY', description: 'Only this agency\'s organizations (custom id or id)' } },
    async run(input, io) {
      const list = await withContext(io, (ctx) => organizations(ctx).listForOperator(optionalText(input, 'agency')));
      for (const o of list) io.out(`${o.id}  ${o.agency}  ${String(o.memberCount).padStart(4)} members  ${o.name}`);
      if (list.length === 0) io.err('No organizations.');
      return 0;
    },
  },
  {
    name: 'organization members',
    summary: 'List an organization\'s members (e-mail, role, since when) and its pending invitations.',
    args: [{ name: 'ORG', description: 'The organization\'s id (see `apas organization list`)' }],
    async run(input, io) {
      const view = await withContext(io, (ctx) => organizations(ctx).viewForOperator(input.args[0]!));
      io.out(`${view.organization.name} (${view.organization.id})`);
      for (const m of view.members) io.out(`member   ${m.email}  ${m.role.padEnd(6)}  since ${isoTimestamp(m.addedAt)}  ${m.name}`);
      for (const i of view.invitations) io.out(`invited  ${i.email}  by ${i.invitedBy}  expires ${isoTimestamp(i.expiresAt)}`);
      return 0;
    },
  },
];
