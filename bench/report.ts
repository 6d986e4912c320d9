/**
 * Renders bench/results/*.json as the markdown tables of docs/performance.md.
 *   npx tsx bench/report.ts            # prints the tables
 */
import fs from 'node:fs';
import path from 'node:path';
import type { RunResult } from './run.ts';

const dir = path.join(import.meta.dirname, 'results');

function table(run: RunResult): string {
  // Runs with --floor add the floor server's ratio for the reads (blank for writes and older runs).
  const floor = run.scenarios.some((s) => s.floorRatio !== undefined);
  const rows = run.scenarios.map((s) =>
    `| ${s.name} | ${s.ours.rps.toFixed(0)} | ${s.ours.p50} | ${s.ours.p99} | ${s.baseline.rps.toFixed(0)} | ${s.ratio.toFixed(2)} |${floor ? ` ${s.floorRatio?.toFixed(2) ?? ''} |` : ''} ${s.peakRssMb.toFixed(0)} |${s.ours.errors + s.ours.non2xx > 0 ? ' FAILED' : ''}`);
  return [
    `### ${run.db}, ${run.projects.toLocaleString('en-US')} projects (${run.date.slice(0, 10)}, ${run.machine}, ${run.connections} connections, ${run.duration} s each)`,
    '',
    `Loaded in ${(run.loadMs / 1000).toFixed(1)} s. Authentication: ${run.auth.authUs.toFixed(0)} µs per request (${(run.auth.share * 100).toFixed(1)}% of GetProjects limit=100). Peak server RSS: ${run.maxRssMb.toFixed(0)} MB.`,
    '',
    `| scenario | req/s | p50 ms | p99 ms | baseline req/s | ours/baseline |${floor ? ' floor/baseline |' : ''} peak RSS MB |`,
    `|---|---|---|---|---|---|${floor ? '---|' : ''}---|`,
    ...rows,
  ].join('\n');
}

/** Compares p50 latency at the largest run with the smallest of the same database. */
function scaling(runs: RunResult[]): string {
  const lines: string[] = [];
  for (const db of [...new Set(runs.map((r) => r.db))]) {
    const same = runs.filter((r) => r.db === db).sort((a, b) => a.projects - b.projects);
    if (same.length < 2) continue;
    const small = same[0]!;
    const large = same[same.length - 1]!;
    // The floor's own p50s, where both runs had --floor: how much of the growth is the database's statements.
    const floor = large.scenarios.some((s) => s.floor) && small.scenarios.some((s) => s.floor);
    lines.push(`### ${db}: p50 at ${large.projects.toLocaleString('en-US')} vs ${small.projects.toLocaleString('en-US')} projects`, '',
      `| scenario | p50 small | p50 large | factor |${floor ? ' floor p50 small | floor p50 large | floor factor |' : ''}`, `|---|---|---|---|${floor ? '---|---|---|' : ''}`);
    const factor = (a: number, b: number) => (b / Math.max(1, a)).toFixed(1);
    for (const s of large.scenarios) {
      const b = small.scenarios.find((x) => x.name === s.name);
      if (!b) continue;
      const floorCells = floor ? (s.floor && b.floor ? ` ${b.floor.p50} | ${s.floor.p50} | ${factor(b.floor.p50, s.floor.p50)} |` : ' | | |') : '';
      lines.push(`| ${s.name} | ${b.ours.p50} | ${s.ours.p50} | ${factor(b.ours.p50, s.ours.p50)} |${floorCells}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

const runs = fs.existsSync(dir)
  ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as RunResult)
  : [];
process.stdout.write(`${runs.sort((a, b) => a.db.localeCompare(b.db) || a.projects - b.projects).map(table).join('\n\n')}\n\n${scaling(runs)}\n`);
