import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parseDocument } from 'yaml';
import { DEMO_AGENCY, DEMO_PROGRAM_PATH } from '../../src/domain/programs/demo.ts';
import { newProject, pollRow, readRows, sleep } from '../../scripts/faults/document-crash-cycles.ts';
import { createFaultDatabase, type FaultDialect } from '../../scripts/faults/fault-database.ts';
import { ROOT, type ServerProcess, serverEnv, startServer } from '../../scripts/faults/server-process.ts';

// A callConnection whose server is killed with SIGKILL between the call and applying its answer: the agency's system
// (a node:http server this test starts) received the call and holds its answer; apas is killed, restarted once the
// call's claim ran out (APAS_CONNECTION_LEASE_MS), calls again with the same Idempotency-Key, and applies the answer
// exactly once (one apply audit row, the call applied, the field set).

const LEASE_MS = 2_000;
const ENV = { APAS_CONNECTION_LEASE_MS: String(LEASE_MS), APAS_WEBHOOK_ALLOW_INSECURE: '1' };

/** The demo program with a connection that fills the customer's name, called when a project is created. */
function programFile(): string {
  const file = parseDocument(fs.readFileSync(DEMO_PROGRAM_PATH, 'utf8'));
  file.set('connections', file.createNode([{
    customId: 'crashLookup', name: 'Crash lookup', response: { properties: { name: { type: 'string' } }, required: ['name'] },
    set: { CustomerName: 'response.name' }, timeoutMs: 30_000, retries: 1,
  }]));
  const automations = (file.get('automations') as { items?: unknown[] } | undefined)?.items ?? [];
  file.set('automations', file.createNode([...automations, Object.fromEntries([
    ['customId', 'crash-lookup'], ['name', 'Look up on creation'], ['when', { trigger: 'project.created' }], ['then', [{ do: 'callConnection', connection: 'crashLookup' }]],
  ])]));
  return file.toString();
}

async function apas(databaseUrl: string, args: string[], stdin = ''): Promise<void> {
  const child = spawn(process.execPath, ['bin/apas.js', ...args], { cwd: ROOT, env: serverEnv(databaseUrl, 0, ENV), stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stdin.end(stdin);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`apas ${args.join(' ')} exited with ${code}:\n${output.slice(-3000)}`);
}

describe('callConnection: kill -9 between the call and applying its answer', () => {
  for (const dialect of ['sqlite', 'postgres'] as FaultDialect[]) {
    it(`applies the answer exactly once across the kill [${dialect}]`, async () => {
      const keys: string[] = [];
      let held: http.ServerResponse | null = null;
      let first!: () => void;
      const called = new Promise<void>((resolve) => (first = resolve));
      const utility = http.createServer((req, res) => {
        keys.push(String(req.headers['idempotency-key']));
        req.resume();
        // The first call is held (its caller is killed meanwhile); later ones are answered.
        if (keys.length === 1) {
          held = res;
          first();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"Pat Crash"}');
      });
      await new Promise<void>((resolve) => utility.listen(0, '127.0.0.1', resolve));
      const db = await createFaultDatabase(dialect);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-conn-crash-'));
      let server: ServerProcess | undefined;
      try {
        server = await startServer({ databaseUrl: db.url, name: `${dialect} connection server 1`, env: ENV });
        fs.writeFileSync(path.join(dir, 'program.yaml'), programFile());
        await apas(db.url, ['program', 'import', path.join(dir, 'program.yaml'), '--agency', DEMO_AGENCY.customId]);
        await apas(db.url, ['connection', 'allow-host', '--agency', DEMO_AGENCY.customId, '127.0.0.1']);
        await apas(db.url, ['connection', 'set', '--program', 'RES-SOLAR', '--agency', DEMO_AGENCY.customId, '--connection', 'crashLookup',
          '--url', `http://127.0.0.1:${(utility.address() as AddressInfo).port}/lookup`]);
        const projectId = await newProject(server);
        await Promise.race([called, sleep(30_000).then(() => assert.fail('the connection was not called'))]);
        await server.kill9();
        (held as http.ServerResponse | null)?.destroy();
        const [left] = await readRows<{ state: string; lease_until: number | string | null }>(db, 'select state, lease_until from connection_calls where project_id = ?', [projectId]);
        assert.equal(left?.state, 'queued', 'killed before the answer was applied');
        await sleep(Math.max(0, Number(left?.lease_until ?? 0) - Date.now()));
        server = await startServer({ databaseUrl: db.url, name: `${dialect} connection server 2`, env: ENV, demo: false });
        const done = await pollRow<{ state: string; attempts: number | string }>(db, 'select state, attempts from connection_calls where project_id = ?', [projectId], 30_000, (r) => r.state !== 'queued');
        assert.equal(done?.state, 'applied');
        await sleep(500);
        const applied = await readRows(db, 'select id from audit_log where action = ? and project_id = ?', ['project.connection.apply', projectId]);
        assert.equal(applied.length, 1, 'applied exactly once');
        assert.equal(keys.length, 2);
        assert.equal(keys[0], keys[1], 'the retry after the restart sends the same Idempotency-Key');
        const fields = await readRows(db, "select v.value from project_values v join data_fields f on f.id = v.field_id where v.project_id = ? and f.custom_id = 'CustomerName'", [projectId]);
        assert.deepEqual(fields.map((r) => r.value), ['Pat Crash']);
        await server.stop();
      } finally {
        await server?.kill9();
        utility.close();
        await db.drop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
