/**
 * `npx tsx bench/count-queries.ts DIR/bench.db METHOD URL [BODYFILE]` — the SQL statements one API request runs
 * on a SQLite database kept by `npm run bench -- --data-dir DIR` (as the admin of the demo), after two warm-ups.
 */
import fs from 'node:fs';
import { demoAuth, openApp, watchStatements } from './in-process.ts';

const [file, method, url, bodyFile] = process.argv.slice(2);
const seen: string[] = [];
watchStatements((sql) => seen.push(sql.slice(0, 160)));
const { app, close } = await openApp(file!);
const request = { method: method as 'GET', url: url!, headers: { ...demoAuth('admin'), 'content-type': 'application/xml' }, ...(bodyFile ? { payload: fs.readFileSync(bodyFile) } : {}) };
await app.inject(request);
await app.inject(request);
seen.length = 0;
const res = await app.inject(request);
process.stdout.write(`${res.statusCode}, ${seen.length} statements\n${seen.join('\n')}\n`);
await close();
