/**
 * Data import at volume (issue 34, §5): `apas import projects` of N rows (default 10,000) of the demo program on a
 * fresh SQLite database, in process through the command's own
 * code (runCli): a dry run, the import, the same file again (every row unchanged), and a file that changes every row.
 * Each row is a change step of its own with the demo's rules, automations, audit and events.
 *
 *   npx tsx bench/import-projects.ts [--rows 10000] [--profile]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { runCli } from '../src/cli/main.ts';
import type { CliIo } from '../src/cli/cli-context.ts';
import { DEMO_CREDENTIALS } from '../src/domain/programs/demo.ts';

const args = process.argv.slice(2);
const rows = Number(args[args.indexOf('--rows') + 1] ?? 10_000) || 10_000;
const profile = args.includes('--profile');

const HEADER = 'ExternalId,CustomerName,CustomerEmail,ServiceAddress,UtilityAccountNumber,ServiceType,SystemSizeKwDc,SystemSizeKwAc,ModuleCount,InverterMake,MountingType,HasBattery,BatteryCapacityKwh,InstallerName,Owner,Status';

/** The demo program's application, complete, row `i` of `n`; `variant` changes a value in every row. */
function row(i: number, variant: number, owner: string): string {
  const kw = (3 + (i % 70) / 10 + variant / 100).toFixed(2);
  const battery = i % 3 === 0;
  const status = i % 2 === 0 ? 'Application Review' : 'Unsubmitted';
  return [
    `LEGACY-${String(i).padStart(6, '0')}`, `Customer ${i}`, `customer${i}@example.org`, `"${i} Main Street, Springfield"`, `ACC-${100000 + i}`,
    '1P-120-240', kw, (Number(kw) * 0.9).toFixed(2), String(8 + (i % 40)), 'ENPHASE', 'Roof', String(battery), battery ? '13.5' : '',
    'Sunny Installers', owner, status,
  ].join(',');
}

function file(dir: string, name: string, variant: number): string {
  const owner = DEMO_CREDENTIALS.find((c) => c.role === 'applicant')!.email;
  const lines = [HEADER];
  for (let i = 1; i <= rows; i++) lines.push(row(i, variant, owner));
  const where = path.join(dir, name);
  fs.writeFileSync(where, `${lines.join('\n')}\n`);
  return where;
}

async function apas(argv: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number; out: string[]; err: string[]; ms: number; cpuMs: number }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t), readStdin: async () => '', stdinIsTty: false, env, cwd };
  const started = performance.now();
  const cpu = process.cpuUsage();
  const code = await runCli(argv, io);
  const used = process.cpuUsage(cpu);
  return { code, out, err, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-import-bench-'));
  // The key file for sealed values (the demo's account numbers) is made beside the database, as `apas` does.
  const env = { ...process.env, DATABASE_URL: path.join(dir, 'bench.db') };
  try {
    const seeded = await apas(['demo'], env, dir);
    if (seeded.code !== 0) throw new Error(`apas demo failed: ${seeded.err.join('\n')}`);
    const admin = DEMO_CREDENTIALS.find((c) => c.role === 'admin')!.email;
    const first = file(dir, 'applications.csv', 0);
    const changed = file(dir, 'applications-changed.csv', 1);
    const base = ['import', 'projects', '--program', 'RES-SOLAR', '--as', admin];
    const session = profile ? new Session() : null;
    if (session) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    const figures: Record<string, { ms: number; cpuMs: number; summary: string }> = {};
    for (const [name, argv] of [
      ['dry run', [...base, '--dry-run', first]], ['import', [...base, first]], ['again (unchanged)', [...base, first]], ['every row changed', [...base, changed]],
    ] as const) {
      const r = await apas([...argv], env, dir);
      const summary = r.err.at(-1) ?? '';
      if (r.code !== 0) throw new Error(`${name}: exit ${r.code}: ${r.err.slice(-3).join(' | ')} ${r.out.filter((l) => l.startsWith('  ')).slice(0, 3).join(' | ')}`);
      figures[name] = { ms: Math.round(r.ms), cpuMs: Math.round(r.cpuMs), summary };
      console.log(`${name.padEnd(18)} ${(r.ms / 1000).toFixed(1).padStart(6)} s wall ${(r.cpuMs / 1000).toFixed(1).padStart(6)} s CPU  ${(rows / (r.ms / 1000)).toFixed(0).padStart(6)} rows/s  ${summary}`);
    }
    if (session) {
      const { profile: cpu } = await session.post('Profiler.stop');
      const out = path.join(os.tmpdir(), 'import-projects.cpuprofile');
      fs.writeFileSync(out, JSON.stringify(cpu));
      console.log(`profile written to ${out}`);
    }
    console.log(JSON.stringify({ rows, database: 'sqlite', loadAverage: os.loadavg().map((l) => l.toFixed(1)), figures }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
