import type { Program } from '../../model/model.ts';

/** The custom id a live program's test copy gets. */
export function testCustomId(live: Pick<Program, 'customId'>): string {
  return `${live.customId}-test`;
}

/** The number prefix of a test copy: TEST and the live prefix (at most 16 characters), so its numbers never look live. */
export function testNumberPrefix(live: Pick<Program, 'numberPrefix'>): string {
  return `TEST${live.numberPrefix}`.slice(0, 16);
}
