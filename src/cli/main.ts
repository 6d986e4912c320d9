import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../config.ts';
import { ApiError } from '../domain/api-error.ts';
import { signOnCommands } from './sign-on-commands.ts';
import { connectionCommands } from './connection-commands.ts';
import { agencyCommands } from './agency-commands.ts';
import { backupCommands } from './backup-commands.ts';
import { clientCommands } from './client-commands.ts';
import { type CliCommand, commandHelp, parseCommand, synopsis } from './cli-command.ts';
import { type CliIo, processIo } from './cli-context.ts';
import { CliError, UsageError } from './cli-error.ts';
import { demoCommand } from './demo-command.ts';
import { grantCommands } from './grant-commands.ts';
import { importCommands } from './import-commands.ts';
import { keyCommands } from './key-commands.ts';
import { mailCommands } from './mail-commands.ts';
import { migrateCommand } from './migrate-command.ts';
import { moveCommand } from './move-command.ts';
import { organizationCommands } from './organization-commands.ts';
import { programCommands } from './program-commands.ts';
import { listCommands } from './list-commands.ts';
import { secretsCommands } from './secrets-commands.ts';
import { userCommands } from './user-commands.ts';
import { webhookCommands } from './webhook-commands.ts';

const SERVE: CliCommand = {
  name: 'serve',
  summary: 'Run the HTTP service until SIGINT or SIGTERM; --demo seeds the demo data first.',
  options: { demo: { type: 'boolean', description: 'Seed the demo agency, program and accounts, and print their credentials' } },
  // Never called: run() loads serve-command.ts on demand, as the administrative commands do not need the server.
  run: async () => 1,
};

const COMMANDS: readonly CliCommand[] = [
  SERVE, migrateCommand, ...agencyCommands, ...signOnCommands, ...userCommands, ...grantCommands, ...keyCommands, ...clientCommands, ...organizationCommands, ...programCommands, ...connectionCommands, ...listCommands, demoCommand,
  ...backupCommands, moveCommand, ...webhookCommands, ...secretsCommands, ...mailCommands, ...importCommands,
];

const ENVIRONMENT = [
  'Environment:',
  '  DATABASE_URL  a SQLite file path (default ./data/apas.db), sqlite:PATH, or a postgres:// URL',
  '  APAS_*        server settings; see the README',
];

/** Runs one `apas` command line and returns the exit code: 0 success, 1 failure, 2 usage error. */
export async function runCli(argv: string[], io: CliIo = processIo()): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    return reportError(error, io);
  }
}

async function dispatch(argv: string[], io: CliIo): Promise<number> {
  const [first, second] = argv;
  if (first === undefined) {
    io.err(overview());
    return 2;
  }
  if (first === 'help' || first === '--help' || first === '-h') return help(argv.slice(1), io);
  const group = COMMANDS.filter((c) => c.name.split(' ')[0] === first);
  if (group.length === 0) throw new UsageError(`unknown command "${first}"`);
  const single = group.find((c) => c.name === first);
  if (single) return run(single, argv.slice(1), io);
  if (second === undefined || second === '--help' || second === '-h') {
    (second ? io.out : io.err)(groupHelp(first, group));
    return second ? 0 : 2;
  }
  // Two words, or three for a subgroup (`agency sso set`).
  const command = group.find((c) => c.name === `${first} ${second}`) ?? group.find((c) => c.name === `${first} ${second} ${argv[2]}`);
  if (!command) {
    const sub = group.filter((c) => c.name.startsWith(`${first} ${second} `));
    if (sub.length > 0) {
      io.err(groupHelp(`${first} ${second}`, sub));
      return 2;
    }
    throw new UsageError(`unknown command "${first} ${second}"`, first);
  }
  return run(command, argv.slice(command.name.split(' ').length), io);
}

async function run(command: CliCommand, argv: string[], io: CliIo): Promise<number> {
  const input = parseCommand(command, argv);
  if (input === null) {
    io.out(commandHelp(command));
    return 0;
  }
  if (command !== SERVE) return command.run(input, io);
  const { runServe } = await import('./serve-command.ts');
  return runServe(argv);
}

function help(words: string[], io: CliIo): number {
  if (words.length === 0) {
    io.out(overview());
    return 0;
  }
  const name = words.join(' ');
  const command = COMMANDS.find((c) => c.name === name);
  const group = COMMANDS.filter((c) => c.name.split(' ')[0] === name);
  if (command) io.out(commandHelp(command));
  else if (group.length > 0) io.out(groupHelp(name, group));
  else throw new UsageError(`unknown command "${name}"`);
  return 0;
}

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'apas: the Application and Process Automation Service', '', 'Usage: apas COMMAND [ARGUMENTS] [OPTIONS]', '', 'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`), '',
    'Run "apas help COMMAND" or "apas COMMAND --help" for its arguments and options.', '', ...ENVIRONMENT,
  ].join('\n');
}

function groupHelp(name: string, group: CliCommand[]): string {
  return [`Usage: apas ${name} ${group.map((c) => c.name.slice(name.length + 1)).join('|')} …`, '', ...group.map((c) => `  ${synopsis(c)}\n      ${c.summary}`)].join('\n');
}

/** Expected failures print one clear message; only a bug earns a stack trace. */
function reportError(error: unknown, io: CliIo): number {
  if (error instanceof UsageError) {
    io.err(`apas: ${error.message}`);
    io.err(`Run "apas help${error.command ? ` ${error.command}` : ''}" for usage.`);
    return 2;
  }
  if (isParseArgsError(error)) {
    io.err(`apas: ${(error as Error).message}`);
    return 2;
  }
  if (error instanceof CliError) {
    io.err(`apas: ${error.message}`);
    return error.exitCode;
  }
  if (error instanceof ApiError || error instanceof ConfigError) {
    io.err(`apas: ${error.message}`);
    return 1;
  }
  io.err(`apas: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return 1;
}

// `apas serve` parses its own options; node:util reports misuse with these codes.
function isParseArgsError(error: unknown): boolean {
  return error instanceof TypeError && String((error as NodeJS.ErrnoException).code ?? '').startsWith('ERR_PARSE_ARGS');
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return pathToFileURL(realpathSync(script)).href === import.meta.url;
  } catch {
    return false;
  }
}

if (isEntryPoint()) process.exitCode = await runCli(process.argv.slice(2));
