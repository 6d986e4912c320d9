import type { Kysely } from 'kysely';
import { fieldValueContext } from './sealed-field-values.ts';
import { mfaSecretContext } from './mfa-queries.ts';
import { type SecretBox, sealedKeyId } from './secret-box.ts';
import { StoreError } from './store-error.ts';
import type { Database } from './tables.ts';
import { webhookSecretContext } from './webhook-secrets.ts';
import { signOnSecretContext } from './sign-on-queries.ts';
import { connectionAuthContext, settingsRowId } from './connection-queries.ts';

/**
 * Every kind of sealed value the database holds (TOTP secrets, webhook signing secrets current and previous, single
 * sign-on client secrets, values
 * of sensitive fields submitted, as list items and as drafts), found by their stored form rather than by the
 * fields' marks, so that a value sealed under a mark since removed is found too. Used to decide whether a key may be
 * made (a new installation holds none), to check a restored backup against the configured keys, and to drop the
 * values no configured key opens (`apas secrets drop-unreadable`).
 */

const SEALED_LIKE = 'sealed:v1:%';
const SEALED_IN_LIST = '%"sealed:v1:%';

/** A submitted value of a field of a project (its list items included), or a draft's value of a field in a form. */
export interface FieldValueRef { projectId: string; fieldId: string; formId?: string }

/** What a pass over the sealed values found: how many, under which key ids, and which of them no configured key opens. */
export interface SealedValueReport {
  /** Sealed values of every kind (a list counts each sealed text). */
  sealed: number;
  /** The key ids they are sealed with, in the order first met. */
  keyIds: string[];
  /** Users whose TOTP secret does not open. */
  totpUsers: string[];
  /** Webhook subscriptions whose signing secret does not open. */
  webhookSecrets: string[];
  /** Webhook subscriptions whose previous signing secret (a rotation's grace period) does not open. */
  previousWebhookSecrets: string[];
  /** Agencies whose single sign-on client secret does not open. */
  signOnSecrets: string[];
  /** Connections (program id "/" connection customId) whose sign-in does not open. */
  connectionSecrets: string[];
  /** Submitted values of sensitive fields (a list whole) of which a text does not open. */
  fieldValues: FieldValueRef[];
  /** Drafts' values of sensitive fields of which a text does not open. */
  draftValues: FieldValueRef[];
}

/** How many values a report says do not open. */
export function unreadableCount(r: SealedValueReport): number {
  return r.totpUsers.length + r.webhookSecrets.length + r.previousWebhookSecrets.length + r.signOnSecrets.length + r.connectionSecrets.length + r.fieldValues.length + r.draftValues.length;
}

/** The unreadable values of a report in words, kind by kind ("2 TOTP secrets, 1 value of a sensitive field"). */
export function describeUnreadable(r: SealedValueReport): string {
  const parts: [number, string, string][] = [
    [r.totpUsers.length, 'TOTP secret', 'TOTP secrets'],
    [r.webhookSecrets.length + r.previousWebhookSecrets.length, 'webhook signing secret', 'webhook signing secrets'],
    [r.signOnSecrets.length, 'single sign-on client secret', 'single sign-on client secrets'],
    [r.connectionSecrets.length, 'connection sign-in', 'connection sign-ins'],
    [r.fieldValues.length, 'submitted value of a sensitive field', 'submitted values of sensitive fields'],
    [r.draftValues.length, 'draft value of a sensitive field', 'draft values of sensitive fields'],
  ];
  const said = parts.filter(([n]) => n > 0).map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
  return said.length === 0 ? 'nothing' : said.join(', ');
}

/** The tables and columns present: a restored backup of an older version may lack some. */
async function columnsOf(db: Kysely<Database>): Promise<Set<string>> {
  const tables = await db.introspection.getTables();
  return new Set(tables.flatMap((t) => t.columns.map((c) => `${t.name}.${c.name}`)));
}

// Each place a sealed text may be stored, with a cheap test that it holds one.
const PLACES: [string, string, string][] = [
  ['user_mfa', 'secret', SEALED_LIKE], ['webhook_subscriptions', 'secret', SEALED_LIKE], ['webhook_subscriptions', 'previous_secret', SEALED_LIKE],
  ['agency_sign_on', 'client_secret', SEALED_LIKE], ['connection_settings', 'auth', SEALED_LIKE],
  ['project_values', 'value', SEALED_LIKE], ['project_values', 'values_json', SEALED_IN_LIST], ['project_value_items', 'value', SEALED_LIKE],
  ['project_drafts', 'value', SEALED_LIKE], ['project_drafts', 'values_json', SEALED_IN_LIST],
];

/** True when the database holds any sealed value at all: a database that holds none may be given a new key. */
export async function sealedValuesExist(db: Kysely<Database>): Promise<boolean> {
  const present = await columnsOf(db);
  for (const [table, column, like] of PLACES) {
    if (!present.has(`${table}.${column}`)) continue;
    // biome-ignore lint/suspicious/noExplicitAny: the place is one of the fixed list above, checked against the schema.
    const row = await (db as Kysely<any>).selectFrom(table).select(column).where(column, 'like', like).limit(1).executeTakeFirst();
    if (row) return true;
  }
  return false;
}

class Scan {
  readonly report: SealedValueReport = { sealed: 0, keyIds: [], totpUsers: [], webhookSecrets: [], previousWebhookSecrets: [], signOnSecrets: [], connectionSecrets: [], fieldValues: [], draftValues: [] };

  constructor(readonly secrets: SecretBox | null) {}

  /** Whether every sealed text of `texts` opens in `context` (counting them and their keys on the way). */
  opens(texts: string[], context: string): boolean {
    let ok = true;
    for (const text of texts) {
      const keyId = sealedKeyId(text);
      if (keyId === null) continue;
      this.report.sealed++;
      if (!this.report.keyIds.includes(keyId)) this.report.keyIds.push(keyId);
      if (!this.#opensOne(text, context)) ok = false;
    }
    return ok;
  }

  #opensOne(text: string, context: string): boolean {
    if (this.secrets === null) return false;
    try {
      this.secrets.open(text, context);
      return true;
    } catch (error) {
      if (error instanceof StoreError && error.code === 'SECRET_UNREADABLE') return false;
      throw error;
    }
  }
}

function listTexts(value: string | null, valuesJson: string | null): string[] {
  return [...(value === null ? [] : [value]), ...(valuesJson === null ? [] : (JSON.parse(valuesJson) as string[]))];
}

/**
 * Reads every sealed value and tries to open it with `secrets` (null: no key at all, so none opens). Reads only;
 * every value is opened, so a wrong key is found even when its id is right.
 */
export async function findUnreadableSecrets(db: Kysely<Database>, secrets: SecretBox | null): Promise<SealedValueReport> {
  const present = await columnsOf(db);
  const scan = new Scan(secrets);
  const { report } = scan;
  for (const r of await db.selectFrom('user_mfa').select(['user_id', 'secret']).where('secret', 'like', SEALED_LIKE).execute()) {
    if (!scan.opens([r.secret], mfaSecretContext(r.user_id))) report.totpUsers.push(r.user_id);
  }
  const previous = present.has('webhook_subscriptions.previous_secret');
  const hooks = await db.selectFrom('webhook_subscriptions').select(previous ? ['id', 'secret', 'previous_secret'] : ['id', 'secret']).execute();
  for (const r of hooks as { id: string; secret: string; previous_secret?: string | null }[]) {
    if (!scan.opens([r.secret], webhookSecretContext(r.id))) report.webhookSecrets.push(r.id);
    if (r.previous_secret && !scan.opens([r.previous_secret], webhookSecretContext(r.id))) report.previousWebhookSecrets.push(r.id);
  }
  if (present.has('agency_sign_on.client_secret')) {
    for (const r of await db.selectFrom('agency_sign_on').select(['agency_id', 'client_secret']).execute()) {
      if (!scan.opens([r.client_secret], signOnSecretContext(r.agency_id))) report.signOnSecrets.push(r.agency_id);
    }
  }
  if (present.has('connection_settings.auth')) {
    for (const r of await db.selectFrom('connection_settings').select(['program_id', 'connection_id', 'auth']).execute()) {
      const id = settingsRowId(r.program_id, r.connection_id);
      if (!scan.opens([r.auth], connectionAuthContext(id))) report.connectionSecrets.push(id);
    }
  }
  const seen = new Set<string>();
  const noteValue = (projectId: string, fieldId: string) => {
    if (seen.has(`${projectId}:${fieldId}`)) return;
    seen.add(`${projectId}:${fieldId}`);
    report.fieldValues.push({ projectId, fieldId });
  };
  const values = await db.selectFrom('project_values').select(['project_id', 'field_id', 'value', 'values_json'])
    .where((eb) => eb.or([eb('value', 'like', SEALED_LIKE), eb('values_json', 'like', SEALED_IN_LIST)])).execute();
  for (const r of values) if (!scan.opens(listTexts(r.value, r.values_json), fieldValueContext(r.project_id, r.field_id))) noteValue(r.project_id, r.field_id);
  if (present.has('project_value_items.value')) {
    // The items repeat a list's texts (for search): counted once, under the value, but a damaged item is found too.
    const items = await db.selectFrom('project_value_items').select(['project_id', 'field_id', 'value']).where('value', 'like', SEALED_LIKE).execute();
    const counted = report.sealed;
    for (const r of items) if (!scan.opens([r.value], fieldValueContext(r.project_id, r.field_id))) noteValue(r.project_id, r.field_id);
    report.sealed = counted;
  }
  const drafts = await db.selectFrom('project_drafts').select(['project_id', 'form_id', 'field_id', 'value', 'values_json'])
    .where((eb) => eb.or([eb('value', 'like', SEALED_LIKE), eb('values_json', 'like', SEALED_IN_LIST)])).execute();
  for (const r of drafts) {
    if (!scan.opens(listTexts(r.value, r.values_json), fieldValueContext(r.project_id, r.field_id))) report.draftValues.push({ projectId: r.project_id, fieldId: r.field_id, formId: r.form_id });
  }
  return report;
}

/** What dropping needs from outside the store: the time, audit row ids, and a new signing secret per webhook. */
export interface DropContext { at: number; newId: () => string; newWebhookSecret: () => string }

// Why a subscription whose secret was dropped is disabled; an admin rotates its secret and enables it again.
const WEBHOOK_REASON = 'its signing secret could not be opened (its key is lost) and was replaced by "apas secrets drop-unreadable": rotate the secret and enable the subscription again';

/** The most entries of each kind an audit row lists (the counts are always whole). */
const AUDIT_LIST_LIMIT = 1000;

async function dropFieldValues(trx: Kysely<Database>, r: SealedValueReport): Promise<void> {
  for (const v of r.fieldValues) {
    await trx.deleteFrom('project_value_items').where('project_id', '=', v.projectId).where('field_id', '=', v.fieldId).execute();
    await trx.deleteFrom('project_values').where('project_id', '=', v.projectId).where('field_id', '=', v.fieldId).execute();
  }
  for (const v of r.draftValues) {
    await trx.deleteFrom('project_drafts').where('project_id', '=', v.projectId).where('form_id', '=', v.formId as string).where('field_id', '=', v.fieldId).execute();
  }
}

// One audit row per project whose values were dropped, so the project's own history says so.
async function auditProjects(trx: Kysely<Database>, r: SealedValueReport, ctx: DropContext): Promise<void> {
  const byProject = new Map<string, { fieldIds: string[]; draftFieldIds: string[] }>();
  const entry = (projectId: string) => {
    const found = byProject.get(projectId) ?? { fieldIds: [], draftFieldIds: [] };
    byProject.set(projectId, found);
    return found;
  };
  for (const v of r.fieldValues) entry(v.projectId).fieldIds.push(v.fieldId);
  for (const v of r.draftValues) entry(v.projectId).draftFieldIds.push(v.fieldId);
  for (const [projectId, detail] of byProject) {
    const p = await trx.selectFrom('projects').innerJoin('programs', 'programs.id', 'projects.program_id')
      .select(['projects.program_id', 'programs.agency_id']).where('projects.id', '=', projectId).executeTakeFirst();
    await trx.insertInto('audit_log').values({
      id: ctx.newId(), at: ctx.at, actor_id: null, action: 'project.values.drop_unreadable', agency_id: p?.agency_id ?? null, program_id: p?.program_id ?? null,
      project_id: projectId, detail: JSON.stringify(detail), request_id: null,
    }).execute();
  }
}

/**
 * Drops every sealed value no configured key opens, in one transaction with an audit row of what went: a TOTP
 * enrolment is ended (its user signs in with the password alone until enrolling again); a webhook subscription's
 * signing secret is replaced by a new one nobody knows and the subscription disabled with the reason; a previous
 * secret is forgotten; an agency's single sign-on is turned off (passwords allowed again) with a secret nobody knows; a sensitive field's submitted or draft value is deleted (the field is empty). Returns what it
 * dropped; values that open are not touched.
 */
export async function dropUnreadableSecrets(db: Kysely<Database>, secrets: SecretBox, ctx: DropContext): Promise<SealedValueReport> {
  return db.transaction().execute(async (trx) => {
    const r = await findUnreadableSecrets(trx, secrets);
    if (unreadableCount(r) === 0) return r;
    if (r.totpUsers.length > 0) await trx.deleteFrom('user_mfa').where('user_id', 'in', r.totpUsers).execute();
    for (const id of r.webhookSecrets) {
      await trx.updateTable('webhook_subscriptions').set({
        secret: secrets.seal(ctx.newWebhookSecret(), webhookSecretContext(id)), previous_secret: null, previous_secret_until: null,
        enabled: 0, disabled_reason: WEBHOOK_REASON, disabled_at: ctx.at, updated_at: ctx.at,
      }).where('id', '=', id).execute();
    }
    const previousOnly = r.previousWebhookSecrets.filter((id) => !r.webhookSecrets.includes(id));
    if (previousOnly.length > 0) {
      await trx.updateTable('webhook_subscriptions').set({ previous_secret: null, previous_secret_until: null, updated_at: ctx.at }).where('id', 'in', previousOnly).execute();
    }
    for (const id of r.signOnSecrets) {
      // Off, and passwords allowed again, until an admin enters the provider's secret anew.
      await trx.updateTable('agency_sign_on').set({
        client_secret: secrets.seal(ctx.newWebhookSecret(), signOnSecretContext(id)), enabled: 0, allow_passwords: 1, updated_at: ctx.at, updated_by: null,
      }).where('agency_id', '=', id).execute();
    }
    for (const id of r.connectionSecrets) {
      // Its address and sign-in go together: the operator sets them again (apas connection set); its calls wait meanwhile.
      const at = id.lastIndexOf('/');
      await trx.deleteFrom('connection_settings').where('program_id', '=', id.slice(0, at)).where('connection_id', '=', id.slice(at + 1)).execute();
    }
    await dropFieldValues(trx, r);
    await auditProjects(trx, r, ctx);
    const list = <T>(items: T[]) => items.slice(0, AUDIT_LIST_LIMIT);
    await trx.insertInto('audit_log').values({
      id: ctx.newId(), at: ctx.at, actor_id: null, action: 'secrets.drop_unreadable', agency_id: null, program_id: null, project_id: null, request_id: null,
      detail: JSON.stringify({
        keyIds: r.keyIds.filter((k) => !secrets.hasKey(k)), dropped: describeUnreadable(r),
        totpUsers: list(r.totpUsers), webhookSecrets: list(r.webhookSecrets), previousWebhookSecrets: list(r.previousWebhookSecrets), signOnSecrets: list(r.signOnSecrets), connectionSecrets: list(r.connectionSecrets),
        fieldValues: list(r.fieldValues), draftValues: list(r.draftValues),
      }),
    }).execute();
    return r;
  });
}
