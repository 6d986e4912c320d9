import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { LightMyRequestResponse } from 'fastify';
import type { Automation } from '../../src/model/automation.ts';
import { totpCode } from '../../src/domain/accounts/mfa.ts';
import { MfaService } from '../../src/domain/accounts/mfa-service.ts';
import { OAuthClientService } from '../../src/domain/accounts/oauth-client-service.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { WIRE_DOCUMENTS } from '../../src/wire/documents.ts';
import { readXmlDocument } from '../../src/wire/wire-xml-reader.ts';
import { forEachDialect } from '../support/databases.ts';
import { authHeaders, dataRequest, type HttpHarness, NS, type Who } from '../support/http-harness.ts';
import { IDS, programRows } from '../support/fixtures.ts';
import { documentProgramRows, withDocuments } from '../support/document-fixtures.ts';
import { PROGRAM, sharedHarness } from './http-helpers.ts';
import { manualWorker, startReceiver } from './webhook-helpers.ts';
import { generateAndSend, OWNER, signingParts, template } from './signing-fixtures.ts';

// Walks every operation of /openapi.json, once with XML bodies and answers and once with JSON ones, and checks each
// answer against exactly what the description declares for it: the status (or default), the media type, every header
// beyond HTTP's own (declared, and its value valid), and JSON bodies against the declared schema.

type Json = Record<string, unknown>;
type Format = 'xml' | 'json';

// Headers of HTTP itself, which an OpenAPI description does not declare.
const TRANSPORT = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'x-content-type-options']);

class Conformance {
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true });
  readonly #validators = new Map<unknown, ValidateFunction>();
  readonly #templates: { method: string; path: string; pattern: RegExp; literal: number; op: Json }[] = [];
  /** `operationId format` of every 2xx answer seen. */
  readonly answered = new Set<string>();

  constructor(readonly spec: Json, readonly h: HttpHarness) {
    for (const [path, ops] of Object.entries(spec.paths as Record<string, Record<string, Json>>)) {
      const source = path.split('/').map((p) => (p.startsWith('{') ? '[^/]+' : p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
      const literal = path.split('/').filter((p) => !p.startsWith('{')).length;
      for (const [method, op] of Object.entries(ops)) this.#templates.push({ method: method.toUpperCase(), path, pattern: new RegExp(`^${source}$`), literal, op });
    }
  }

  /** Every operationId of the description. */
  operationIds(): string[] {
    return this.#templates.map((t) => String(t.op.operationId));
  }

  #resolve(node: Json): Json {
    const r = node.$ref;
    if (typeof r !== 'string') return node;
    return r.slice(2).split('/').reduce<Json>((at, key) => at[key] as Json, this.spec);
  }

  #validator(schema: Json): ValidateFunction {
    let v = this.#validators.get(schema);
    if (!v) this.#validators.set(schema, (v = this.#ajv.compile({ ...schema, components: this.spec.components })));
    return v;
  }

  /** Sends a request and checks its answer against the operation the description has for its method and path. */
  async send(opts: { method: string; url: string; as?: Who | null; format: Format; xml?: string; headers?: Record<string, string>; payload?: string | Buffer }): Promise<LightMyRequestResponse> {
    const { method, url, format } = opts;
    const path = url.split('?')[0]!;
    const template = this.#templates.filter((t) => t.method === method && t.pattern.test(path)).sort((a, b) => b.literal - a.literal)[0];
    assert.ok(template, `no operation for ${method} ${path}`);
    const op = template.op;
    const headers: Record<string, string> = { ...(opts.as === null ? {} : authHeaders(this.h.who[opts.as ?? 'admin'])), ...(format === 'json' ? { accept: 'application/json' } : {}) };
    let payload = opts.payload;
    if (opts.xml !== undefined) {
      if (format === 'xml') {
        payload = opts.xml;
        headers['content-type'] = 'application/xml';
      } else {
        // The same request as JSON: the XML body read as its document, written as JSON.
        const json = ((op.requestBody as Json).content as Record<string, { schema: { $ref: string } }>)['application/json']!;
        const name = json.schema.$ref.split('/').pop();
        const doc = WIRE_DOCUMENTS.find((d) => d.name === name)!;
        payload = JSON.stringify(readXmlDocument(doc, opts.xml, NS, this.h.schemas));
        headers['content-type'] = 'application/json';
      }
    }
    const res = await this.h.app.inject({ method: method as 'GET', url, headers: { ...headers, ...opts.headers }, ...(payload === undefined ? {} : { payload }) });
    const where = `${op.operationId} (${format}) ${method} ${url} → ${res.statusCode}`;
    const responses = op.responses as Record<string, Json>;
    const declared = responses[String(res.statusCode)] ?? responses.default;
    assert.ok(declared, `${where}: status not declared\n${res.body}`);
    const answer = this.#resolve(declared);
    const declaredHeaders = Object.fromEntries(Object.entries((answer.headers ?? {}) as Record<string, Json>).map(([n, hdr]) => [n.toLowerCase(), this.#resolve(hdr)]));
    for (const [name, value] of Object.entries(res.headers)) {
      if (TRANSPORT.has(name) && !(name === 'content-length' && declaredHeaders[name])) continue;
      const header = declaredHeaders[name];
      assert.ok(header, `${where}: header ${name} is not declared\n${JSON.stringify(Object.keys(declaredHeaders))}`);
      const v = this.#validator(header.schema as Json);
      assert.ok(v(String(value)), `${where}: header ${name}: ${JSON.stringify(value)} fails ${JSON.stringify(header.schema)}`);
    }
    const content = answer.content as Record<string, Json> | undefined;
    if (res.rawPayload.length > 0 || res.headers['content-type'] !== undefined) {
      assert.ok(content, `${where}: an answer with a body, none declared\n${res.body}`);
      const type = String(res.headers['content-type'] ?? '').split(';')[0]!.trim();
      const media = content[type] ?? content['*/*'];
      assert.ok(media, `${where}: ${type} not declared (${Object.keys(content).join(', ')})`);
      if (type === 'application/json') {
        const v = this.#validator(media.schema as Json);
        assert.ok(v(JSON.parse(res.body)), `${where}: ${this.#ajv.errorsText(v.errors)}\n${res.body.slice(0, 2000)}`);
      }
      if (format === 'json' && content['application/json'] && res.statusCode !== 304) assert.equal(type, 'application/json', where);
    }
    if (res.statusCode >= 200 && res.statusCode < 300) this.answered.add(`${op.operationId} ${format}`);
    return res;
  }
}

/** A value of an answer in either format: `Name="v"` in XML, `"Name":"v"` in JSON (the first one). */
function pick(res: LightMyRequestResponse, name: string): string {
  const m = new RegExp(`"?\\b${name}"?[=:]"([^"]*)"`).exec(res.body);
  assert.ok(m, `no ${name} in ${res.body}`);
  return m[1]!;
}

function ok(res: LightMyRequestResponse, status = 200): LightMyRequestResponse {
  assert.equal(res.statusCode, status, res.body);
  return res;
}

const PNG = Buffer.from('\x89PNG\r\n\x1a\na tiny picture', 'latin1');

forEachDialect('OpenAPI conformance', ({ dialect }) => {
  const harness = sharedHarness(dialect, { APAS_WEBHOOK_ALLOW_INSECURE: 'true' }, (store) => withDocuments(store));

  it('every answer of every operation, in XML and in JSON, is what /openapi.json declares for it', async () => {
    const h = harness();
    const spec = JSON.parse((await h.request({ method: 'GET', url: '/openapi.json', as: null })).body) as Json;
    const valid = await new Validator().validate(spec);
    assert.equal(valid.valid, true, JSON.stringify(valid.errors, null, 2)?.slice(0, 2000));
    const c = new Conformance(spec, h);
    const receiver = await startReceiver();
    const ids = new RandomIdGenerator();
    const mfaSecret = new URL(await new MfaService({ store: h.store, clock: h.clock, ids }).enrol(h.who.reader.email)).searchParams.get('secret')!;
    const client = await new OAuthClientService({ store: h.store, clock: h.clock, ids }).createClient(h.who.editor.email, 'conformance');
    try {
      for (const format of ['xml', 'json'] as const) {
        const send = (o: Omit<Parameters<Conformance['send']>[0], 'format'>) => c.send({ ...o, format });
        const api = '/services/v2';
        ok(await send({ method: 'GET', url: `${api}/Programs?Agency=acme`, as: 'applicant' }));
        const created = ok(await send({ method: 'POST', url: `${PROGRAM}/NewProject`, as: 'applicant', headers: { 'idempotency-key': `k-${format}` } }));
        const replay = ok(await send({ method: 'POST', url: `${PROGRAM}/NewProject`, as: 'applicant', headers: { 'idempotency-key': `k-${format}` } }));
        assert.equal(replay.headers['idempotent-replayed'], 'true');
        const projectId = pick(created, 'ProjectId');
        const project = `${PROGRAM}/Projects/${projectId}`;
        const form = `${project}/Forms/application`;
        const etag = String(created.headers.etag);
        ok(await send({ method: 'POST', url: `${form}/Draft/Data`, as: 'applicant', xml: dataRequest({ [IDS.name]: 'Jane', [IDS.kw]: '7.5', [IDS.size]: ['S'] }), headers: { 'if-match': etag } }));
        const draft = ok(await send({ method: 'GET', url: `${form}/Draft/Data`, as: 'applicant' }));
        assert.equal((await send({ method: 'GET', url: `${form}/Draft/Data`, as: 'applicant', headers: { 'if-none-match': String(draft.headers.etag) } })).statusCode, 304);
        assert.equal((await send({ method: 'GET', url: `${form}/Draft/Data`, as: 'applicant', headers: { 'if-match': etag } })).statusCode, 412);
        const uploaded = ok(await send({
          method: 'POST', url: `${form}/Attachments/photo`, as: 'applicant', payload: PNG,
          headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="site.png"' },
        }));
        assert.ok(uploaded.headers.etag);
        ok(await send({ method: 'POST', url: `${form}/Draft/Submit`, as: 'applicant' }));
        const projectNumber = pick(ok(await send({ method: 'GET', url: `${form}/Data`, as: 'admin' })), 'ProjectNumber');
        ok(await send({ method: 'POST', url: `${form}/Data`, as: 'admin', xml: dataRequest({ [IDS.kw]: '8' }) }));
        ok(await send({ method: 'POST', url: `${PROGRAM}/NewProject`, as: 'applicant' }));
        const page = ok(await send({ method: 'GET', url: `${PROGRAM}/Projects?limit=1`, as: 'admin' }));
        assert.match(String(page.headers.link), /rel="next"/);
        ok(await send({ method: 'GET', url: `${PROGRAM}/Projects?limit=10&changed_since=2100-01-01&version=2`, as: 'admin' }));
        ok(await send({ method: 'GET', url: `${PROGRAM}/Projects?limit=10&changed_since=2100-01-01`, as: 'admin' }));
        const byNumber = `<ProjectByNumberRequest xmlns="${NS}"><Project ProjectNumber="${projectNumber}"/></ProjectByNumberRequest>`;
        ok(await send({ method: 'POST', url: `${PROGRAM}/Projects/ByNumber?version=2`, as: 'admin', xml: byNumber }));
        ok(await send({ method: 'POST', url: `${PROGRAM}/ProjectsByNumber`, as: 'admin', xml: byNumber }));
        ok(await send({ method: 'POST', url: `${PROGRAM}/Projects/ByData`, as: 'admin', xml: `<ProjectByDataRequest xmlns="${NS}"><DataFields><Field Id="kw" Content="1" Operator="gt"/></DataFields></ProjectByDataRequest>` }));
        ok(await send({ method: 'GET', url: `${PROGRAM}/Forms`, as: 'applicant' }));
        ok(await send({ method: 'GET', url: `${PROGRAM}/Forms/application/Schema?version=2`, as: 'applicant' }));
        ok(await send({ method: 'GET', url: `${PROGRAM}/Forms/application/Schema`, as: 'applicant' }));
        ok(await send({ method: 'GET', url: `${PROGRAM}/CustomLists/sizes/Choices`, as: 'applicant' }));
        ok(await send({ method: 'GET', url: `${PROGRAM}/Statuses`, as: 'admin' }));
        const history = ok(await send({ method: 'GET', url: `${project}/StatusHistory`, as: 'admin' }));
        const submittedAt = new RegExp(`"?StatusId"?[=:]"${IDS.submitted}"[^}>]*?"?Timestamp"?[=:]"([^"]+)"`).exec(history.body)?.[1];
        assert.ok(submittedAt, history.body);
        ok(await send({ method: 'POST', url: `${project}/StatusHistory/ReportAs`, as: 'admin', xml: `<SetProjectStatusHistoryReportAs xmlns="${NS}" StatusId="${IDS.submitted}" Timestamp="${submittedAt}" ReportAs="suppress"/>` }));
        ok(await send({ method: 'POST', url: `${project}/Assignee`, as: 'admin', xml: `<SetAssigneeRequest xmlns="${NS}"><AssigneeEmail>${h.who.admin.email}</AssigneeEmail></SetAssigneeRequest>` }));
        const rows = programRows(h.clock.now());
        const deadlines = [{ customId: 'answer', name: 'Answer due', duration: { businessDays: 10 }, shownToApplicant: true }];
        const nightly: Automation = {
          customId: 'nightly', name: 'Nightly', if: null, actions: [{ do: 'emitEvent', name: 'nightly' }],
          when: { trigger: 'schedule', at: '23:00', formId: null, statusId: null, fieldId: null, attachmentId: null, approval: null, by: null },
        };
        await h.store.transaction((tx) => tx.programs.saveProgramDefinition({ ...rows, program: { ...rows.program, deadlines, automations: [nightly] } }));
        ok(await send({ method: 'GET', url: `${PROGRAM}/Automations/nightly/Schedule`, as: 'admin' }));
        ok(await send({ method: 'POST', url: `${PROGRAM}/Automations/nightly/Schedule/Run`, as: 'admin' }));
        ok(await send({ method: 'GET', url: `${project}/AutomationRuns`, as: 'admin' }));
        ok(await send({ method: 'POST', url: `${project}/Deadlines/answer/Start`, as: 'admin' }));
        ok(await send({ method: 'GET', url: `${project}/Deadlines`, as: 'applicant' }));
        ok(await send({ method: 'POST', url: `${project}/Deadlines/answer/Satisfy`, as: 'admin' }));
        ok(await send({ method: 'POST', url: `${project}/Deadlines/answer/Start`, as: 'admin' }));
        ok(await send({ method: 'POST', url: `${project}/Deadlines/answer/Cancel`, as: 'admin' }));
        const successor = [{ customId: 'next', name: 'Next year', kind: 'successor' as const, program: rows.program.customId, copy: [] }];
        await h.store.transaction((tx) => tx.programs.saveProgramDefinition({ ...rows, program: { ...rows.program, deadlines, automations: [nightly], relations: successor, updatedAt: h.clock.now() + 1 } }));
        ok(await send({ method: 'POST', url: `${project}/Relations/next/Create`, as: 'admin' }));
        ok(await send({ method: 'GET', url: `${project}/Relations`, as: 'applicant' }));
        const spare = pick(ok(await send({ method: 'POST', url: `${PROGRAM}/NewProject`, as: 'applicant' })), 'ProjectId');
        const linked = ok(await send({ method: 'POST', url: `${project}/Relations`, as: 'admin', xml: `<LinkProjectRequest xmlns="${NS}" ProgramId="solar" ProjectId="${spare}" Kind="link"/>` }));
        ok(await send({ method: 'DELETE', url: `${project}/Relations/${pick(linked, 'RelationId')}`, as: 'admin' }));
        const withDocs = documentProgramRows([nightly], h.clock.now() + 1);
        await h.store.transaction((tx) => tx.programs.saveProgramDefinition({ ...withDocs, program: { ...withDocs.program, deadlines } }));
        ok(await send({ method: 'POST', url: `${project}/Documents/ApprovalLetter/Generate`, as: 'admin' }));
        ok(await send({ method: 'GET', url: `${project}/Documents`, as: 'applicant' }));
        const { signing, blobs } = signingParts(h);
        const envelope = `${project}/Envelopes/${await generateAndSend(h, signing, blobs, projectId, template([OWNER]))}`;
        ok(await send({ method: 'GET', url: `${project}/Envelopes`, as: 'applicant' }));
        ok(await send({ method: 'GET', url: envelope, as: 'admin' }));
        ok(await send({ method: 'POST', url: `${envelope}/Signers/applicant/Resend`, as: 'admin' }));
        ok(await send({ method: 'POST', url: `${envelope}/Void?Reason=conformance`, as: 'admin' }));
        ok(await send({ method: 'GET', url: `${project}/Data`, as: 'admin' }));
        ok(await send({ method: 'GET', url: `${project}/Export?version=2`, as: 'admin' }));
        ok(await send({ method: 'GET', url: `${project}/Export`, as: 'admin' }));
        const attachment = `${project}/Attachments/photo`;
        const file = ok(await send({ method: 'GET', url: attachment, as: 'admin' }));
        assert.equal((await send({ method: 'GET', url: attachment, as: 'admin', headers: { 'if-none-match': String(file.headers.etag) } })).statusCode, 304);
        assert.equal((await send({ method: 'GET', url: attachment, as: 'admin', headers: { range: 'bytes=0-3' } })).statusCode, 206);
        assert.equal((await send({ method: 'GET', url: attachment, as: 'admin', headers: { range: 'bytes=999999999-' } })).statusCode, 416);
        ok(await send({ method: 'GET', url: `${attachment}/Versions/1`, as: 'admin' }));
        ok(await send({ method: 'GET', url: `${attachment}/Metadata`, as: 'admin' }));
        ok(await send({ method: 'POST', url: `${attachment}/Metadata`, as: 'admin', xml: `<SetAttachmentMetadata xmlns="${NS}" AttachmentStatus="Approve" Note="fine"/>` }));
        const note = ok(await send({ method: 'POST', url: `${project}/InquiryNotes`, as: 'admin', xml: `<SetInquiryNoteRequest xmlns="${NS}" Subject="Diagram" VisibleToApplicant="true"><Text>Please send it.</Text></SetInquiryNoteRequest>` }));
        const thread = `${project}/InquiryThreads/${pick(note, 'ThreadId')}`;
        ok(await send({ method: 'GET', url: `${project}/InquiryThreads`, as: 'admin' }));
        ok(await send({ method: 'GET', url: `${thread}/Notes`, as: 'admin' }));
        ok(await send({ method: 'POST', url: `${thread}/ExternalId`, as: 'admin', xml: `<SetInquiryThreadExternalIdRequest xmlns="${NS}" ExternalId="CRM-${format}"/>` }));
        ok(await send({ method: 'POST', url: `${thread}/Status`, as: 'admin', xml: `<SetInquiryThreadStatusRequest xmlns="${NS}" Status="Resolved"/>` }));
        ok(await send({ method: 'POST', url: `${project}/Status`, as: 'admin', xml: `<SetProjectStatusRequest xmlns="${NS}" StatusId="${IDS.draft}"/>` }));
        ok(await send({ method: 'POST', url: `${form}/Submit`, as: 'applicant' }));
        ok(await send({ method: 'POST', url: `${project}/Owner`, as: 'admin', xml: `<SetProjectOwnerRequest xmlns="${NS}"><OwnerEmail>${h.who.otherApplicant.email}</OwnerEmail></SetProjectOwnerRequest>` }));
        ok(await send({ method: 'GET', url: `${api}/Events?limit=5`, as: 'admin' }));
        // Webhooks: a subscription, a delivery to a live receiver, its redelivery, and the rest.
        const hooks = `${PROGRAM}/Webhooks`;
        const sub = ok(await send({ method: 'POST', url: hooks, as: 'admin', xml: `<CreateWebhookSubscriptionRequest xmlns="${NS}" Url="${receiver.url}"/>` }));
        const subscription = `${hooks}/${pick(sub, 'SubscriptionId')}`;
        ok(await send({ method: 'POST', url: `${PROGRAM}/NewProject`, as: 'applicant' }));
        await manualWorker(h).round();
        ok(await send({ method: 'GET', url: hooks, as: 'admin' }));
        ok(await send({ method: 'GET', url: subscription, as: 'admin' }));
        const deliveries = ok(await send({ method: 'GET', url: `${subscription}/Deliveries?limit=5`, as: 'admin' }));
        ok(await send({ method: 'POST', url: `${subscription}/Deliveries/${pick(deliveries, 'DeliveryId')}/Redeliver`, as: 'admin' }));
        ok(await send({ method: 'POST', url: `${subscription}/Deliveries/Redeliver`, as: 'admin', xml: `<RedeliverWebhookDeliveriesRequest xmlns="${NS}" Since="2020-01-01T00:00:00Z"/>` }));
        ok(await send({ method: 'POST', url: `${subscription}/RotateSecret`, as: 'admin', xml: `<RotateWebhookSecretRequest xmlns="${NS}" GraceHours="1"/>` }));
        ok(await send({ method: 'POST', url: subscription, as: 'admin', xml: `<SetWebhookSubscriptionRequest xmlns="${NS}" Enabled="false"/>` }));
        ok(await send({ method: 'DELETE', url: subscription, as: 'admin' }), 204);
        // MFA: a session token made with a fresh code, used, and deleted.
        h.clock.advance(30_000);
        const token = ok(await send({ method: 'POST', url: `${api}/Accounts/MfaSessionTokens`, as: 'reader', xml: `<CreateMfaSessionTokenRequest xmlns="${NS}" ExpiresAfterMinutes="10"/>`, headers: { 'x-mfa-totp': totpCode(mfaSecret, h.clock.now()) } }));
        const session = { 'x-mfa-session-token': pick(token, 'Token') };
        ok(await send({ method: 'DELETE', url: `${api}/Accounts/MfaSessionTokens/${pick(token, 'TokenId')}`, as: 'reader', headers: session }), 204);
        // OAuth: a token, used, revoked; the metadata.
        const basic = { authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`, 'x-apikey': h.who.editor.apiKey, 'content-type': 'application/x-www-form-urlencoded' };
        const issued = ok(await send({ method: 'POST', url: `${api}/oauth/token`, as: null, headers: basic, payload: 'grant_type=client_credentials' }));
        ok(await send({ method: 'POST', url: `${api}/oauth/revoke`, as: null, headers: basic, payload: `token=${JSON.parse(issued.body).access_token}` }));
        assert.equal((await send({ method: 'POST', url: `${api}/oauth/token`, as: null, headers: { ...basic, authorization: 'Basic eDp5' }, payload: 'grant_type=client_credentials' })).statusCode, 401);
        ok(await send({ method: 'GET', url: '/.well-known/oauth-authorization-server', as: null }));
        // Errors, which every operation declares as its default.
        assert.equal((await send({ method: 'GET', url: `${PROGRAM}/Projects/NOSUCHPROJECT/Data`, as: 'admin' })).statusCode, 404);
        assert.equal((await send({ method: 'GET', url: `${PROGRAM}/Projects`, as: null })).statusCode, 401);
      }
    } finally {
      await receiver.close();
    }
    const missing = c.operationIds().flatMap((id) => (['xml', 'json'] as const).map((f) => `${id} ${f}`)).filter((k) => !c.answered.has(k));
    assert.deepEqual(missing, [], 'every operation answered successfully in both formats');
  });
});
