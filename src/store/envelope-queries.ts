import type { Kysely, Selectable } from 'kysely';
import type { Envelope, EnvelopeSigner, EnvelopeState, EnvelopeStep, SignerState } from '../model/document.ts';
import { bindDb } from './bind-db.ts';
import type { Database, EnvelopeSignerTable, EnvelopeTable } from './tables.ts';

type Db = Kysely<Database>;

/** A mailed signing link as stored: never its token, only the token's SHA-256. */
export interface SigningLink {
  id: string; tokenHash: string; envelopeId: string; signerId: string; createdAt: number; expiresAt: number; usedAt: number | null; revokedAt: number | null;
}

/** What a change of a signer sets (only the columns given). */
export type SignerChanges = Partial<Pick<EnvelopeSigner, 'state' | 'notifiedAt' | 'consentedAt' | 'typedName' | 'signedAt' | 'ip' | 'declineReason' | 'userId' | 'name' | 'email'>>;

/** What a change of an envelope sets besides its `updatedAt`. */
export type EnvelopeChanges = Partial<Pick<Envelope, 'state' | 'allSignedAt' | 'finishedAt' | 'signedVersion'>>;

const num = (v: number | null): number | null => (v === null ? null : Number(v));

function toEnvelope(r: Selectable<EnvelopeTable>): Envelope {
  return {
    id: r.id, projectId: r.project_id, programId: r.program_id, templateId: r.template_id, title: r.title, attachmentId: r.attachment_id,
    attachmentVersion: Number(r.attachment_version), signedVersion: num(r.signed_version), state: r.state as EnvelopeState,
    order: r.signing_order as Envelope['order'], disclosure: r.disclosure, createdAt: Number(r.created_at), createdBy: r.created_by,
    updatedAt: Number(r.updated_at), allSignedAt: num(r.all_signed_at), finishedAt: num(r.finished_at),
  };
}

function toSigner(r: Selectable<EnvelopeSignerTable>): EnvelopeSigner {
  return {
    id: r.id, envelopeId: r.envelope_id, position: Number(r.position), signerId: r.signer_id, kind: r.kind as EnvelopeSigner['kind'], label: r.label,
    name: r.name, email: r.email, userId: r.user_id, role: r.role, state: r.state as SignerState, notifiedAt: num(r.notified_at),
    consentedAt: num(r.consented_at), typedName: r.typed_name, signedAt: num(r.signed_at), ip: r.ip, declineReason: r.decline_reason,
  };
}

/** Stores a new envelope with its signers, in order. */
export async function insertEnvelope(db: Db, e: Envelope, signers: EnvelopeSigner[]): Promise<void> {
  await db.insertInto('envelopes').values({
    id: e.id, project_id: e.projectId, program_id: e.programId, template_id: e.templateId, title: e.title, attachment_id: e.attachmentId,
    attachment_version: e.attachmentVersion, signed_version: e.signedVersion, state: e.state, signing_order: e.order, disclosure: e.disclosure,
    created_at: e.createdAt, created_by: e.createdBy, updated_at: e.updatedAt, all_signed_at: e.allSignedAt, finished_at: e.finishedAt,
  }).execute();
  if (signers.length === 0) return;
  await db.insertInto('envelope_signers').values(signers.map((s) => ({
    id: s.id, envelope_id: s.envelopeId, position: s.position, signer_id: s.signerId, kind: s.kind, label: s.label, name: s.name, email: s.email,
    user_id: s.userId, role: s.role, state: s.state, notified_at: s.notifiedAt, consented_at: s.consentedAt, typed_name: s.typedName,
    signed_at: s.signedAt, ip: s.ip, decline_reason: s.declineReason,
  }))).execute();
}

/** An envelope by id. */
export async function findEnvelope(db: Db, id: string): Promise<Envelope | null> {
  const r = await db.selectFrom('envelopes').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? toEnvelope(r) : null;
}

/** A project's envelopes, oldest first. */
export async function listProjectEnvelopes(db: Db, projectId: string): Promise<Envelope[]> {
  const rows = await db.selectFrom('envelopes').selectAll().where('project_id', '=', projectId).orderBy('created_at').orderBy('id').execute();
  return rows.map(toEnvelope);
}

/** The signers of some envelopes, each envelope's in order. */
export async function listSigners(db: Db, envelopeIds: string[]): Promise<EnvelopeSigner[]> {
  if (envelopeIds.length === 0) return [];
  const rows = await db.selectFrom('envelope_signers').selectAll().where('envelope_id', 'in', envelopeIds).orderBy('envelope_id').orderBy('position').execute();
  return rows.map(toSigner);
}

/** An envelope's audit trail, in the order it was written. */
export async function listSteps(db: Db, envelopeId: string): Promise<EnvelopeStep[]> {
  const rows = await db.selectFrom('envelope_steps').selectAll().where('envelope_id', '=', envelopeId).orderBy('seq').execute();
  return rows.map((r) => ({
    at: Number(r.at), signerId: r.signer_id, action: r.action as EnvelopeStep['action'], userId: r.user_id, ip: r.ip, userAgent: r.user_agent,
    detail: JSON.parse(r.detail) as Record<string, unknown>,
  }));
}

/** Appends a step to an envelope's trail (numbered after the last one; the project lock orders the writers). */
export async function appendStep(db: Db, id: string, envelopeId: string, s: EnvelopeStep): Promise<void> {
  const last = await db.selectFrom('envelope_steps').select((eb) => eb.fn.max('seq').as('seq')).where('envelope_id', '=', envelopeId).executeTakeFirst();
  await db.insertInto('envelope_steps').values({
    id, envelope_id: envelopeId, seq: Number(last?.seq ?? 0) + 1, at: s.at, signer_id: s.signerId, action: s.action, user_id: s.userId,
    ip: s.ip, user_agent: s.userAgent, detail: JSON.stringify(s.detail),
  }).execute();
}

/** Sets an envelope's state columns and its `updatedAt`. */
export async function updateEnvelope(db: Db, id: string, at: number, c: EnvelopeChanges): Promise<void> {
  await db.updateTable('envelopes').set({
    updated_at: at,
    ...(c.state === undefined ? {} : { state: c.state }),
    ...(c.allSignedAt === undefined ? {} : { all_signed_at: c.allSignedAt }),
    ...(c.finishedAt === undefined ? {} : { finished_at: c.finishedAt }),
    ...(c.signedVersion === undefined ? {} : { signed_version: c.signedVersion }),
  }).where('id', '=', id).execute();
}

/** Sets the given columns of one signer. */
export async function updateSigner(db: Db, id: string, c: SignerChanges): Promise<void> {
  const set = {
    ...(c.state === undefined ? {} : { state: c.state }), ...(c.notifiedAt === undefined ? {} : { notified_at: c.notifiedAt }),
    ...(c.consentedAt === undefined ? {} : { consented_at: c.consentedAt }), ...(c.typedName === undefined ? {} : { typed_name: c.typedName }),
    ...(c.signedAt === undefined ? {} : { signed_at: c.signedAt }), ...(c.ip === undefined ? {} : { ip: c.ip }),
    ...(c.declineReason === undefined ? {} : { decline_reason: c.declineReason }), ...(c.userId === undefined ? {} : { user_id: c.userId }),
    ...(c.name === undefined ? {} : { name: c.name }), ...(c.email === undefined ? {} : { email: c.email }),
  };
  if (Object.keys(set).length > 0) await db.updateTable('envelope_signers').set(set).where('id', '=', id).execute();
}

function toLink(r: Selectable<Database['signing_links']>): SigningLink {
  return {
    id: r.id, tokenHash: r.token_hash, envelopeId: r.envelope_id, signerId: r.signer_id, createdAt: Number(r.created_at),
    expiresAt: Number(r.expires_at), usedAt: num(r.used_at), revokedAt: num(r.revoked_at),
  };
}

/** Stores a new signing link (its token's hash only). */
export async function insertLink(db: Db, l: SigningLink): Promise<void> {
  await db.insertInto('signing_links').values({
    id: l.id, token_hash: l.tokenHash, envelope_id: l.envelopeId, signer_id: l.signerId, created_at: l.createdAt, expires_at: l.expiresAt,
    used_at: l.usedAt, revoked_at: l.revokedAt,
  }).execute();
}

/** A signing link by its token's hash, whatever its state. */
export async function findLink(db: Db, tokenHash: string): Promise<SigningLink | null> {
  const r = await db.selectFrom('signing_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  return r ? toLink(r) : null;
}

/** Uses a link up: true only for the one transaction that marks it used while live (unused, unrevoked, unexpired). */
export async function useLink(db: Db, id: string, now: number): Promise<boolean> {
  const r = await db.updateTable('signing_links').set({ used_at: now }).where('id', '=', id)
    .where('used_at', 'is', null).where('revoked_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Revokes the live links of one signer (a resend, a reminder) or of a whole envelope (voided, declined); how many. */
export async function revokeLinks(db: Db, of: { signerId: string } | { envelopeId: string }, now: number): Promise<number> {
  const q = db.updateTable('signing_links').set({ revoked_at: now }).where('used_at', 'is', null).where('revoked_at', 'is', null);
  const r = await ('signerId' in of ? q.where('signer_id', '=', of.signerId) : q.where('envelope_id', '=', of.envelopeId)).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** The envelopes every signer has signed that still wait for their signed PDF, oldest first. */
export async function envelopesToFinish(db: Db, limit: number): Promise<Envelope[]> {
  const rows = await db.selectFrom('envelopes').selectAll().where('state', '=', 'sent').where('all_signed_at', 'is not', null)
    .orderBy('all_signed_at').orderBy('id').limit(limit).execute();
  return rows.map(toEnvelope);
}

/** Signers of envelopes sent since `since` who were mailed before `before` and have not signed or declined: reminder candidates. */
export async function signersAwaiting(db: Db, before: number, since: number, limit: number): Promise<(EnvelopeSigner & { projectId: string; programId: string })[]> {
  const rows = await db.selectFrom('envelope_signers as s').innerJoin('envelopes as e', 'e.id', 's.envelope_id').selectAll('s')
    .select(['e.project_id', 'e.program_id']).where('e.state', '=', 'sent').where('s.state', 'in', ['notified', 'viewed', 'consented'])
    
    .where('s.notified_at', '<', before).where('e.created_at', '>=', since).orderBy('s.notified_at').orderBy('s.id').limit(limit).execute();
  return rows.map((r) => ({ ...toSigner(r), projectId: r.project_id, programId: r.program_id }));
}

/** Deletes a project's envelopes with their signers, steps and links (the project is being deleted). */
export async function deleteProjectEnvelopes(db: Db, projectId: string): Promise<void> {
  const ids = db.selectFrom('envelopes').select('id').where('project_id', '=', projectId);
  await db.deleteFrom('signing_links').where('envelope_id', 'in', ids).execute();
  await db.deleteFrom('envelope_steps').where('envelope_id', 'in', ids).execute();
  await db.deleteFrom('envelope_signers').where('envelope_id', 'in', ids).execute();
  await db.deleteFrom('envelopes').where('project_id', '=', projectId).execute();
}

const READS = { findEnvelope, listProjectEnvelopes, listSigners, listSteps, findLink, envelopesToFinish, signersAwaiting };

/** Envelopes' reads. */
export type EnvelopeReader = ReturnType<typeof envelopeReader>;

/** Envelopes inside a transaction. */
export type EnvelopeRepository = ReturnType<typeof envelopeRepository>;

/** Envelopes' reads over a database. */
export function envelopeReader(db: Db) {
  return bindDb(db, READS);
}

/** Envelopes over a transaction: created with their signers, steps appended, states set, links stored, used and revoked. */
export function envelopeRepository(db: Db) {
  return bindDb(db, { ...READS, insertEnvelope, appendStep, updateEnvelope, updateSigner, insertLink, useLink, revokeLinks });
}
