import { AccountService } from '../domain/accounts/account-service.ts';
import { MfaService } from '../domain/accounts/mfa-service.ts';
import { type CliCommand, optionalText, text } from './cli-command.ts';
import { type CliIo, withContext } from './cli-context.ts';
import { UsageError } from './cli-error.ts';

const PASSWORD_NOTE = [
  'The password is read from standard input (all of it, one trailing newline removed), never from the',
  'command line, where other users could see it. Example: printf \'%s\' "$PASSWORD" | apas …',
];

/** Reads a password from stdin; refuses a terminal (it would echo) and an empty password. */
export async function readPassword(io: CliIo, command: string): Promise<string> {
  if (io.stdinIsTty) throw new UsageError('pipe the password on standard input; it is never read from a terminal or the command line', command);
  const password = (await io.readStdin()).replace(/\r?\n$/, '');
  if (password === '') throw new UsageError('no password on standard input', command);
  return password;
}

const REFUSED = { password: 'the password is read from standard input, never from the command line' };

const email = { type: 'string', value: 'EMAIL', required: true, description: 'The user\'s e-mail address' } as const;

function toggle(disabled: boolean): CliCommand {
  return {
    name: disabled ? 'user disable' : 'user enable',
    summary: disabled ? 'Disable a user: no sign-in, no API key use, until enabled again.' : 'Enable a disabled user again.',
    options: { email },
    async run(input, io) {
      const user = await withContext(io, (ctx) => new AccountService(ctx).setDisabled(text(input, 'email'), disabled));
      io.out(`${disabled ? 'Disabled' : 'Enabled'} user ${user.email}.`);
      return 0;
    },
  };
}

/** `apas user create|list|set-password|disable|enable|mfa-enrol|mfa-disable`. */
export const userCommands: CliCommand[] = [
  {
    name: 'user create',
    summary: 'Create a user in an agency.',
    notes: PASSWORD_NOTE,
    refused: REFUSED,
    options: {
      agency: { type: 'string', value: 'AGENCY', required: true, description: 'The agency\'s custom id or id' },
      email,
      name: { type: 'string', value: 'NAME', required: true, description: 'The user\'s full name' },
      'agency-admin': { type: 'boolean', description: 'Make the user an admin of every program of the agency' },
    },
    async run(input, io) {
      const password = await readPassword(io, 'user create');
      const user = await withContext(io, (ctx) => new AccountService(ctx).createUser({
        agency: text(input, 'agency'), email: text(input, 'email'), name: text(input, 'name'), password,
        agencyAdmin: input.options['agency-admin'] === true,
      }));
      io.out(`Created user ${user.email} (id ${user.id})${user.agencyAdmin ? ' as agency admin' : ''}.`);
      return 0;
    },
  },
  {
    name: 'user list',
    summary: 'List users by e-mail address: id, agency, name, and whether agency admin or disabled (never a secret).',
    options: { agency: { type: 'string', value: 'AGENCY', description: 'Only this agency\'s users (its custom id or id)' } },
    async run(input, io) {
      const users = await withContext(io, (ctx) => new AccountService(ctx).listUsers(optionalText(input, 'agency')));
      for (const u of users) {
        const flags = [u.agencyAdmin ? 'agency-admin' : '', u.disabled ? 'disabled' : ''].filter((f) => f !== '').join(',');
        io.out(`${u.email}  ${u.id}  ${u.agency.customId ?? u.agency.id}  ${u.name}${flags ? `  ${flags}` : ''}`);
      }
      if (users.length === 0) io.err('No users yet; create one with "apas user create".');
      return 0;
    },
  },
  {
    name: 'user set-password',
    summary: 'Replace a user\'s password.',
    notes: PASSWORD_NOTE,
    refused: REFUSED,
    options: { email },
    async run(input, io) {
      const password = await readPassword(io, 'user set-password');
      await withContext(io, (ctx) => new AccountService(ctx).setPassword(text(input, 'email'), password));
      io.out(`Changed the password of ${text(input, 'email')}.`);
      return 0;
    },
  },
  toggle(true),
  toggle(false),
  {
    name: 'user mfa-enrol',
    summary: 'Enrol a user in multi-factor authentication (TOTP); prints the otpauth:// URI once.',
    notes: [
      'Show the URI to the user once (an authenticator app reads it, usually as a QR code); it is not shown again.',
      'Enrolling again replaces the secret. From now on every request of this user needs X-Mfa-Totp or X-Mfa-Session-Token.',
    ],
    options: { email, issuer: { type: 'string', value: 'NAME', description: 'The issuer name the app shows (default apas)' } },
    async run(input, io) {
      const issuer = typeof input.options['issuer'] === 'string' ? input.options['issuer'] : 'apas';
      const uri = await withContext(io, (ctx) => new MfaService(ctx).enrol(text(input, 'email'), issuer));
      io.out(uri);
      io.err('This otpauth:// URI is shown only once; store it in the user\'s authenticator app now.');
      return 0;
    },
  },
  {
    name: 'user mfa-disable',
    summary: 'End a user\'s multi-factor authentication and delete the user\'s MFA session token.',
    options: { email },
    async run(input, io) {
      await withContext(io, (ctx) => new MfaService(ctx).disable(text(input, 'email')));
      io.out(`Multi-factor authentication of ${text(input, 'email')} is off.`);
      return 0;
    },
  },
];
