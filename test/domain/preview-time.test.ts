import assert from 'node:assert/strict';
import { it } from 'node:test';
import { PREVIEW_CLOCK_STEP_MS, previewTime } from '../../src/domain/documents/preview-time.ts';
import { localDateOf } from '../../src/model/local-date.ts';

// A preview's clock (src/domain/documents/preview-time.ts): down to the quarter hour, the same date in every zone.

it('stands still for a quarter hour and keeps the date of now in every time zone, the quarter-hour offsets too', () => {
  const quarter = Date.UTC(2026, 10, 30, 6, 15);
  for (const at of [quarter, quarter + 1, quarter + PREVIEW_CLOCK_STEP_MS - 1]) assert.equal(previewTime(at), quarter);
  assert.equal(previewTime(quarter + PREVIEW_CLOCK_STEP_MS), quarter + PREVIEW_CLOCK_STEP_MS);
  // Just after midnight, local and UTC, where a coarser step (an hour, a day) would give yesterday's date.
  const zones = ['UTC', 'America/Los_Angeles', 'America/St_Johns', 'Asia/Kolkata', 'Asia/Kathmandu', 'Pacific/Chatham', 'Australia/Eucla'];
  for (const zone of zones) {
    for (let at = Date.UTC(2026, 10, 29, 0, 1); at < Date.UTC(2026, 11, 1); at += 60_000 * 7) {
      assert.equal(localDateOf(previewTime(at), zone), localDateOf(at, zone), `${zone} at ${new Date(at).toISOString()}`);
    }
  }
});
