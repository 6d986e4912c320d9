import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApiError } from '../../src/domain/api-error.ts';
import { checkMoveReason, requiresReason } from '../../src/domain/workflow/status-reasons.ts';
import type { Status } from '../../src/model/model.ts';

// The check of a status move's reason: required always, or only for moves from the statuses listed.

const base: Status = { id: 'S2', customId: 'Fix', publicId: 'fix', name: 'Fix it', isInitial: false, position: 1, next: [] };
const reasons = [{ customId: 'Labels', name: 'Labels missing' }];

test('a reason required from some statuses is required only for moves from them', () => {
  const target: Status = { ...base, reasons, reasonRequired: ['S5'] };
  assert.equal(requiresReason(target, 'S5'), true);
  assert.equal(requiresReason(target, 'S1'), false);
  assert.deepEqual(checkMoveReason(target, 'S1', { reasonId: null, message: null }), { reasonId: null, message: null });
  assert.throws(() => checkMoveReason(target, 'S5', { reasonId: null, message: 'why' }),
    (e: ApiError) => e.code === 'INVALID_REQUEST' && e.message === 'A move to "Fix it" needs a reason (ReasonId): one of Labels (Labels missing).');
  assert.deepEqual(checkMoveReason(target, 'S5', { reasonId: ' Labels ', message: 'a\r\nb' }), { reasonId: 'Labels', message: 'a\nb' });
});

test('every move needs one when reasonRequired is true; none when absent; a blank message is none', () => {
  const always: Status = { ...base, reasons, reasonRequired: true };
  assert.equal(requiresReason(always, 'S1'), true);
  assert.equal(requiresReason(base, 'S1'), false);
  assert.deepEqual(checkMoveReason({ ...base, reasons }, 'S1', { reasonId: '', message: '  \n ' }), { reasonId: null, message: null });
  assert.throws(() => checkMoveReason({ ...base, reasons }, 'S1', { reasonId: null, message: 'x'.repeat(4001) }), /at most 4000 characters; it has 4001/);
});
