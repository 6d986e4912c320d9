#!/usr/bin/env node
// The installed `apas` command: TypeScript sources run through tsx, so there is no build step.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/main.ts');
process.exitCode = await runCli(process.argv.slice(2));
