import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ApiError } from '../../src/domain/api-error.ts';
import { formatGroupGrants, mappedAccess, parseGroupGrants } from '../../src/domain/sign-on/group-grants.ts';
import type { Program } from '../../src/model/model.ts';

// Single sign-on's mapping of the provider's groups to grants: a line may limit its grant to access groups of the
// program (`only north,south`), read back as written, and only groups the program defines are taken.

const program = {
  id: 'PROGRAM00001', customId: 'solar', roles: [],
  accessGroups: [{ customId: 'north', name: 'North', if: 'true' }, { customId: 'south', name: 'South', if: 'true' }],
} as unknown as Program;

it('a mapping line with `only` limits its grant to those access groups; one without names none', () => {
  const text = 'north-reviewers = solar editor only north\nall-reviewers = solar reader sensitive only north, south\nleads = solar admin';
  const entries = parseGroupGrants(text, [program]);
  assert.deepEqual(entries.map((e) => (e.agencyAdmin ? null : e.accessGroups ?? null)), [['north'], ['north', 'south'], null]);
  assert.equal(formatGroupGrants(entries, [program]), 'north-reviewers = solar editor only north\nall-reviewers = solar reader sensitive only north,south\nleads = solar admin');
  assert.deepEqual(parseGroupGrants(formatGroupGrants(entries, [program]), [program]), entries);
  assert.deepEqual(mappedAccess(['north-reviewers'], entries, [program]).grants, [{ programId: program.id, role: 'editor', sensitive: false, accessGroups: ['north'] }]);
  assert.deepEqual(mappedAccess(['leads'], entries, [program]).grants, [{ programId: program.id, role: 'admin', sensitive: false }]);
});

it('refuses an access group the program does not define, and `only` with no group, naming the line', () => {
  for (const [line, message] of [['x = solar editor only west', /line 1 .*no access group "west"/], ['x = solar editor only', /line 1 .*only ACCESSGROUP/]] as const) {
    assert.throws(() => parseGroupGrants(line, [program]), (e: unknown) => e instanceof ApiError && e.code === 'INVALID_PARAMETER' && message.test(e.message));
  }
});
