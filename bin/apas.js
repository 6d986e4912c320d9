#!/usr/bin/env node
// The installed `apas` command. It runs the compiled code in dist/ (`npm run build`; npm start, npm test and
// npm pack build it first), so a production install needs no compiler and no dev dependency.
import fs from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
const sources = new URL('../src/', import.meta.url);

if (!fs.existsSync(main)) {
  process.stderr.write('apas: dist/ is missing; run `npm run build` first (a checkout needs `npm ci` before that)\n');
  process.exit(1);
}
// In a checkout, a source newer than the build means dist/ would run yesterday's code: say so instead of running.
// (A production install has no src/, so it skips this.)
const stale = fs.existsSync(sources) ? newerThan(sources, fs.statSync(main).mtimeMs) : undefined;
if (stale) {
  process.stderr.write(`apas: src/${stale} changed after the last build; run \`npm run build\` first\n`);
  process.exit(1);
}
const { runCli } = await import(main.href);
process.exitCode = await runCli(process.argv.slice(2));

/** The path (relative to `dir`) of the first file under `dir` modified after `since`, if any. */
function newerThan(dir, since, prefix = '') {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix + entry.name;
    const url = new URL(entry.isDirectory() ? `${entry.name}/` : entry.name, dir);
    const found = entry.isDirectory() ? newerThan(url, since, `${rel}/`) : fs.statSync(url).mtimeMs > since ? rel : undefined;
    if (found) return found;
  }
  return undefined;
}
