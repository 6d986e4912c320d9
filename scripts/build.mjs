/**
 * `npm run build`: compiles src/ to dist/ (tsconfig.build.json) and copies the files the compiled code reads next
 * to itself, so that `node bin/apas.js` runs with no compiler and no dev dependency installed.
 * Plain JavaScript, so that it needs nothing but node and the `tsc` that `npm run` puts on PATH.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
/**
 * Non-TypeScript files under src/ that the code finds relative to its own module (`import.meta.url`). Files
 * outside src/ (schemas/, programs/) need no copy: dist/ sits at the same depth as src/, so `../../schemas/…`
 * resolves to the same place from either.
 */
const ASSETS = ['web/assets'];

// A clean start, so that a module deleted from src/ does not live on in dist/.
fs.rmSync(DIST, { recursive: true, force: true });
const tsc = spawnSync('tsc', ['-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
if (tsc.error) {
  process.stderr.write(`build: could not run tsc (${tsc.error.message}); run it as \`npm run build\` after \`npm ci\`\n`);
  process.exit(1);
}
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
for (const asset of ASSETS) fs.cpSync(path.join(ROOT, 'src', asset), path.join(DIST, asset), { recursive: true });
