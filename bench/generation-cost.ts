/**
 * `npx tsx bench/generation-cost.ts [N] [ROUNDS] [--pg]` — what asking for a document adds to the change that asks
 * (issue 32): SetProjectStatus to Approved for Installation in the demo program's file without documents, against the
 * same move in the same file with the interconnection agreement of bench/agreement-program.ts and an automation
 * that asks for it on that status. N projects of each per round, ROUNDS rounds, the two programs' order swapped every
 * round, measured with `app.inject` one request at a time as this process's CPU time per request (other work on a
 * shared machine hardly moves it) and, on SQLite, the SQL statements per request. The app runs no background work, so
 * nothing can render inside a request: afterwards the requests are still queued, and the generation task's rounds
 * (generateDueDocuments with the real renderer) render them, timed per document.
 */
import { generateDueDocuments } from '../src/domain/documents/document-generation-task.ts';
import { createDocumentRenderer } from '../src/domain/documents/document-renderer.ts';
import { changeReactions } from '../src/domain/wiring/change-reactions.ts';
import { systemClock } from '../src/model/clock.ts';
import type { DocumentRenderer } from '../src/model/document.ts';
import { DatabaseBlobStore } from '../src/store/database-blob-store.ts';
import { DOCS_PROGRAM, openBenchDatabase } from './agreement-program.ts';
import { watchStatements } from './in-process.ts';

const args = process.argv.slice(2).filter((a) => a !== '--pg');
const postgres = process.argv.includes('--pg');
const n = Number(args[0] ?? 100);
const rounds = Number(args[1] ?? 5);

let statements = 0;
let recording: string[] | null = null;
watchStatements((sql) => {
  statements++;
  recording?.push(sql.replace(/\s+/g, ' ').slice(0, 60));
});

// The same program file imported twice the same way: once without documents, once with the agreement and the automation.
const PLAIN = 'RES-SOLAR-PLAIN';
const db = await openBenchDatabase({ [PLAIN]: 'none', [DOCS_PROGRAM]: 'automation' }, postgres);
const move = `<SetProjectStatusRequest xmlns="${db.namespace}" StatusId="ApprovedForInstallation"/>`;

/** CPU microseconds (user + system) since `from`. */
function cpuSince(from: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(from);
  return d.user + d.system;
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const moveOf = (program: string, id: string) => db.call('POST', `/services/v2/Programs/${program}/Projects/${id}/Status`, move);

/**
 * CPU µs per SetProjectStatus over n freshly submitted projects of a program (the mean, and the median request's, which
 * a collection or another process's burst on the same core moves less), wall ms and SQL statements per request.
 */
async function measure(program: string): Promise<{ cpu: number; cpuMedian: number; wall: number; sql: number }> {
  const projects = await db.submitted(program, n);
  if (program === DOCS_PROGRAM) asked.push(...projects);
  const counted = statements;
  const wall = performance.now();
  const each: number[] = [];
  const started = process.cpuUsage();
  for (const id of projects) {
    const one = process.cpuUsage();
    await moveOf(program, id);
    each.push(cpuSince(one));
  }
  return { cpu: cpuSince(started) / n, cpuMedian: median(each), wall: (performance.now() - wall) / n, sql: (statements - counted) / n };
}

/** The SQL statements one move runs (their first words), to name what the document's request adds. */
async function statementsOfOneMove(program: string): Promise<string[]> {
  const [id] = await db.submitted(program, 1);
  if (program === DOCS_PROGRAM) asked.push(id!);
  recording = [];
  await moveOf(program, id!);
  const seen = recording;
  recording = null;
  return seen;
}

/** The projects moved in the program whose automation asks for the agreement. */
const asked: string[] = [];

// A counting renderer around the real one: it shows that nothing renders until the generation task runs.
const real = createDocumentRenderer({ store: db.store });
let renders = 0;
const renderer: DocumentRenderer = {
  renderForProject(input) {
    renders++;
    return real.renderForProject(input);
  },
};

await measure(PLAIN);
await measure(DOCS_PROGRAM);
const pct = (a: number, b: number) => `${a > b ? '+' : ''}${(((a - b) / b) * 100).toFixed(1)} %`;
const ratios: number[] = [];
const medianRatios: number[] = [];
for (let r = 1; r <= rounds; r++) {
  // Swapped every round, so that a slow stretch of the machine falls on both programs alike.
  const first = r % 2 === 1 ? PLAIN : DOCS_PROGRAM;
  const a = await measure(first);
  const b = await measure(first === PLAIN ? DOCS_PROGRAM : PLAIN);
  const [plain, docs] = first === PLAIN ? [a, b] : [b, a];
  ratios.push(docs.cpu / plain.cpu);
  medianRatios.push(docs.cpuMedian / plain.cpuMedian);
  process.stdout.write(`round ${r}: CPU per SetProjectStatus ${plain.cpu.toFixed(0)} → ${docs.cpu.toFixed(0)} µs (${pct(docs.cpu, plain.cpu)}), `
    + `median request ${plain.cpuMedian.toFixed(0)} → ${docs.cpuMedian.toFixed(0)} µs (${pct(docs.cpuMedian, plain.cpuMedian)}), `
    + `wall ${plain.wall.toFixed(1)} → ${docs.wall.toFixed(1)} ms${postgres ? '' : `, SQL statements ${plain.sql.toFixed(1)} → ${docs.sql.toFixed(1)}`}\n`);
}
process.stdout.write(`median of ${rounds} rounds (${postgres ? 'PostgreSQL' : 'SQLite'}): a status change that asks for the agreement costs ${pct(median(ratios), 1)} CPU `
  + `(rounds ${pct(Math.min(...ratios), 1)} to ${pct(Math.max(...ratios), 1)}); the median request ${pct(median(medianRatios), 1)}\n`);
if (!postgres) {
  // What the change adds, statement by statement: the SQL one move runs in each program, the plain one's taken away.
  const extra = await statementsOfOneMove(DOCS_PROGRAM);
  for (const sql of await statementsOfOneMove(PLAIN)) {
    const i = extra.indexOf(sql);
    if (i >= 0) extra.splice(i, 1);
  }
  process.stdout.write(`statements the request adds to the move: ${extra.join(' | ')}\n`);
}

// What the moves left: a queued request for each and no file, the renderer never called.
const states = new Map<string, number>();
for (const id of asked) for (const r of await db.store.documents.listProjectDocumentRequests(id)) states.set(r.state, (states.get(r.state) ?? 0) + 1);
process.stdout.write(`after ${asked.length} moves: requests ${JSON.stringify(Object.fromEntries(states))}, renders during the requests ${renders}\n`);
if (renders !== 0 || states.get('queued') !== asked.length) throw new Error('a request rendered inside the change, or a move asked for no document');

// The generation task's rounds, as serve runs them after a change: each claims five requests and renders them.
const deps = { store: db.store, clock: systemClock, ids: db.ids, reactions: changeReactions(), renderer, blobs: new DatabaseBlobStore(db.store, systemClock) };
const taskRounds = 6;
const wall = performance.now();
const started = process.cpuUsage();
for (let i = 0; i < taskRounds; i++) await generateDueDocuments(deps);
const generated = renders;
process.stdout.write(`generation task: ${generated} agreements rendered and stored in ${taskRounds} rounds, `
  + `${(cpuSince(started) / generated / 1000).toFixed(0)} ms CPU and ${((performance.now() - wall) / generated).toFixed(0)} ms wall each, outside any request\n`);
let done = 0;
for (const id of asked) done += (await db.store.documents.listProjectDocumentRequests(id)).filter((r) => r.state === 'generated').length;
if (done !== generated) throw new Error(`${generated} renders stored ${done} versions`);
await db.close();
