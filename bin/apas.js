#!/usr/bin/env node
// The installed `apas` command: TypeScript sources run through tsx, so there is no build step.
import { register } from 'tsx/esm/api';

// libxml2-wasm is loaded before tsx's loader is registered: the loader would otherwise process its 1 MB module
// (the WebAssembly binary inlined) and keep about 150 MB of memory for it. It needs no transform: it is plain ESM.
await import('libxml2-wasm');
register();
const { runCli } = await import('../src/cli/main.ts');
process.exitCode = await runCli(process.argv.slice(2));
