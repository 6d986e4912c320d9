import { AccountService } from '../domain/accounts/account-service.ts';
import { BUILT_IN_ROLES, PRIVILEGES } from '../domain/roles/privileges.ts';
import { PROGRAM_ROLES } from '../model/model.ts';
import { type CliCommand, optionalText, text } from './cli-command.ts';
import { withContext } from './cli-context.ts';

const user = { type: 'string', value: 'EMAIL', required: true, description: 'The user\'s e-mail address' } as const;
const program = { type: 'string', value: 'PROGRAM', required: true, description: 'The program\'s custom id or id (in the user\'s agency)' } as const;

/** `apas grant add|remove|list`. */
export const grantCommands: CliCommand[] = [
  {
    name: 'grant add',
    summary: 'Give a user a role in a program (replacing any role the user had there).',
    notes: [
      '',
      'Roles: the built-in ones below, or the customId of a role the program file defines (its `roles:`).',
      ...Object.entries(BUILT_IN_ROLES).map(([name, privileges]) => `  ${name}: ${privileges.length === Object.keys(PRIVILEGES).length - 1 ? 'every privilege but revealSensitive' : privileges.join(', ')}`),
      'revealSensitive comes with --sensitive (and with being an agency admin), whatever the role.',
      'Privileges:',
      ...Object.entries(PRIVILEGES).map(([name, description]) => `  ${name}: ${description}`),
    ],
    options: {
      user, program,
      role: { type: 'string', value: 'ROLE', required: true, description: `One of ${PROGRAM_ROLES.join(', ')}, or a role of the program's own` },
      sensitive: { type: 'boolean', description: 'Also allow viewing sensitive field values (the privilege revealSensitive)' },
      groups: { type: 'string', value: 'GROUPS', description: 'Limit the grant to the projects of these access groups (comma-separated customIds of the program\'s accessGroups)' },
    },
    async run(input, io) {
      const groups = optionalText(input, 'groups');
      const grant = await withContext(io, (ctx) => new AccountService(ctx).grant(
        text(input, 'user'), text(input, 'program'), text(input, 'role'), input.options.sensitive === true,
        groups === undefined ? null : groups.split(',').map((g) => g.trim()).filter((g) => g !== ''),
      ));
      const limit = grant.accessGroups ? ` limited to the access groups ${grant.accessGroups.join(', ')}` : '';
      io.out(`Granted ${text(input, 'user')} the role ${grant.role} in program ${text(input, 'program')}${grant.sensitive ? ' with sensitive data' : ''}${limit}.`);
      return 0;
    },
  },
  {
    name: 'grant remove',
    summary: 'Remove a user\'s role in a program.',
    options: { user, program },
    async run(input, io) {
      await withContext(io, (ctx) => new AccountService(ctx).revokeGrant(text(input, 'user'), text(input, 'program')));
      io.out(`Removed the grant of ${text(input, 'user')} in program ${text(input, 'program')}.`);
      return 0;
    },
  },
  {
    name: 'grant list',
    summary: 'List grants by program and user: program, user, role, whether sensitive data may be seen, and the access groups a grant is limited to.',
    notes: ['Without --user or --program every grant is listed; an agency admin needs no grant (admin of every program of the agency).'],
    options: {
      user: { ...user, required: false, description: 'Only this user\'s grants (an e-mail address)' },
      program: { ...program, required: false, description: 'Only this program\'s grants (its id or custom id)' },
      agency: { type: 'string', value: 'AGENCY', description: 'The program\'s agency (custom id or id), when several agencies use its custom id' },
    },
    async run(input, io) {
      const grants = await withContext(io, (ctx) => new AccountService(ctx).listGrants({
        user: optionalText(input, 'user'), program: optionalText(input, 'program'), agency: optionalText(input, 'agency'),
      }));
      for (const g of grants) io.out(`${g.programCustomId}  ${g.email}  ${g.role}${g.sensitive ? '  sensitive' : ''}${g.accessGroups ? `  groups ${g.accessGroups.join(',')}` : ''}`);
      if (grants.length === 0) io.err('No grants match.');
      return 0;
    },
  },
];
