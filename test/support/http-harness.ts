import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Logger } from 'pino';
import { type Config, loadConfig } from '../../src/config.ts';
import { formatApiKey, hashSecret } from '../../src/domain/accounts/secrets.ts';
import { buildApp } from '../../src/http/app.ts';
import type { Clock } from '../../src/model/clock.ts';
import type { ProgramRole } from '../../src/model/model.ts';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import type { Store } from '../../src/store/store.ts';
import { createSchemaRegistry, type SchemaRegistry } from '../../src/xml/schema-registry.ts';
import type { TestStore } from './databases.ts';
import { IDS, seedProgram, T0, user } from './fixtures.ts';

/** The namespace the tests run with (the default). */
export const NS = 'http://service.powerclerk.com/api/v1/';

/** A signed-in identity of the harness: what it sends, and who it is. */
export interface Identity { id: string; email: string; password: string; apiKey: string }

/** The identities every HTTP test can use, from most to least privileged. */
export type Who = 'admin' | 'programAdmin' | 'editor' | 'reader' | 'applicant' | 'otherApplicant' | 'outsider';

const ROLES: Record<Who, { id: string; role: ProgramRole | null; agencyAdmin?: boolean }> = {
  admin: { id: IDS.admin, role: null, agencyAdmin: true },
  programAdmin: { id: 'USER00000003', role: 'admin' },
  editor: { id: 'USER00000004', role: 'editor' },
  reader: { id: 'USER00000005', role: 'reader' },
  applicant: { id: IDS.applicant, role: 'applicant' },
  otherApplicant: { id: 'USER00000006', role: 'applicant' },
  outsider: { id: 'USER00000007', role: null },
};

// argon2 is slow on purpose; one hash per distinct secret and process keeps the suites quick.
const hashes = new Map<string, Promise<string>>();
function hashOnce(secret: string): Promise<string> {
  let h = hashes.get(secret);
  if (!h) hashes.set(secret, (h = hashSecret(secret)));
  return h;
}

/** A clock the tests move by hand. */
export class TestClock implements Clock {
  constructor(public time = T0 + 3_600_000) {}
  now(): number {
    return this.time;
  }
  advance(ms = 1000): number {
    this.time += ms;
    return this.time;
  }
}

/** An app on a fresh database with the fixture program and one identity per role. */
export interface HttpHarness {
  app: FastifyInstance;
  store: Store;
  clock: TestClock;
  config: Config;
  who: Record<Who, Identity>;
  schemas: SchemaRegistry;
  /** Sends a request as `who` (or with explicit headers) through app.inject. */
  request(opts: { method: string; url: string; as?: Who | null; body?: string; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** Basic + X-ApiKey headers of an identity. */
export function authHeaders(id: Identity): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${id.email}:${id.password}`).toString('base64')}`, 'x-apikey': id.apiKey };
}

async function seedIdentities(store: Store): Promise<Record<Who, Identity>> {
  await seedProgram(store);
  const who = {} as Record<Who, Identity>;
  for (const [name, spec] of Object.entries(ROLES) as [Who, (typeof ROLES)[Who]][]) {
    const password = `password-of-${name}`;
    const key = { id: `KEY${spec.id.slice(-9)}`, secret: `secret${name}`.padEnd(32, 'x') };
    const email = `${spec.id.toLowerCase()}@example.org`;
    const passwordHash = await hashOnce(password);
    const keyHash = await hashOnce(key.secret);
    await store.transaction(async (tx) => {
      if (name === 'admin' || name === 'applicant') await tx.accounts.updateUser(spec.id, { passwordHash }, T0);
      else await tx.accounts.insertUser(user(spec.id, { agencyAdmin: spec.agencyAdmin ?? false }), passwordHash, T0);
      await tx.accounts.insertApiKey({ id: key.id, userId: spec.id, name: 'test', secretHash: keyHash, createdAt: T0, revokedAt: null });
      if (spec.role) await tx.accounts.setGrant({ userId: spec.id, programId: IDS.program, role: spec.role, sensitive: false });
    });
    who[name] = { id: spec.id, email, password, apiKey: formatApiKey(key) };
  }
  return who;
}

/**
 * Builds the harness over an open test store; pass `clock` when the store was opened with it too, `logger` to read
 * the log, `onChange` to hear of every commit that wrote events (to wake background work, as `serve` does).
 */
export async function startHttp(
  db: TestStore, env: Record<string, string> = {}, clock = new TestClock(), logger: Logger | false = false, onChange?: () => void,
): Promise<HttpHarness> {
  // Lockouts would trip over the many refused sign-ins of the role matrices; their own tests set them low.
  const config = loadConfig({ APAS_PUBLIC_URL: 'http://apas.test', APAS_SIGNIN_LOCK_USER_AFTER: '1000000', APAS_SIGNIN_LOCK_ADDRESS_AFTER: '1000000', APAS_SIGNIN_ACCOUNT_SLOW_AFTER: '1000000', ...env });
  const who = await seedIdentities(db.store);
  // Uploads go to the test's own database unless the test chose a blob store, never to ./data/blobs.
  const blobs = env.APAS_BLOB_STORE === undefined && env.APAS_BLOB_DIR === undefined ? new DatabaseBlobStore(db.store, clock) : undefined;
  const app = await buildApp({ config, store: db.store, clock, logger, sleep: async () => {}, blobs, onChange });
  const schemas = createSchemaRegistry(config.xmlNamespace);
  return {
    app, store: db.store, clock, config, who, schemas, request: requester(app, who),
    close: async () => {
      await app.close();
      schemas.dispose();
    },
  };
}

/** A harness's `request` over `app`: as one of the identities `who` (admin unless said), an XML body typed as such. */
export function requester(app: FastifyInstance, who: Record<Who, Identity>): HttpHarness['request'] {
  return ({ method, url, as = 'admin', body, headers = {} }) => app.inject({
    method: method as 'GET', url, payload: body,
    headers: { ...(as ? authHeaders(who[as]) : {}), ...(body !== undefined ? { 'content-type': 'application/xml' } : {}), ...headers },
  });
}

/** The root element name of an XML document. */
export function rootName(xml: string): string {
  const m = /<([A-Za-z][\w.-]*)[\s>/]/.exec(xml.replace(/^<\?xml[^>]*\?>/, ''));
  return m?.[1] ?? '';
}

/** Asserts the response is XML that its XSD accepts; ProjectsResponse picks the base or extended XSD. */
export function assertValidXml(h: HttpHarness, res: LightMyRequestResponse, schema?: string): void {
  assert.match(String(res.headers['content-type']), /^application\/xml/);
  const name = schema ?? rootName(res.body);
  const errors = h.schemas.validate(name, res.body);
  assert.deepEqual(errors, [], `${name} failed its XSD:\n${res.body}`);
}

/** Asserts an XML error body with the given status and code. */
export function assertError(h: HttpHarness, res: LightMyRequestResponse, status: number, code: string): void {
  assert.equal(res.statusCode, status, res.body);
  assertValidXml(h, res, 'ErrorResponse');
  assert.match(res.body, new RegExp(`Code="${code}"`));
}

/** The value of an attribute of the first element with that name. */
export function attr(xml: string, element: string, name: string): string | undefined {
  const m = new RegExp(`<${element}\\b[^>]*?\\s${name}="([^"]*)"`).exec(xml);
  return m?.[1];
}

/** Every value of one attribute across all elements of a name. */
export function attrs(xml: string, element: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<${element}\\b[^>]*?\\s${name}="([^"]*)"`, 'g'))].map((m) => m[1]!);
}

/** A ProjectDataRequest body for single values (null clears) and multi-values (arrays). */
export function dataRequest(values: Record<string, string | string[] | null>): string {
  const fields = Object.entries(values).map(([id, v]) => {
    if (v === null) return `<DataField DataFieldId="${id}"/>`;
    if (Array.isArray(v)) return `<DataField DataFieldId="${id}"><Values>${v.map((x) => `<Value>${x}</Value>`).join('')}</Values></DataField>`;
    return `<DataField DataFieldId="${id}" Value="${v}"/>`;
  });
  return `<ProjectDataRequest xmlns="${NS}"><Project><DataFields>${fields.join('')}</DataFields></Project></ProjectDataRequest>`;
}

/** A ProjectDataRequest setting table `field` to `rows`, each row a map of column customId to cell text (in that order). */
export function rowsRequest(field: string, rows: Record<string, string>[]): string {
  const body = rows.map((r) => `<Row>${Object.entries(r).map(([c, v]) => `<Cell Column="${c}" Value="${v}"/>`).join('')}</Row>`).join('');
  return `<ProjectDataRequest xmlns="${NS}"><Project><DataFields><DataField DataFieldId="${field}"><Rows>${body}</Rows></DataField></DataFields></Project></ProjectDataRequest>`;
}
