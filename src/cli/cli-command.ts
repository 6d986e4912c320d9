import { parseArgs } from 'node:util';
import type { CliIo } from './cli-context.ts';
import { UsageError } from './cli-error.ts';

/** One option of a command; `value` names a string option's value in the help text. */
export interface OptionSpec { type: 'string' | 'boolean'; description: string; required?: boolean; value?: string }

/** What a command received: option values and positional arguments. */
export interface CommandInput { options: Record<string, string | boolean | undefined>; args: string[] }

/** One command: `name` is its words after `apas` (e.g. "user create"). */
export interface CliCommand {
  name: string;
  summary: string;
  /** Required positional arguments, in order. */
  args?: { name: string; description: string }[];
  options?: Record<string, OptionSpec>;
  /** More lines for the help text. */
  notes?: string[];
  /** Options refused with a specific explanation (e.g. a password on the command line). */
  refused?: Record<string, string>;
  run(input: CommandInput, io: CliIo): Promise<number>;
}

/** Parses a command's arguments strictly; null when help was asked for. Throws UsageError on misuse. */
export function parseCommand(command: CliCommand, argv: string[]): CommandInput | null {
  for (const [key, reason] of Object.entries(command.refused ?? {})) {
    if (argv.some((a) => a === `--${key}` || a.startsWith(`--${key}=`))) throw new UsageError(reason, command.name);
  }
  const options = Object.fromEntries(Object.entries(command.options ?? {}).map(([k, o]) => [k, { type: o.type }]));
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\. To specify a positional argument.*$/s, ''), command.name);
  }
  if (parsed.values.help) return null;
  const expected = command.args ?? [];
  if (parsed.positionals.length < expected.length) throw new UsageError(`missing ${expected[parsed.positionals.length]!.name}`, command.name);
  if (parsed.positionals.length > expected.length) throw new UsageError(`unexpected argument "${parsed.positionals[expected.length]}"`, command.name);
  for (const [key, spec] of Object.entries(command.options ?? {})) {
    if (spec.required && parsed.values[key] === undefined) throw new UsageError(`missing --${key}`, command.name);
    if (spec.type === 'string' && parsed.values[key] === '') throw new UsageError(`--${key} must not be empty`, command.name);
  }
  return { options: parsed.values as CommandInput['options'], args: parsed.positionals };
}

/** A string option's value (required ones are checked by parseCommand). */
export function text(input: CommandInput, key: string): string {
  const value = input.options[key];
  if (typeof value !== 'string') throw new UsageError(`missing --${key}`);
  return value;
}

/** An optional string option's value. */
export function optionalText(input: CommandInput, key: string): string | undefined {
  const value = input.options[key];
  return typeof value === 'string' ? value : undefined;
}

/** The one-line synopsis, e.g. `apas grant add --user EMAIL --program PROGRAM --role ROLE [--sensitive]`. */
export function synopsis(command: CliCommand): string {
  const parts = [`apas ${command.name}`, ...(command.args ?? []).map((a) => a.name)];
  for (const [key, o] of Object.entries(command.options ?? {})) {
    const word = o.type === 'string' ? `--${key} ${o.value ?? key.toUpperCase()}` : `--${key}`;
    parts.push(o.required ? word : `[${word}]`);
  }
  return parts.join(' ');
}

/** The full help text of one command. */
export function commandHelp(command: CliCommand): string {
  const rows: [string, string][] = [
    ...(command.args ?? []).map((a): [string, string] => [a.name, a.description]),
    ...Object.entries(command.options ?? {}).map(([key, o]): [string, string] => [
      o.type === 'string' ? `--${key} ${o.value ?? key.toUpperCase()}` : `--${key}`,
      `${o.description}${o.required ? ' (required)' : ''}`,
    ]),
    ['-h, --help', 'Show this help'],
  ];
  const width = Math.max(...rows.map(([left]) => left.length));
  return [
    `Usage: ${synopsis(command)}`, '', command.summary, ...(command.notes ?? []), '',
    'Arguments and options:', ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`),
  ].join('\n');
}
