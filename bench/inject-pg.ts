/**
 * `npx tsx bench/inject-pg.ts [N]` — like inject-cost.ts, on PostgreSQL: starts an embedded server, loads N generated
 * projects (10,000 by default), and measures GetPrograms, GetProjectData, GetProjects limit=100 and
 * GetProjectsByData limit=100 one request at a time in process.
 */
import { systemClock } from '../src/model/clock.ts';
import { loadConfig } from '../src/config.ts';
import { seedDemo } from '../src/domain/programs/demo.ts';
import { buildApp } from '../src/http/app.ts';
import { RandomIdGenerator } from '../src/model/ids.ts';
import { createBlobStore } from '../src/store/create-blob-store.ts';
import { openDatabase } from '../src/store/database.ts';
import { createKyselyStore } from '../src/store/kysely-store.ts';
import { ephemeralSecretBox } from '../src/store/secret-box.ts';
import { startEmbeddedPostgres } from '../test/support/embedded-postgres.ts';
import { generateProjects } from './generate.ts';
import { demoAuth } from './in-process.ts';
import { programCheckers } from '../src/domain/wiring/program-checkers.ts';

const NS = 'http://service.powerclerk.com/api/v1/';
const API = '/services/v2/Programs/RES-SOLAR';
const count = Number(process.argv[2] ?? 10000);
const server = await startEmbeddedPostgres();
try {
  process.env.DATABASE_URL = server.url;
  process.env.APAS_RATE_LIMIT_MAX = '10000000';
  const config = loadConfig();
  const store = createKyselyStore(await openDatabase(config.database), { secrets: ephemeralSecretBox() });
  const blobs = createBlobStore(config, store);
  await seedDemo({ store, clock: systemClock, ids: new RandomIdGenerator(), checkers: programCheckers() });
  const g = await generateProjects(store, count, blobs);
  const app = await buildApp({ config, store, logger: false, blobs });
  const headers = { ...demoAuth('admin'), 'content-type': 'application/xml' };
  const project = g.sampleProjectIds[Math.floor(g.sampleProjectIds.length / 2)]!;
  const byData = `<ProjectByDataRequest xmlns="${NS}"><FilterByCurrentStatuses Operation="Include"><Status Id="ApprovedForInstallation"/></FilterByCurrentStatuses><DataFields><Field Id="SystemSizeKwDc" Content="14" Operator="gt"/><Field Id="InverterMake" Content="SMA" Operator="eq"/></DataFields></ProjectByDataRequest>`;
  const requests: [string, { method: 'GET' | 'POST'; url: string; payload?: string }][] = [
    ['GetPrograms', { method: 'GET', url: '/services/v2/Programs?Agency=demo' }],
    ['GetProjectData', { method: 'GET', url: `${API}/Projects/${project}/Forms/Application/Data` }],
    ['GetProjects limit=100', { method: 'GET', url: `${API}/Projects?limit=100` }],
    ['GetProjectsByData limit=100', { method: 'POST', url: `${API}/Projects/ByData?limit=100&version=2`, payload: byData }],
  ];
  for (const [name, r] of requests) {
    for (let i = 0; i < 100; i++) await app.inject({ ...r, headers });
    const rounds = 1000;
    const started = process.hrtime.bigint();
    let status = 0;
    for (let i = 0; i < rounds; i++) status = (await app.inject({ ...r, headers })).statusCode;
    process.stdout.write(`${name.padEnd(30)} ${status} ${(Number(process.hrtime.bigint() - started) / 1000 / rounds).toFixed(0)} µs\n`);
  }
  await app.close();
  await store.close();
} finally {
  await server.stop();
}
