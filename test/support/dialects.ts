// The databases the contract tests may run on, apart from the stores, so that the test runner reads them cheaply.

/** Every database the Store supports. */
export const ALL_DIALECTS = ['sqlite', 'postgres'] as const;

/** One of ALL_DIALECTS. */
export type TestDialect = (typeof ALL_DIALECTS)[number];

/** The dialects APAS_TEST_DIALECTS names (comma-separated), or all; an unknown name stops the run rather than skip tests. */
export function chosenDialects(names: string | undefined): readonly TestDialect[] {
  if (names === undefined || names.trim() === '') return ALL_DIALECTS;
  const chosen = names.split(',').map((n) => n.trim()).filter((n) => n !== '');
  for (const n of chosen) if (!(ALL_DIALECTS as readonly string[]).includes(n)) throw new Error(`APAS_TEST_DIALECTS: unknown dialect "${n}"; use ${ALL_DIALECTS.join(', ')}`);
  return ALL_DIALECTS.filter((d) => chosen.includes(d));
}
