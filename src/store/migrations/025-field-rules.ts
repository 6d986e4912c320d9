import type { Kysely } from 'kysely';

/**
 * Program logic: `data_fields.formula` holds a calculated field's CEL formula (its `type` is the formula's result
 * type; null for fields people fill in), and `form_fields.rules` a field's rules on a form as JSON (visibleIf,
 * requiredIf, readOnlyIf, validations; null for none). Existing rows need nothing: null means "as before".
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('data_fields').addColumn('formula', 'text').execute();
  await db.schema.alterTable('form_fields').addColumn('rules', 'text').execute();
}
