/**
 * `npx tsx bench/cycle-cost.ts DIR/bench.db [N]` — the applicant cycle (NewProject, draft save, site-plan upload,
 * submit) as the demo applicant, in process one request at a time on a SQLite database kept by
 * `npm run bench -- --data-dir DIR`: microseconds and SQL statements per step.
 */
import { DRAFT, PDF } from './scenarios.ts';
import { demoAuth, openApp, watchStatements } from './in-process.ts';

const [file, n] = process.argv.slice(2);
let statements = 0;
let seenRound = 0;
watchStatements((sql) => {
  statements++;
  if (process.env.SHOW_SQL && seenRound === 20) process.stdout.write(`  ${sql.slice(0, 140)}\n`);
});
const { app, close } = await openApp(file!);
const auth = demoAuth('applicant');
const API = '/services/v2/Programs/RES-SOLAR';
const steps = ['NewProject', 'draft', 'upload', 'submit'] as const;
const totals = new Map<string, { us: number; statements: number }>(steps.map((s) => [s, { us: 0, statements: 0 }]));
const rounds = Number(n ?? 300);
for (let i = 0; i < rounds + 20; i++) {
  let project = '';
  seenRound = i;
  for (const step of steps) {
    const before = statements;
    if (process.env.SHOW_SQL && i === 20) process.stdout.write(`${step}:\n`);
    const t0 = process.hrtime.bigint();
    const res = step === 'NewProject' ? await app.inject({ method: 'POST', url: `${API}/NewProject`, headers: auth })
      : step === 'draft' ? await app.inject({ method: 'POST', url: `${API}/Projects/${project}/Forms/Application/Draft/Data`, headers: { ...auth, 'content-type': 'application/xml' }, payload: DRAFT })
      : step === 'upload' ? await app.inject({ method: 'POST', url: `${API}/Projects/${project}/Forms/Application/Attachments/SitePlan`, headers: { ...auth, 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="site-plan.pdf"' }, payload: PDF })
      : await app.inject({ method: 'POST', url: `${API}/Projects/${project}/Forms/Application/Draft/Submit`, headers: auth });
    const us = Number(process.hrtime.bigint() - t0) / 1000;
    if (res.statusCode >= 300) throw new Error(`${step}: ${res.statusCode} ${res.body}`);
    if (step === 'NewProject') project = /ProjectId="([^"]+)"/.exec(res.body)![1]!;
    if (i >= 20) {
      const t = totals.get(step)!;
      t.us += us;
      t.statements += statements - before;
    }
  }
}
for (const [step, t] of totals) process.stdout.write(`${step.padEnd(12)} ${(t.us / rounds).toFixed(0).padStart(6)} µs  ${(t.statements / rounds).toFixed(1)} statements\n`);
await close();
