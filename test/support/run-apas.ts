import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout's root, where `bin/apas.js` is. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `bin/apas.js`, the installed command's entry point. */
export const APAS_BIN = path.join(ROOT, 'bin', 'apas.js');

/** How a finished `apas` command ended and what it wrote. */
export interface ApasResult { code: number | null; stdout: string; stderr: string }

/**
 * Runs `node bin/apas.js ARGS` as an operator would: in `cwd` (the root unless given), with this process's
 * environment and `env` over it, `stdin` fed and closed; resolves when it exits.
 */
export function runApas(args: string[], options: { env?: Record<string, string>; cwd?: string; stdin?: string } = {}): Promise<ApasResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [APAS_BIN, ...args], { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

/**
 * Runs an `apas` command line in this process (src/cli/main.ts's runCli, with its own streams and environment), as
 * `runApas` does in a new one: the same exit code, output and errors, without the 1–2 s of CPU a process spends
 * loading the CLI. For everything but what only a real process shows (bin/apas.js, dist/, signals, `serve`).
 */
export async function runApasInProcess(args: string[], options: { env?: Record<string, string>; cwd?: string; stdin?: string } = {}): Promise<ApasResult> {
  const { runCli } = await import('../../src/cli/main.ts');
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    out: (text) => void (stdout += `${text}\n`),
    err: (text) => void (stderr += `${text}\n`),
    readStdin: async () => options.stdin ?? '',
    stdinIsTty: false,
    env: { ...process.env, ...options.env },
    cwd: options.cwd ?? ROOT,
  });
  return { code, stdout, stderr };
}
