/**
 * `node scripts/shrinkwrap.mjs write|remove`, run by npm's prepack and postpack: npm never packs package-lock.json,
 * but it does pack npm-shrinkwrap.json, which `npm ci --omit=dev` in the unpacked release package then installs
 * from. So the package carries a copy of the checkout's lock file for the time of `npm pack` / `npm publish`, and
 * the checkout keeps only package-lock.json (a shrinkwrap left there would take precedence over it for `npm ci`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LOCK = path.join(ROOT, 'package-lock.json');
const SHRINKWRAP = path.join(ROOT, 'npm-shrinkwrap.json');

const action = process.argv[2];
if (action === 'write') {
  // The same content: a lock file and a shrinkwrap file have one format (lockfileVersion 3), only the name differs.
  fs.copyFileSync(LOCK, SHRINKWRAP);
} else if (action === 'remove') {
  fs.rmSync(SHRINKWRAP, { force: true });
} else {
  process.stderr.write('usage: node scripts/shrinkwrap.mjs write|remove\n');
  process.exit(2);
}
