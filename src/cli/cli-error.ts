/** An expected command-line failure: its message is printed as is (no stack) and the process exits with `exitCode`. */
export class CliError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** A command used the wrong way (unknown option, missing argument): exit code 2 and a pointer to the help. */
export class UsageError extends CliError {
  readonly command: string | null;

  constructor(message: string, command: string | null = null) {
    super(message, 2);
    this.name = 'UsageError';
    this.command = command;
  }
}
