/**
 * `npx tsx bench/rules-cost.ts [N] [ROUNDS]` — what the demo program's rules (docs/programs.md) add to a draft save and
 * a submission of its Interconnection Application: the demo program as shipped against the same program with every
 * rule and calculated field taken out, side by side in one process on a fresh SQLite database in a temporary
 * directory, measured with `app.inject` one request at a time (N requests per round, ROUNDS alternating rounds) as the CPU time of
 * this process per request, which other work on the machine hardly moves.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '../src/config.ts';
import { DEMO_AGENCY, DEMO_PROGRAM_PATH, seedDemo } from '../src/domain/programs/demo.ts';
import { validateProgramFile } from '../src/domain/programs/program-file.ts';
import { importProgram } from '../src/domain/programs/program-import.ts';
import { buildApp } from '../src/http/app.ts';
import { decideForm } from '../src/domain/rules/form-rules.ts';
import { ruledState } from '../src/domain/rules/rule-state.ts';
import { systemClock } from '../src/model/clock.ts';
import { RandomIdGenerator } from '../src/model/ids.ts';
import { DatabaseBlobStore } from '../src/store/database-blob-store.ts';
import { openDatabase } from '../src/store/database.ts';
import { createKyselyStore } from '../src/store/kysely-store.ts';
import { ephemeralSecretBox } from '../src/store/secret-box.ts';
import { TINY_PDF } from '../test/support/tiny-pdf.ts';
import { demoAuth, watchStatements } from './in-process.ts';
import { programCheckers } from '../src/domain/wiring/program-checkers.ts';

// SQL statements run, to count per request: unlike time, the same on every run.
let statements = 0;
watchStatements(() => {
  statements++;
});

const n = Number(process.argv[2] ?? 300);
const rounds = Number(process.argv[3] ?? 5);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-rules-bench-'));
const config = loadConfig({ DATABASE_URL: path.join(dir, 'bench.db'), APAS_RATE_LIMIT_MAX: '10000000' });
const store = createKyselyStore(await openDatabase(config.database), { secrets: ephemeralSecretBox() });
const ids = new RandomIdGenerator();
await seedDemo({ store, clock: systemClock, ids, checkers: programCheckers() });

// The same program without its logic: no field rules, no calculated fields.
const plain = parse(fs.readFileSync(DEMO_PROGRAM_PATH, 'utf8')) as { customId: string; fields: { type: string }[]; forms: { fields: unknown[] }[] };
plain.customId = 'RES-SOLAR-PLAIN';
plain.fields = plain.fields.filter((f) => f.type !== 'calculated');
for (const form of plain.forms) {
  form.fields = form.fields.flatMap((ff): unknown[] => {
    if (typeof ff === 'string') return ['DcAcRatio', 'IncentiveEstimate'].includes(ff) ? [] : [ff];
    const { field, required } = ff as { field: string; required?: boolean };
    return [{ field, required: required ?? false }];
  });
}
await importProgram({ store, clock: systemClock, ids, checkers: programCheckers() }, DEMO_AGENCY.customId, validateProgramFile(plain));
const app = await buildApp({ config, store, logger: false, blobs: new DatabaseBlobStore(store, systemClock) });
const auth = demoAuth('admin');

const APPLICATION: Record<string, string> = {
  CustomerName: 'Pat Homeowner', CustomerEmail: 'pat@example.org', ServiceAddress: '1 Sunny Lane', UtilityAccountNumber: 'ACCT-1',
  ServiceType: '1P-120-240', SystemSizeKwDc: '7.6', SystemSizeKwAc: '6', ModuleCount: '19', InverterMake: 'ENPHASE', InverterModel: 'IQ8PLUS',
  MountingType: 'Roof', HasBattery: 'true', BatteryCapacityKwh: '13.5', InstallerName: 'Bright Solar LLC', PlannedInstallDate: '2026-03-15',
};
const body = (values: Record<string, string>) => `<ProjectDataRequest xmlns="${config.xmlNamespace}"><Project><DataFields>${
  Object.entries(values).map(([k, v]) => `<DataField DataFieldId="${k}" Value="${v}"/>`).join('')}</DataFields></Project></ProjectDataRequest>`;

async function call(method: 'POST', url: string, payload: string | Buffer, type = 'application/xml', extra: Record<string, string> = {}): Promise<string> {
  const res = await app.inject({ method, url, payload, headers: { ...auth, 'content-type': type, ...extra } });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.body;
}

/** CPU microseconds (user + system) since `from`: unlike time on the clock, hardly moved by other work on the machine. */
function cpuSince(from: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(from);
  return d.user + d.system;
}

/** CPU microseconds and SQL statements per draft save and per submission of n fresh projects of one program. */
async function measure(program: string): Promise<{ save: number; submit: number; saveSql: number; submitSql: number }> {
  const base = `/services/v2/Programs/${program}`;
  const projects: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = /ProjectId="([^"]+)"/.exec(await call('POST', `${base}/NewProject`, ''))![1]!;
    await call('POST', `${base}/Projects/${id}/Forms/Application/Attachments/SitePlan`, TINY_PDF, 'application/pdf', { 'content-disposition': 'attachment; filename="p.pdf"' });
    projects.push(id);
  }
  let counted = statements;
  let started = process.cpuUsage();
  for (const [i, id] of projects.entries()) await call('POST', `${base}/Projects/${id}/Forms/Application/Draft/Data`, body({ ...APPLICATION, ModuleCount: String(10 + (i % 50)) }));
  const save = cpuSince(started) / n;
  const saveSql = (statements - counted) / n;
  counted = statements;
  started = process.cpuUsage();
  for (const id of projects) await call('POST', `${base}/Projects/${id}/Forms/Application/Draft/Submit`, '');
  const submit = cpuSince(started) / n;
  return { save, submit, saveSql, submitSql: (statements - counted) / n };
}

await measure('RES-SOLAR');
await measure('RES-SOLAR-PLAIN');
const pct = (a: number, b: number) => `${a > b ? '+' : ''}${(((a - b) / b) * 100).toFixed(1)} %`;
const ratios = { save: [] as number[], submit: [] as number[] };
for (let r = 1; r <= rounds; r++) {
  const rules = await measure('RES-SOLAR');
  const none = await measure('RES-SOLAR-PLAIN');
  ratios.save.push(rules.save / none.save);
  ratios.submit.push(rules.submit / none.submit);
  process.stdout.write(`round ${r}: CPU per draft save ${none.save.toFixed(0)} → ${rules.save.toFixed(0)} µs (${pct(rules.save, none.save)}), `
    + `per submission ${none.submit.toFixed(0)} → ${rules.submit.toFixed(0)} µs (${pct(rules.submit, none.submit)}); `
    + `SQL statements per save ${none.saveSql.toFixed(1)} → ${rules.saveSql.toFixed(1)}, per submission ${none.submitSql.toFixed(1)} → ${rules.submitSql.toFixed(1)}\n`);
}
// The median round: one round disturbed by other work on the machine moves it less than the mean.
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
process.stdout.write(`median of ${rounds} rounds: draft save ${pct(median(ratios.save), 1)}, submission ${pct(median(ratios.submit), 1)}\n`);

// The rules' own work, timed alone: the request rounds above spread by ±20 % on a busy machine, far more than the
// difference they look for, while running the form's rules a few thousand times in a row is steady. Over the state of
// a saved application: every formula, visibleIf, requiredIf, readOnlyIf and validation of its form.
{
  const program = (await store.programs.findProgram('RES-SOLAR'))!;
  const model = await store.programs.loadProgramModel(program);
  const form = model.forms.find((f) => f.customId === 'Application')!;
  const id = /ProjectId="([^"]+)"/.exec(await call('POST', '/services/v2/Programs/RES-SOLAR/NewProject', ''))![1]!;
  await call('POST', `/services/v2/Programs/RES-SOLAR/Projects/${id}/Forms/Application/Draft/Data`, body(APPLICATION));
  const project = (await store.projects.getProject(program.id, id))!;
  const state = await ruledState(store, model, 'admin', project, form, 'draft');
  const ctx = { status: 'Draft', number: '', role: 'admin', submitted: [], files: ['SitePlan'], approvedFiles: [], signed: [] };
  const times = 20_000;
  for (let i = 0; i < 2000; i++) decideForm(model, form, state.after, ctx);
  const started = process.cpuUsage();
  for (let i = 0; i < times; i++) decideForm(model, form, state.after, ctx);
  process.stdout.write(`the Application form's rules and formulas, run alone: ${(cpuSince(started) / times).toFixed(1)} µs of CPU per run\n`);
}
await app.close();
await store.close();
fs.rmSync(dir, { recursive: true, force: true });
