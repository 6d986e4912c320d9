/**
 * `npx tsx bench/list-load-cost.ts [ROUNDS] [--pg]` — what a long list costs (issue 34, §2): loading the demo's sample
 * of 10,000 approved inverters (programs/approved-inverters.csv) into its list, first and as a refresh that replaces
 * the rows (checking the file, one transaction of rows and words), loading the program's model again afterwards (it
 * holds the rows), and searching the list as the form page does (the first 50 matches, through the words index), per
 * search, for a few typical queries. Wall times on this machine, the median of ROUNDS; SQLite unless --pg.
 */
import { readFileSync } from 'node:fs';
import { DEMO_INVERTERS_PATH } from '../src/domain/programs/demo.ts';
import { loadListRows } from '../src/domain/lists/list-load.ts';
import { queryWords } from '../src/domain/lists/list-words.ts';
import { SHOWN_MATCHES } from '../src/domain/lists/list-choices.ts';
import { programCheckers } from '../src/domain/wiring/program-checkers.ts';
import { systemClock } from '../src/model/clock.ts';
import { RandomIdGenerator } from '../src/model/ids.ts';
import { openBenchDatabase } from './agreement-program.ts';

const postgres = process.argv.includes('--pg');
const rounds = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 5);
const QUERIES = ['se7600', 'sunny boy 7.7', 'iq8', 'primo 7.6 208', 'us rsd', 'hm 400 r2', 'enphase', 'zzz'];
const SEARCHES_PER_QUERY = 100;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e6;

// The demo seeded on a fresh database (an embedded PostgreSQL with --pg), without the list's rows.
const db = await openBenchDatabase({}, postgres);
try {
  const deps = { store: db.store, clock: systemClock, ids: new RandomIdGenerator(), checkers: programCheckers() };
  const csv = readFileSync(DEMO_INVERTERS_PATH, 'utf8');
  const target = { agencyRef: 'demo', programRef: 'RES-SOLAR', listRef: 'ApprovedInverters' };
  const loads: number[] = [];
  const models: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    const report = await loadListRows(deps, target, csv);
    loads.push(ms(start));
    if (report.rows !== 10_000) throw new Error(`loaded ${report.rows} rows`);
    const program = (await db.store.programs.findProgram('RES-SOLAR'))!;
    const read = process.hrtime.bigint();
    await db.store.programs.loadProgramModel(program);
    models.push(ms(read));
  }
  const model = await db.store.programs.loadProgramModel((await db.store.programs.findProgram('RES-SOLAR'))!);
  const listId = model.lists.find((l) => l.customId === 'ApprovedInverters')!.id;
  console.log(`${postgres ? 'postgres' : 'sqlite'}: load of 10,000 rows, median of ${rounds}: ${median(loads).toFixed(0)} ms (first ${loads[0]!.toFixed(0)} ms, all ${loads.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`  model read again after a load (holds the rows): median ${median(models).toFixed(0)} ms`);
  for (const q of QUERIES) {
    const times: number[] = [];
    let found = 0;
    for (let i = 0; i < SEARCHES_PER_QUERY; i++) {
      const start = process.hrtime.bigint();
      const page = await db.store.listRows.searchListRows(listId, queryWords(q), SHOWN_MATCHES);
      times.push(ms(start));
      found = page.rows.length + (page.more ? 1 : 0);
    }
    console.log(`  search "${q}": median ${median(times).toFixed(2)} ms, p99 ${[...times].sort((a, b) => a - b)[Math.floor(times.length * 0.99)]!.toFixed(2)} ms (${found > SHOWN_MATCHES ? `${SHOWN_MATCHES}+` : found} matches)`);
  }
} finally {
  await db.close();
}
