import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { ProgramsResponse } from '../../src/wire/documents/projects.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS, T0 } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, attrs } from '../support/http-harness.ts';
import { assertJsonError, assertSameAnswer, JSON_ANSWER } from '../support/json-answers.ts';
import { API, type MatrixRow, send, sharedHarness, UNAUTHENTICATED } from './http-helpers.ts';

// GetPrograms: GET /services/v2/Programs?Agency={agency id or custom id}

const WIND = 'PROGRAM00002';
const ELSEWHERE = 'PROGRAM00003';

function minimalProgram(id: string, agencyId: string, customId: string, name: string, statusId: string) {
  return {
    program: { id, agencyId, customId, name, numberPrefix: 'X-', numberDigits: 5, updatedAt: T0, createdAt: T0 + 1 },
    lists: [],
    statuses: [{ id: statusId, customId: 'open', publicId: `OPEN-${id}`, name: 'Open', isInitial: true, position: 0, next: [] }],
    fields: [],
    forms: [],
  };
}

forEachDialect('HTTP GetPrograms', ({ dialect }) => {
  const harness = sharedHarness(dialect);

  before(async () => {
    const h = harness();
    // A second program of the agency in which only the editor (as reader) has a grant, and another
    // agency whose program shares the custom id "solar".
    await h.store.transaction(async (tx) => {
      await tx.programs.saveProgramDefinition(minimalProgram(WIND, IDS.agency, 'wind', 'Wind Rebates', 'STATUS000009'));
      await tx.accounts.setGrant({ userId: h.who.editor.id, programId: WIND, role: 'reader', sensitive: false });
      await tx.accounts.insertAgency({ id: 'AGENCY000002', customId: 'elsewhere', name: 'Elsewhere Utility' }, T0);
      await tx.programs.saveProgramDefinition(minimalProgram(ELSEWHERE, 'AGENCY000002', 'solar', 'Elsewhere Solar', 'STATUS000010'));
    });
  });

  const matrix: (MatrixRow & { programs?: string[] })[] = [
    { who: 'admin', status: 200, programs: [IDS.program, WIND] },
    { who: 'programAdmin', status: 200, programs: [IDS.program] },
    { who: 'editor', status: 200, programs: [IDS.program, WIND] },
    { who: 'reader', status: 200, programs: [IDS.program] },
    { who: 'applicant', status: 200, programs: [IDS.program] },
    { who: 'otherApplicant', status: 200, programs: [IDS.program] },
    { who: 'outsider', status: 200, programs: [] },
    ...UNAUTHENTICATED,
  ];
  for (const row of matrix) {
    it(`lists the programs in which the caller has a role: ${row.who} → ${row.status}${row.code ? ` ${row.code}` : ''}`, async () => {
      const h = harness();
      const res = await send(h, row.who, { method: 'GET', url: `${API}/Programs?Agency=acme` });
      if (row.code) return assertError(h, res, row.status, row.code);
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'ProgramsResponse');
      assert.deepEqual(attrs(res.body, 'Program', 'ProgramId'), row.programs);
    });
  }

  it('names each program, stamps the request time and accepts the agency by generated id too', async () => {
    const h = harness();
    const res = await h.request({ method: 'GET', url: `${API}/Programs?Agency=${IDS.agency}`, as: 'admin' });
    assert.equal(res.statusCode, 200, res.body);
    assertValidXml(h, res, 'ProgramsResponse');
    assert.deepEqual(attrs(res.body, 'Program', 'ProgramName'), ['Solar Interconnection', 'Wind Rebates']);
    assert.equal(attr(res.body, 'ProgramsResponse', 'RequestTimestamp'), new Date(h.clock.now()).toISOString().replace('Z', '+00:00'));
  });

  it('answers in JSON when Accept asks for it, with the values of the XML answer', async () => {
    const h = harness();
    const url = `${API}/Programs?Agency=acme`;
    const xml = await h.request({ method: 'GET', url, as: 'admin' });
    const json = await h.request({ method: 'GET', url, as: 'admin', headers: JSON_ANSWER });
    const value = assertSameAnswer(h, xml, json, ProgramsResponse);
    assert.deepEqual(value.Program.map((p) => p.ProgramName), ['Solar Interconnection', 'Wind Rebates']);
    assertJsonError(await h.request({ method: 'GET', url: `${API}/Programs`, as: 'admin', headers: JSON_ANSWER }), 400, 'INVALID_PARAMETER');
  });

  it("answers another agency exactly like an unknown one (404), even to an agency admin", async () => {
    const h = harness();
    const answers: string[] = [];
    for (const agency of ['elsewhere', 'AGENCY000002', 'nowhere']) {
      const res = await h.request({ method: 'GET', url: `${API}/Programs?Agency=${agency}`, as: 'admin' });
      assertError(h, res, 404, 'NOT_FOUND');
      answers.push(attr(res.body, 'ErrorResponse', 'Message')!.replace(agency, '…'));
    }
    assert.equal(new Set(answers).size, 1, answers.join(' | '));
  });

  for (const [query, status, code] of [
    ['', 400, 'INVALID_PARAMETER'],
    ['?Agency=', 400, 'INVALID_PARAMETER'],
    ['?Agency=acme&Agency=acme', 400, 'INVALID_PARAMETER'],
    ['?Agency=nowhere', 404, 'NOT_FOUND'],
  ] as const) {
    it(`refuses GET /Programs${query} with ${status} ${code}`, async () => {
      const h = harness();
      assertError(h, await h.request({ method: 'GET', url: `${API}/Programs${query}`, as: 'admin' }), status, code);
    });
  }
});
