import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ANSWER_GRACE_MS, IdempotencyService, KEY_LIFETIME_MS } from '../../src/domain/projects/idempotency-service.ts';
import { MAX_WRITE_TRANSACTION_MS } from '../../src/store/store.ts';
import { OAuthClientService } from '../../src/domain/accounts/oauth-client-service.ts';
import { buildApp } from '../../src/http/app.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, authHeaders, dataRequest, type HttpHarness, startHttp, type Who } from '../support/http-harness.ts';
import { API, COMPLETE, createProject, draftPath, PROGRAM, projectPath, setDraft, sharedHarness, slowHarness, storedProjects, submitPath } from './http-helpers.ts';
import { inquiryUrls, noteRequest } from './inquiry-helpers.ts';

// Idempotency-Key (draft-ietf-httpapi-idempotency-key-header) on CreateNewProject, SubmitProject, SetProjectAttachment
// and SetInquiryNote: a retry with the key gets the first answer again, byte for byte, without a second change; the
// key with another request is refused (422); keys are per user and kept 24 hours; of concurrent requests with one key
// exactly one makes its change, on SQLite and PostgreSQL, on one instance or two.

/** One request of the four operations: where it goes, as whom, with what body and headers. */
interface Send { method?: string; url: string; as?: Who; body?: string | Buffer; headers?: Record<string, string> }

function inject(app: FastifyInstance, h: HttpHarness, s: Send, key?: string): Promise<LightMyRequestResponse> {
  const xml = typeof s.body === 'string';
  return app.inject({
    method: (s.method ?? 'POST') as 'POST', url: s.url, payload: s.body,
    headers: {
      ...authHeaders(h.who[s.as ?? 'admin']), ...(xml ? { 'content-type': 'application/xml' } : {}),
      ...(key === undefined ? {} : { 'idempotency-key': key }), ...s.headers,
    },
  });
}

const photoUrl = (projectId: string) => `${projectPath(projectId)}/Forms/application/Attachments/photo`;

/** An upload of `bytes` as the photo of a project. */
function photo(projectId: string, bytes = 'a photo of the roof', as: Who = 'applicant', name = 'roof.png'): Send {
  return {
    url: photoUrl(projectId), as, body: Buffer.from(bytes),
    headers: { 'content-type': 'image/png', 'content-disposition': `attachment; filename="${name}"` },
  };
}

/** Asserts `again` is `first` replayed: status, the replayed headers and every byte of the body, marked as a replay. */
function assertReplay(first: LightMyRequestResponse, again: LightMyRequestResponse): void {
  assert.equal(first.statusCode, 200, first.body);
  assert.equal(again.statusCode, first.statusCode, again.body);
  assert.ok(again.rawPayload.equals(first.rawPayload), `the replay differs:\n${first.body}\n${again.body}`);
  for (const name of ['content-type', 'etag']) assert.equal(again.headers[name], first.headers[name], name);
  assert.equal(first.headers['idempotent-replayed'], undefined);
  assert.equal(again.headers['idempotent-replayed'], 'true');
}

/** A project of the applicant with a complete draft, ready to submit. */
async function readyProject(h: HttpHarness): Promise<string> {
  const projectId = await createProject(h, 'applicant');
  await setDraft(h, projectId, { ...COMPLETE, size: [...COMPLETE.size] }, 'applicant');
  return projectId;
}

/** What the four operations change, read straight from the store: one count per kind of change. */
async function changes(h: HttpHarness, projectId?: string) {
  const projects = await storedProjects(h);
  if (projectId === undefined) return { projects: projects.length, audit: (await h.store.audit.list({ limit: 1000 })).length };
  const threads = await h.store.inquiries.listThreads(projectId);
  const notes = (await Promise.all(threads.map((t) => h.store.inquiries.listNotes(t.id)))).flat();
  return {
    projects: projects.length,
    version: (await h.store.projects.getProject(IDS.program, projectId))?.version,
    history: (await h.store.projects.getHistory(projectId)).length,
    submissions: (await h.store.projects.getSubmissions(projectId)).length,
    photoVersion: (await h.store.attachments.getAttachment(projectId, IDS.photo))?.version ?? 0,
    threads: threads.length, notes: notes.length,
    audit: (await h.store.audit.list({ projectId })).length,
  };
}

/** The four operations, each as a request for a project made ready for it, and other requests that differ from it. */
const OPERATIONS: { name: string; prepare(h: HttpHarness): Promise<{ projectId?: string; send: Send; others: Send[] }> }[] = [
  {
    name: 'CreateNewProject',
    prepare: async () => {
      const send: Send = { url: `${PROGRAM}/NewProject`, as: 'applicant' };
      // The same program named by its generated id is another URL; another Accept asks for another answer.
      return { send, others: [{ ...send, url: `${API}/Programs/${IDS.program}/NewProject` }, { ...send, headers: { accept: 'text/plain' } }] };
    },
  },
  {
    name: 'SubmitProject',
    prepare: async (h) => {
      const projectId = await readyProject(h);
      const send: Send = { url: submitPath(projectId), as: 'applicant' };
      return { projectId, send, others: [{ ...send, url: `${projectPath(projectId)}/Forms/application/Submit` }, { url: `${PROGRAM}/NewProject`, as: 'applicant' }] };
    },
  },
  {
    name: 'SetProjectAttachment',
    prepare: async (h) => {
      const projectId = await createProject(h, 'applicant');
      return { projectId, send: photo(projectId), others: [photo(projectId, 'another photo of the roof'), photo(projectId, undefined, 'applicant', 'north.png')] };
    },
  },
  {
    name: 'SetInquiryNote',
    prepare: async (h) => {
      const projectId = await createProject(h, 'applicant');
      const send: Send = { url: inquiryUrls.addNote(projectId), body: noteRequest({ subject: 'Roof', text: 'Which roof?' }) };
      return { projectId, send, others: [{ ...send, body: noteRequest({ subject: 'Roof', text: 'Which roof, the north one?' }) }, { ...send, headers: { 'if-match': '*' } }] };
    },
  },
];

let keys = 0;
/** A key no other test uses, as an sf-string. */
function newKey(): string {
  keys += 1;
  return `"retry-${keys}-8e03978e-40d5-43e8-bc93-6894a57f9324"`;
}

forEachDialect('HTTP Idempotency-Key', ({ dialect, open }) => {
  const harness = sharedHarness(dialect);

  for (const op of OPERATIONS) {
    describe(op.name, () => {
      it('answers a retry with the first answer, byte for byte, and makes the change once', async () => {
        const h = harness();
        const { projectId, send } = await op.prepare(h);
        const key = newKey();
        const before = await changes(h, projectId);
        h.clock.advance();
        const first = await inject(h.app, h, send, key);
        assert.equal(first.statusCode, 200, first.body);
        assertValidXml(h, first);
        const once = await changes(h, projectId);
        assert.notDeepEqual(once, before, 'the first request made its change');
        h.clock.advance();
        assertReplay(first, await inject(h.app, h, send, key));
        h.clock.advance(KEY_LIFETIME_MS - 10_000);
        assertReplay(first, await inject(h.app, h, send, key));
        assert.deepEqual(await changes(h, projectId), once, 'the retries changed nothing');
      });

      it('refuses the key with another request (422), changes nothing, and still replays the first', async () => {
        const h = harness();
        const { projectId, send, others } = await op.prepare(h);
        const key = newKey();
        h.clock.advance();
        const first = await inject(h.app, h, send, key);
        assert.equal(first.statusCode, 200, first.body);
        const once = await changes(h, projectId);
        for (const other of others) {
          h.clock.advance();
          assertError(h, await inject(h.app, h, other, key), 422, 'IDEMPOTENCY_KEY_REUSED');
        }
        assert.deepEqual(await changes(h, projectId), once);
        assertReplay(first, await inject(h.app, h, send, key));
      });

      it('keeps keys per user: another user with the same key makes a change of its own', async () => {
        const h = harness();
        const { projectId, send } = await op.prepare(h);
        const key = newKey();
        h.clock.advance();
        const mine = await inject(h.app, h, send, key);
        assert.equal(mine.statusCode, 200, mine.body);
        const once = await changes(h, projectId);
        // The same operation by another user who may do it: an applicant's own project is the admin's to change too.
        const theirs = await inject(h.app, h, { ...send, as: send.as === 'applicant' ? 'admin' : 'programAdmin' }, key);
        assert.equal(theirs.statusCode, op.name === 'SubmitProject' ? 409 : 200, theirs.body);
        if (op.name === 'SubmitProject') {
          // The form was submitted by the first request: the other user's request was carried out, and refused by its rule.
          assertError(h, theirs, 409, 'FORM_NOT_AVAILABLE');
        } else {
          assert.equal(theirs.headers['idempotent-replayed'], undefined);
          assert.notDeepEqual(await changes(h, projectId), once, 'the other user made a change');
        }
      });

      it('takes a key again after 24 hours: the request is carried out anew', async () => {
        const h = harness();
        const { projectId, send } = await op.prepare(h);
        const key = newKey();
        h.clock.advance();
        const first = await inject(h.app, h, send, key);
        assert.equal(first.statusCode, 200, first.body);
        const once = await changes(h, projectId);
        h.clock.advance(KEY_LIFETIME_MS);
        const later = await inject(h.app, h, send, key);
        assert.equal(later.headers['idempotent-replayed'], undefined, later.body);
        if (op.name === 'SubmitProject') assertError(h, later, 409, 'FORM_NOT_AVAILABLE');
        else assert.equal(later.statusCode, 200, later.body);
        if (op.name !== 'SubmitProject') assert.notDeepEqual(await changes(h, projectId), once);
        // And the new request's answer is what a retry now gets.
        if (later.statusCode === 200) assertReplay(later, await inject(h.app, h, send, key));
      });
    });
  }

  describe('concurrent requests with one key', () => {
    for (const op of OPERATIONS) {
      it(`${op.name}: of requests sent at once to two instances exactly one makes the change; the others get its answer or 409`, async () => {
        const db = await open();
        const h = await startHttp(db);
        const store = await db.reopen();
        const second = await buildApp({ config: h.config, store, clock: h.clock, logger: false, sleep: async () => {}, blobs: new DatabaseBlobStore(store, h.clock) });
        try {
          const { projectId, send } = await op.prepare(h);
          const before = await changes(h, projectId);
          const key = newKey();
          h.clock.advance();
          const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => inject(i % 2 === 0 ? h.app : second, h, send, key)));
          for (const a of answers.filter((r) => r.statusCode !== 200)) assertError(h, a, 409, 'IDEMPOTENCY_KEY_IN_USE');
          const carriedOut = answers.filter((r) => r.statusCode === 200 && r.headers['idempotent-replayed'] === undefined);
          assert.equal(carriedOut.length, 1, `exactly one request was carried out: ${answers.map((r) => r.statusCode).join(', ')}`);
          const first = carriedOut[0]!;
          for (const a of answers.filter((r) => r.statusCode === 200 && r !== first)) assertReplay(first, a);
          const after = await changes(h, projectId);
          assert.equal(after.audit, before.audit + 1, 'one audited change');
          if (projectId === undefined) assert.equal(after.projects, before.projects + 1, 'one project');
          else assert.equal(after.version, (before.version ?? 0) + 1, 'one change of the project');
          // Once the dust settles every retry, on either instance, gets the one answer.
          assertReplay(first, await inject(h.app, h, send, key));
          assertReplay(first, await inject(second, h, send, key));
        } finally {
          await second.close();
          await h.close();
        }
      });
    }
  });

  it('reads an upload sent again with a taken key only to compare it, and refuses one longer than any upload may be (422)', async () => {
    const db = await open();
    const h = await startHttp(db, { APAS_MAX_UPLOAD_BYTES: '64' });
    try {
      const projectId = await createProject(h, 'applicant');
      const key = newKey();
      h.clock.advance();
      const first = await inject(h.app, h, photo(projectId), key);
      assert.equal(first.statusCode, 200, first.body);
      const once = await changes(h, projectId);
      assertError(h, await inject(h.app, h, photo(projectId, 'x'.repeat(65)), key), 422, 'IDEMPOTENCY_KEY_REUSED');
      assertError(h, await inject(h.app, h, photo(projectId, 'x'.repeat(64 * 1024)), key), 422, 'IDEMPOTENCY_KEY_REUSED');
      assertReplay(first, await inject(h.app, h, photo(projectId), key));
      assert.deepEqual(await changes(h, projectId), once);
    } finally {
      await h.close();
    }
  });

  it("keeps keys per user whatever the credentials: a retry with the user's OAuth bearer token gets the answer given to Basic", async () => {
    const h = harness();
    const client = await new OAuthClientService({ store: h.store, clock: h.clock, ids: new RandomIdGenerator() }).createClient(h.who.applicant.email, 'retrying client');
    const issued = await h.app.inject({
      method: 'POST', url: '/services/v2/oauth/token', payload: 'grant_type=client_credentials',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`, 'x-apikey': h.who.applicant.apiKey },
    });
    assert.equal(issued.statusCode, 200, issued.body);
    const token = (JSON.parse(issued.body) as { access_token: string }).access_token;
    const key = newKey();
    h.clock.advance();
    const first = await inject(h.app, h, { url: `${PROGRAM}/NewProject`, as: 'applicant' }, key);
    assert.equal(first.statusCode, 200, first.body);
    const viaToken = await h.app.inject({
      method: 'POST', url: `${PROGRAM}/NewProject`, headers: { authorization: `Bearer ${token}`, 'x-apikey': h.who.applicant.apiKey, 'idempotency-key': key },
    });
    assertReplay(first, viaToken);
  });

  it('replays a JSON answer as it was sent, and takes the same note sent as XML for another request', async () => {
    const h = harness();
    const projectId = await createProject(h, 'applicant');
    const key = newKey();
    const json: Send = {
      url: inquiryUrls.addNote(projectId), body: JSON.stringify({ Subject: 'Roof', VisibleToApplicant: 'false', Text: 'Which roof?' }),
      headers: { 'content-type': 'application/json', accept: 'application/json' },
    };
    h.clock.advance();
    const first = await inject(h.app, h, json, key);
    assert.equal(first.statusCode, 200, first.body);
    assert.match(String(first.headers['content-type']), /^application\/json/);
    assertReplay(first, await inject(h.app, h, json, key));
    const created = await inject(h.app, h, { url: `${PROGRAM}/NewProject`, as: 'applicant', headers: { accept: 'application/json' } }, key);
    assertError(h, await inject(h.app, h, { url: inquiryUrls.addNote(projectId), body: noteRequest({ subject: 'Roof', text: 'Which roof?' }) }, key), 422, 'IDEMPOTENCY_KEY_REUSED');
    assert.equal(created.statusCode, 200, 'keys are per user: the applicant has not used this one');
    assert.equal((await h.store.inquiries.listThreads(projectId)).length, 1);
  });

  describe('over a real connection', () => {
    /** Sends an upload as the applicant over a socket; `chunks` of 16 KiB are written as fast as the server takes them. */
    function send(port: number, path: string, headers: Record<string, string>, body: Buffer | { chunks: number }): Promise<Answer> {
      return new Promise((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method: 'POST', path, agent: false, headers }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, replayed: res.headers['idempotent-replayed'] === 'true' }));
        });
        req.on('error', reject);
        if (Buffer.isBuffer(body)) return void req.end(body);
        let sent = 0;
        const pump = () => {
          while (sent < body.chunks && !req.destroyed) {
            sent += 1;
            if (!req.write(Buffer.alloc(16 * 1024, sent))) return void req.once('drain', pump);
          }
          req.end();
        };
        pump();
      });
    }

    /** What came back over the socket. */
    interface Answer { status: number; body: string; replayed: boolean }

    function assertRefused(answer: Answer, status: number, code: string): void {
      assert.equal(answer.status, status, answer.body);
      assert.match(answer.body, new RegExp(`Code="${code}"`));
    }

    it('answers uploads with a key that are refused while the client still sends, and replays one sent again whole', async () => {
      const db = await open();
      const h = await startHttp(db, { APAS_MAX_UPLOAD_BYTES: String(64 * 1024) });
      try {
        const projectId = await createProject(h, 'applicant');
        await h.app.listen({ host: '127.0.0.1', port: 0 });
        const { port } = h.app.server.address() as AddressInfo;
        const headers = (key: string, extra: Record<string, string> = {}) => ({
          ...authHeaders(h.who.applicant), 'content-type': 'image/png', 'content-disposition': 'attachment; filename="roof.png"', 'idempotency-key': key, ...extra,
        });
        const before = await changes(h, projectId);
        // Streamed past the limit, and written whole before reading, with and without Content-Length: 413, key left free.
        const key = newKey();
        assertRefused(await send(port, photoUrl(projectId), headers(key, { 'transfer-encoding': 'chunked' }), { chunks: 256 }), 413, 'PAYLOAD_TOO_LARGE');
        const big = Buffer.alloc(5 * 1024 * 1024, 7);
        assertRefused(await send(port, photoUrl(projectId), headers(key), big), 413, 'PAYLOAD_TOO_LARGE');
        assertRefused(await send(port, photoUrl(projectId), headers(key, { 'content-length': String(big.length) }), big), 413, 'PAYLOAD_TOO_LARGE');
        // Refused before a byte is read (the type), while 4 MiB keep coming.
        assertRefused(await send(port, photoUrl(projectId), headers(key, { 'content-type': 'application/pdf', 'transfer-encoding': 'chunked' }), { chunks: 256 }), 415, 'UNSUPPORTED_MEDIA_TYPE');
        // A client that gives up halfway: the upload breaks off, nothing is stored and the key stays free.
        await new Promise<void>((resolve) => {
          const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: photoUrl(projectId), agent: false, headers: headers(key, { 'content-length': String(60 * 1024) }) });
          req.on('error', () => resolve());
          req.write(Buffer.alloc(20 * 1024, 1), () => setTimeout(() => req.destroy(), 50));
          req.on('close', () => resolve());
        });
        assert.deepEqual(await changes(h, projectId), before);
        const file = Buffer.alloc(40 * 1024, 3);
        const first = await send(port, photoUrl(projectId), headers(key), file);
        assert.deepEqual([first.status, first.replayed], [200, false], first.body);
        const again = await send(port, photoUrl(projectId), headers(key), file);
        assert.deepEqual([again.status, again.body, again.replayed], [200, first.body, true]);
        // The key is taken: a longer body is read only as far as the limit and refused, while the client still sends.
        assertRefused(await send(port, photoUrl(projectId), headers(key, { 'transfer-encoding': 'chunked' }), { chunks: 256 }), 422, 'IDEMPOTENCY_KEY_REUSED');
        assert.equal((await changes(h, projectId)).photoVersion, 1);
      } finally {
        await h.close();
      }
    });
  });

  describe('a refused request', () => {
    it('leaves its key free: SubmitProject refused as incomplete is carried out with the same key once complete', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const key = newKey();
      const send: Send = { url: submitPath(projectId), as: 'applicant' };
      h.clock.advance();
      const refused = await inject(h.app, h, send, key);
      assertError(h, refused, 422, 'FORM_INCOMPLETE');
      const again = await inject(h.app, h, send, key);
      assertError(h, again, 422, 'FORM_INCOMPLETE');
      assert.equal(again.headers['idempotent-replayed'], undefined, 'a refusal is not replayed: the request is decided anew');
      await setDraft(h, projectId, { ...COMPLETE, size: [...COMPLETE.size] }, 'applicant');
      h.clock.advance();
      const submitted = await inject(h.app, h, send, key);
      assert.equal(submitted.statusCode, 200, submitted.body);
      assert.ok(attr(submitted.body, 'Project', 'ProjectNumber'));
      assertReplay(submitted, await inject(h.app, h, send, key));
      assert.equal((await h.store.projects.getSubmissions(projectId)).length, 1);
    });

    it('leaves its key free for another request: a refused upload (415), a forbidden note (403) and a malformed body (400)', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const key = newKey();
      h.clock.advance();
      const wrongType = { ...photo(projectId), headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="roof.pdf"' } };
      assertError(h, await inject(h.app, h, wrongType, key), 415, 'UNSUPPORTED_MEDIA_TYPE');
      const uploaded = await inject(h.app, h, photo(projectId), key);
      assert.equal(uploaded.statusCode, 200, uploaded.body);
      assertReplay(uploaded, await inject(h.app, h, photo(projectId), key));

      const noteKey = newKey();
      const note: Send = { url: inquiryUrls.addNote(projectId), as: 'programAdmin', body: noteRequest({ subject: 'Roof', text: 'Which roof?' }) };
      assertError(h, await inject(h.app, h, { ...note, as: 'editor' }, noteKey), 403, 'FORBIDDEN');
      assertError(h, await inject(h.app, h, { ...note, as: 'programAdmin', body: '<SetInquiryNoteRequest' }, noteKey), 400, 'MALFORMED_XML');
      const added = await inject(h.app, h, note, noteKey);
      assert.equal(added.statusCode, 200, added.body);
      assertReplay(added, await inject(h.app, h, note, noteKey));
      assert.equal((await h.store.inquiries.listThreads(projectId)).length, 1);
    });
  });

  describe('the header', () => {
    it('is refused with 400 INVALID_REQUEST when malformed, before anything is changed or read', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const before = await changes(h, projectId);
      const malformed = ['""', `"${'k'.repeat(256)}"`, '"caf\u00e9"', '"a", "b"', '"a";p=1', 'a b', '"unterminated', '"tab\there"', '"back\\slash"'];
      for (const value of malformed) {
        for (const send of [{ url: `${PROGRAM}/NewProject`, as: 'applicant' as const }, photo(projectId), { url: submitPath(projectId), as: 'applicant' as const }]) {
          const res = await inject(h.app, h, send, value);
          assertError(h, res, 400, 'INVALID_REQUEST');
          assert.match(res.body, /Idempotency-Key/);
        }
      }
      assert.deepEqual(await changes(h, projectId), before);
    });

    it('takes a bare token as the same key quoted, and keys of up to 255 characters', async () => {
      const h = harness();
      const send: Send = { url: `${PROGRAM}/NewProject`, as: 'applicant' };
      h.clock.advance();
      const bare = await inject(h.app, h, send, 'bare-8e03978e-40d5-43e8-bc93-6894a57f9324');
      assert.equal(bare.statusCode, 200, bare.body);
      assertReplay(bare, await inject(h.app, h, send, '"bare-8e03978e-40d5-43e8-bc93-6894a57f9324"'));
      const escaped = await inject(h.app, h, send, '"say \\"hi\\""');
      assert.equal(escaped.statusCode, 200, escaped.body);
      assert.equal((await h.store.idempotency.findIdempotencyKey(h.who.applicant.id, 'say "hi"'))?.key, 'say "hi"', 'stored unescaped');
      const long = `"${'k'.repeat(255)}"`;
      const first = await inject(h.app, h, send, long);
      assert.equal(first.statusCode, 200, first.body);
      assertReplay(first, await inject(h.app, h, send, long));
    });

    it('is ignored by the other operations: SetProjectData with one key twice changes twice, and a malformed one is not looked at', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const before = await changes(h, projectId);
      const send: Send = { url: draftPath(projectId), as: 'applicant', body: dataRequest({ name: 'Jane' }) };
      for (const key of [newKey(), '"unterminated']) {
        for (let i = 0; i < 2; i++) {
          const res = await inject(h.app, h, send, key);
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(res.headers['idempotent-replayed'], undefined);
        }
      }
      assert.equal((await changes(h, projectId)).version, (before.version ?? 0) + 4);
    });
  });

  describe('an answer that was not kept', () => {
    it('is never made up again: a retry gets 409 with Retry-After while the answer may still come, then 409 saying it was lost', async () => {
      const db = await open();
      // The change commits and its answer goes out, but storing the answer fails (as when the process stops in between).
      const failing = { ...db.store, idempotency: { ...db.store.idempotency, saveIdempotentAnswer: async () => { throw new Error('the process stopped'); } } };
      const h = await startHttp({ ...db, store: failing });
      try {
        const send: Send = { url: `${PROGRAM}/NewProject`, as: 'applicant' };
        const key = newKey();
        h.clock.advance();
        const first = await inject(h.app, h, send, key);
        assert.equal(first.statusCode, 200, first.body);
        const once = await changes(h);
        h.clock.advance();
        const soon = await inject(h.app, h, send, key);
        assertError(h, soon, 409, 'IDEMPOTENCY_KEY_IN_USE');
        assert.equal(soon.headers['retry-after'], '1');
        h.clock.advance(ANSWER_GRACE_MS);
        const late = await inject(h.app, h, send, key);
        assertError(h, late, 409, 'IDEMPOTENCY_KEY_IN_USE');
        assert.equal(late.headers['retry-after'], undefined);
        assert.match(late.body, /not kept/);
        assert.deepEqual(await changes(h), once, 'no retry made a second project');
      } finally {
        await h.close();
      }
    });

    it('a request rolled back after taking its key (503) leaves the key free: the retry is carried out', async () => {
      const { h, setSlow } = await slowHarness(open);
      try {
        const send: Send = { url: `${PROGRAM}/NewProject`, as: 'applicant' };
        const key = newKey();
        const before = await changes(h);
        setSlow(async () => {
          h.clock.advance(MAX_WRITE_TRANSACTION_MS + 1);
        });
        assertError(h, await inject(h.app, h, send, key), 503, 'SERVICE_UNAVAILABLE');
        setSlow(null);
        assert.deepEqual(await changes(h), before);
        const retried = await inject(h.app, h, send, key);
        assert.equal(retried.statusCode, 200, retried.body);
        assert.equal(retried.headers['idempotent-replayed'], undefined);
        assertReplay(retried, await inject(h.app, h, send, key));
        assert.equal((await changes(h)).projects, before.projects + 1);
      } finally {
        await h.close();
      }
    });
  });

  it('sweeps keys older than 24 hours, and only those', async () => {
    const h = harness();
    const key = newKey();
    h.clock.advance();
    const res = await inject(h.app, h, { url: `${PROGRAM}/NewProject`, as: 'applicant' }, key);
    assert.equal(res.statusCode, 200, res.body);
    const stored = key.slice(1, -1);
    const sweeper = new IdempotencyService({ store: h.store, clock: h.clock });
    h.clock.advance(KEY_LIFETIME_MS - 1);
    await sweeper.sweepExpired();
    assert.ok(await h.store.idempotency.findIdempotencyKey(h.who.applicant.id, stored), 'kept for 24 hours');
    h.clock.advance(1);
    assert.ok((await sweeper.sweepExpired()) >= 1);
    assert.equal(await h.store.idempotency.findIdempotencyKey(h.who.applicant.id, stored), null);
  });
});
