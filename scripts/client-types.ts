// `npm run client:types`: writes src/client/api-types.ts from the OpenAPI description the service serves.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';
import { openDatabase } from '../src/store/database.ts';
import { createKyselyStore } from '../src/store/kysely-store.ts';
import { ephemeralSecretBox } from '../src/store/secret-box.ts';
import { openApiToTypeScript } from './openapi-to-ts.ts';

const dir = mkdtempSync(join(tmpdir(), 'apas-client-types-'));
try {
  const config = loadConfig({ DATABASE_URL: join(dir, 'apas.db') });
  const store = createKyselyStore(await openDatabase(config.database), { secrets: ephemeralSecretBox() });
  const app = await buildApp({ config, store, logger: false });
  const res = await app.inject({ method: 'GET', url: '/openapi.json' });
  await app.close();
  await store.close();
  const target = new URL('../src/client/api-types.ts', import.meta.url);
  writeFileSync(target, openApiToTypeScript(JSON.parse(res.body)));
  process.stdout.write(`wrote ${target.pathname}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
