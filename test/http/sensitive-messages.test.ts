import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { totpCode } from '../../src/domain/accounts/mfa.ts';
import { MfaService } from '../../src/domain/accounts/mfa-service.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS, programRows, T0 } from '../support/fixtures.ts';
import { assertError, attr, dataRequest, type HttpHarness } from '../support/http-harness.ts';
import { createProject, draftPath, PROGRAM, sharedHarness } from './http-helpers.ts';
import { byDataRequest } from './workflow-helpers.ts';

// Values of sensitive fields never appear in error messages: answers may go to people who must not see them, and
// every error message is written to the log.

/** The fixture program with its number field kw made sensitive. */
async function makeKwSensitive(h: HttpHarness): Promise<void> {
  const rows = programRows(T0 + 5);
  const fields = rows.fields.map((f) => (f.id === IDS.kw ? { ...f, sensitive: true } : f));
  await h.store.transaction((tx) => tx.programs.saveProgramDefinition({ ...rows, fields }));
}

forEachDialect('sensitive values in error messages', ({ dialect }) => {
  const harness = sharedHarness(dialect);
  let adminSecret = '';

  before(async () => {
    const h = harness();
    await makeKwSensitive(h);
    const uri = await new MfaService({ store: h.store, clock: h.clock, ids: new RandomIdGenerator() }).enrol(h.who.admin.email);
    adminSecret = new URL(uri).searchParams.get('secret')!;
  });

  it('SetProjectData names a bad value of a sensitive field as ******** and quotes others', async () => {
    const h = harness();
    const projectId = await createProject(h, 'applicant');
    const res = await h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body: dataRequest({ kw: '12-secret-34', size: ['XL-SIZE'] }) });
    assertError(h, res, 422, 'VALIDATION_FAILED');
    assert.doesNotMatch(res.body, /secret/);
    const problems = [...res.body.matchAll(/<FieldError [^>]*CustomId="(\w+)"[^>]*Message="([^"]*)"/g)].map((m) => [m[1], m[2]]);
    assert.deepEqual(problems, [
      ['kw', 'Capacity (kW) must be a number; got ********.'],
      ['size', '&quot;XL-SIZE&quot; is not a choice of System size.'],
    ]);
  });

  it('GetProjectsByData leaves the Content of a sensitive field out of its message', async () => {
    const h = harness();
    h.clock.advance(30_000);
    const res = await h.request({
      method: 'POST', url: `${PROGRAM}/Projects/ByData`, as: 'admin', headers: { 'x-mfa-totp': totpCode(adminSecret, h.clock.now()) },
      body: byDataRequest({ fields: [{ id: 'kw', operator: 'gt', content: 'secret-7' }] }),
    });
    assertError(h, res, 400, 'INVALID_REQUEST');
    // Sealed values can only be compared for equality, so the order comparison is refused before its Content is read.
    assert.equal(attr(res.body, 'ErrorResponse', 'Message'),
      'Capacity (kW) is a sensitive field, stored encrypted: it can be searched only with the operators eq, ne, empty and notempty, not gt.');
    assert.doesNotMatch(res.body, /secret-7/);
  });
});
