/** Which SQL engine a Kysely instance talks to. */
export type Dialect = 'sqlite' | 'postgres';
