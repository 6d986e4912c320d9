import { createHash } from 'node:crypto';
import { isoTimestamp } from '../../model/clock.ts';
import type { Envelope, EnvelopeSigner, EnvelopeStep } from '../../model/document.ts';
import type { Program, Project } from '../../model/model.ts';
import type { BlobStore } from '../../store/blob-store.ts';
import type { StoreReader, StoreWriter } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { systemCaller, systemContext, SYSTEM_USER_ID } from '../deadlines/deadline-poller.ts';
import { changeProject, type ChangeStep, recordChange } from '../projects/change-project.ts';
import type { ReactingDeps } from '../projects/change-reaction.ts';
import { loadProgram, loadProgramWith, loadReadableProject, type ProgramContext } from '../projects/project-context.ts';
import { canRead, grantReaches, hasPrivilege, isStaff, roleIn } from '../roles/access.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { AttachmentFileView } from '../views.ts';
import { DEFAULT_DISCLOSURE } from './default-disclosure.ts';
import { documentTemplates } from '../document-templates.ts';
import { resolveSigners } from './resolve-signers.ts';
import { hashLinkToken, LINK_TTL_MS, newLinkToken, signingUrl } from './signing-links.ts';
import { signingMail } from './signing-mail.ts';

/** Where a signing request came from, for the audit trail. */
export interface Visit { ip: string | null; userAgent: string | null; requestId?: string }

/** Who claims to be a signer: a signed-in user, or the holder of a mailed link (its token). */
export type SignerProof = { caller: Caller } | { token: string };

/** What the signing service needs: the repositories it reads, the change step's reactions, mail on or off, and the files. */
export interface SigningDeps extends ServiceDeps<'programs' | 'projects' | 'accounts' | 'attachments' | 'envelopes'>, ReactingDeps {
  /** Whether mail is on (APAS_SMTP_URL): a link is never made when no mail will carry it (staff get it from a resend). */
  mailOn: boolean;
  blobs: BlobStore;
}

/** An envelope with its signers and audit trail, and the project it belongs to. */
export interface EnvelopeView {
  envelope: Envelope; signers: EnvelopeSigner[]; steps: EnvelopeStep[]; project: Project; program: Program;
  /** The e-mail addresses of the users the steps name, by id. */
  userEmails: ReadonlyMap<string, string>;
}

/** The signing page: the envelope, the signer the visitor is (null for staff only reading it) and what they may do now. */
export interface SigningPage extends EnvelopeView {
  me: EnvelopeSigner | null;
  /** True when `me` may view, consent, sign and decline now (the envelope is out and it is their turn). */
  mayAct: boolean;
}

/** A signature: the typed name, and the consent given with it when it was not given before. */
export interface SignInput { typedName: string; consent: boolean }

/** The longest typed name or decline reason kept. */
const MAX_TYPED = 200;
const MAX_REASON = 2000;

const ACTIVE = new Set<EnvelopeSigner['state']>(['notified', 'viewed', 'consented']);

const LINK_UNUSABLE = 'This signing link has been used, replaced by a newer one or has expired; nothing was changed. Ask the agency to send a new one.';

/** What `#resolve` found: the envelope, its signers, the signer the visitor is (if any), and the link they came with. */
interface Resolved {
  envelope: Envelope; signers: EnvelopeSigner[]; me: EnvelopeSigner | null; linkId: string | null; userId: string | null;
  /** True for a signed-in user who is no signer but may read the project (staff, the owner of a project someone else signs). */
  reader: boolean;
}

/**
 * E-signature envelopes (docs/programs.md, "Signing"): sent when a generated document's template has signers
 * (`startEnvelopeIn`, inside the generation's change), then viewed, consented to, signed or declined by each signer
 * in turn (sequential) or at once (parallel), voided or resent by staff (privilege generateDocuments). Every step is a
 * change of the project through the change step, with its audit row and an envelope step (time, signer, user, IP
 * address, user agent); a refused request changes nothing. The signed PDF is made after the commit
 * (envelope-finisher.ts), never while the project is locked.
 */
export class SigningService {
  readonly #deps: SigningDeps;
  constructor(deps: SigningDeps) {
    this.#deps = deps;
  }

  /**
   * Sends an envelope for a stored document version inside the change that stored it (generation's): the template's
   * signers resolved, the first (sequential) or every (parallel) signer mailed, a `project.envelope.start` audit row.
   * Returns the new envelope's id and the links made (only when mail is off: no mail carries them then).
   */
  async startEnvelopeIn(tx: StoreWriter, step: { caller: Caller; ctx: ProgramContext; project: Project; now: number },
    input: { templateId: string; attachmentId: string; version: number; visit?: Visit }): Promise<{ envelopeId: string; links: string[] }> {
    const { ctx, project, now, caller } = step;
    const template = documentTemplates(ctx.model).find((t) => t.customId === input.templateId);
    if (!template) throw new ApiError('NOT_FOUND', `Program ${ctx.program.id} has no document template ${input.templateId}.`);
    if (template.signers.length === 0) throw new ApiError('INVALID_REQUEST', `${template.name} has no signers.`);
    const id = this.#deps.ids.next();
    const envelope: Envelope = {
      id, projectId: project.id, programId: ctx.program.id, templateId: template.customId, title: template.title || template.name,
      attachmentId: input.attachmentId, attachmentVersion: input.version, signedVersion: null, state: 'sent', order: template.order,
      disclosure: template.disclosure ?? DEFAULT_DISCLOSURE, createdAt: now, createdBy: caller.user.id, updatedAt: now, allSignedAt: null, finishedAt: null,
    };
    const signers = await resolveSigners(tx, this.#deps.ids, ctx, project, template, id);
    await tx.envelopes.insertEnvelope(envelope, signers);
    const visit = input.visit ?? { ip: null, userAgent: null };
    await this.#step(tx, envelope.id, { at: now, signerId: null, action: 'created', userId: caller.user.id, ip: visit.ip, userAgent: visit.userAgent, detail: { version: input.version } });
    const first = envelope.order === 'sequential' ? signers.slice(0, 1) : signers;
    const links: string[] = [];
    for (const s of first) links.push(...await this.#notify(tx, ctx.program, project, envelope, s, now, 'notified'));
    await recordChange(tx, this.#deps, caller, ctx, {
      action: 'project.envelope.start', projectId: project.id, ownerId: project.ownerId, at: now,
      detail: { envelopeId: id, documentId: template.customId, attachmentId: input.attachmentId, version: input.version, signers: signers.length },
    });
    return { envelopeId: id, links };
  }

  /**
   * The signing page of a signer (or of staff, read only): the first visit of a signer whose turn it is records
   * `viewed`. NOT_FOUND for anyone who is neither a signer nor may read the project; FORBIDDEN for a dead link.
   */
  async open(proof: SignerProof, envelopeId: string | null, visit: Visit): Promise<SigningPage> {
    const seen = await this.#resolve(this.#deps.store, proof, envelopeId, this.#deps.clock.now());
    const me = seen.me;
    if (me && me.state === 'notified' && seen.envelope.state === 'sent') {
      await this.#signerChange(proof, seen.envelope, visit, 'project.envelope.view', async (tx, r, now) => {
        const current = r.me;
        // A second tab may have recorded it a moment ago, or the envelope ended meanwhile: this visit changes nothing.
        if (!current || current.state !== 'notified' || r.envelope.state !== 'sent') return null;
        await tx.envelopes.updateSigner(current.id, { state: 'viewed' });
        await this.#step(tx, r.envelope.id, this.#trail(now, current, r, visit, 'viewed', {}));
        return {};
      });
    }
    return this.#page(proof, seen.envelope.id);
  }

  /** The signing page as it is, recording nothing (shown again after a refusal); the same access as `open`. */
  async show(proof: SignerProof, envelopeId: string | null): Promise<SigningPage> {
    const seen = await this.#resolve(this.#deps.store, proof, envelopeId, this.#deps.clock.now());
    return this.#page(proof, seen.envelope.id);
  }

  /** True when the caller may void envelopes and resend links in the program (privilege generateDocuments). */
  async mayManage(caller: Caller, programRef: string): Promise<boolean> {
    return hasPrivilege((await loadProgram(this.#deps, caller, programRef)).role, 'generateDocuments');
  }

  /** Records the signer's consent to sign electronically (the envelope's disclosure), before any signature. */
  async consent(proof: SignerProof, envelopeId: string | null, visit: Visit): Promise<SigningPage> {
    const seen = await this.#resolve(this.#deps.store, proof, envelopeId, this.#deps.clock.now());
    await this.#signerChange(proof, seen.envelope, visit, 'project.envelope.consent', async (tx, r, now) => {
      const me = this.#actor(r);
      if (me.consentedAt !== null) return null;
      await this.#consentIn(tx, r, me, now, visit);
      return {};
    });
    return this.#page(proof, seen.envelope.id);
  }

  /**
   * Signs as the named signer: consent first (given now or before), a non-empty typed name; a mailed link is used up.
   * The next signer in order is mailed; when the last one signs, the signed PDF is made after the commit.
   */
  async sign(proof: SignerProof, envelopeId: string | null, input: SignInput, visit: Visit): Promise<SigningPage> {
    const typedName = input.typedName.trim();
    if (typedName === '') throw new ApiError('INVALID_REQUEST', 'Type your full name to sign; nothing was signed.');
    if (typedName.length > MAX_TYPED) throw new ApiError('INVALID_REQUEST', `A typed name has at most ${MAX_TYPED} characters; nothing was signed.`);
    const seen = await this.#resolve(this.#deps.store, proof, envelopeId, this.#deps.clock.now());
    await this.#signerChange(proof, seen.envelope, visit, 'project.envelope.sign', async (tx, r, now) => {
      const me = this.#actor(r);
      if (me.consentedAt === null && !input.consent) {
        throw new ApiError('INVALID_REQUEST', 'Agree to sign electronically (the disclosure on the page) before you sign; nothing was signed.');
      }
      await this.#useLink(tx, r, now);
      if (me.consentedAt === null) await this.#consentIn(tx, r, me, now, visit);
      const signed = r.userId === null ? {} : await this.#signedInAs(tx, me, r.userId);
      await tx.envelopes.updateSigner(me.id, { state: 'signed', typedName, signedAt: now, ip: visit.ip, ...signed });
      await this.#step(tx, r.envelope.id, this.#trail(now, me, r, visit, 'signed', { typedName }));
      const rest = r.signers.filter((s) => s.id !== me.id && s.state !== 'signed');
      if (rest.length === 0) {
        await tx.envelopes.updateEnvelope(r.envelope.id, now, { allSignedAt: now });
      } else if (r.envelope.order === 'sequential') {
        const next = rest.find((s) => s.state === 'waiting');
        if (next) await this.#notifyById(tx, r.envelope, next, now);
      }
      return { allSigned: rest.length === 0 };
    });
    return this.#page(proof, seen.envelope.id);
  }

  /** Declines to sign, with a reason: the envelope is declined for everyone and its links stop working. */
  async decline(proof: SignerProof, envelopeId: string | null, reason: string, visit: Visit): Promise<SigningPage> {
    const why = reason.trim();
    if (why === '') throw new ApiError('INVALID_REQUEST', 'Say why you decline to sign; nothing was changed.');
    if (why.length > MAX_REASON) throw new ApiError('INVALID_REQUEST', `A reason has at most ${MAX_REASON} characters; nothing was changed.`);
    const seen = await this.#resolve(this.#deps.store, proof, envelopeId, this.#deps.clock.now());
    await this.#signerChange(proof, seen.envelope, visit, 'project.envelope.decline', async (tx, r, now) => {
      const me = this.#actor(r);
      await this.#useLink(tx, r, now);
      await tx.envelopes.updateSigner(me.id, { state: 'declined', declineReason: why, ip: visit.ip });
      await tx.envelopes.updateEnvelope(r.envelope.id, now, { state: 'declined', finishedAt: now });
      await tx.envelopes.revokeLinks({ envelopeId: r.envelope.id }, now);
      await this.#step(tx, r.envelope.id, this.#trail(now, me, r, visit, 'declined', { reason: why }));
      return {};
    });
    return this.#page(proof, seen.envelope.id);
  }

  /** Voids a sent envelope (privilege generateDocuments): nobody may sign it any more; its links stop working. */
  async void(caller: Caller, ref: EnvelopeRef, reason: string, visit: Visit): Promise<EnvelopeView> {
    const why = reason.trim().slice(0, MAX_REASON);
    const { ctx, envelope } = await this.#staff(caller, ref, 'VoidEnvelope');
    await changeProject(this.#deps, caller, ctx, envelope.projectId, {
      action: 'project.envelope.void', access: 'read',
      act: async ({ tx, now }) => {
        const current = await this.#sent(tx, envelope.id);
        await tx.envelopes.updateEnvelope(current.id, now, { state: 'voided', finishedAt: now });
        await tx.envelopes.revokeLinks({ envelopeId: current.id }, now);
        await this.#step(tx, current.id, { at: now, signerId: null, action: 'voided', userId: caller.user.id, ip: visit.ip, userAgent: visit.userAgent, detail: why === '' ? {} : { reason: why } });
        return { detail: this.#detail(current), result: () => undefined };
      },
    });
    return this.get(caller, ref);
  }

  /**
   * Mails a signer whose turn it is a new link (privilege generateDocuments); the links sent before stop working.
   * Returns the new link when mail is off (then staff pass it on), else null.
   */
  async resend(caller: Caller, ref: EnvelopeRef, signerRef: string, visit: Visit): Promise<{ view: EnvelopeView; link: string | null }> {
    const { ctx, envelope } = await this.#staff(caller, ref, 'ResendEnvelope');
    const links = await changeProject(this.#deps, caller, ctx, envelope.projectId, {
      action: 'project.envelope.resend', access: 'read',
      act: async ({ tx, project, now }) => {
        const current = await this.#sent(tx, envelope.id);
        const signer = (await tx.envelopes.listSigners([current.id])).find((s) => s.id === signerRef || s.signerId === signerRef);
        if (!signer) throw new ApiError('NOT_FOUND', `Envelope ${current.id} has no signer ${signerRef}.`);
        if (!ACTIVE.has(signer.state)) throw new ApiError('CONFLICT', `${signer.label} is not waiting to sign (${signer.state}); nothing was sent.`);
        const made = await this.#notify(tx, ctx.program, project, current, signer, now, 'resent', { userId: caller.user.id, ...visit });
        return { detail: { ...this.#detail(current), signerId: signer.signerId }, result: () => made };
      },
    });
    return { view: await this.get(caller, ref), link: links[0] ?? null };
  }

  /**
   * GetEnvelope: an envelope with its signers and audit trail, for anyone who may read the project; the IP addresses
   * and user agents of the trail only for staff.
   */
  async get(caller: Caller, ref: EnvelopeRef): Promise<EnvelopeView> {
    const { envelope, project, ctx } = await this.#readable(caller, ref);
    const view = await this.#view(this.#deps.store, envelope, project, ctx.program);
    if (isStaff(ctx.role)) return view;
    return { ...view, steps: view.steps.map((s) => ({ ...s, ip: null, userAgent: null })), signers: view.signers.map((s) => ({ ...s, ip: null })) };
  }

  /** A project's envelopes with their signers (the project and review pages), for anyone who may read the project. */
  async listForProject(caller: Caller, programRef: string, projectId: string): Promise<EnvelopeView[]> {
    const ctx = await loadProgram(this.#deps, caller, programRef);
    const project = await loadReadableProject(this.#deps.store, caller, ctx, projectId);
    const envelopes = await this.#deps.store.envelopes.listProjectEnvelopes(project.id);
    const signers = await this.#deps.store.envelopes.listSigners(envelopes.map((e) => e.id));
    return envelopes.map((envelope) => ({ envelope, signers: signers.filter((s) => s.envelopeId === envelope.id), steps: [], project, program: ctx.program, userEmails: new Map() }));
  }

  /** The document to sign (the version the envelope was sent with), for the signing page to show inline. */
  async document(proof: SignerProof, envelopeId: string | null): Promise<AttachmentFileView> {
    const r = await this.#resolve(this.#deps.store, proof, envelopeId, this.#deps.clock.now());
    const e = r.envelope;
    const record = await this.#deps.store.attachments.getAttachment(e.projectId, e.attachmentId, e.attachmentVersion);
    if (!record) throw new ApiError('NOT_FOUND', `The document of envelope ${e.id} is no longer stored.`);
    return { fileName: record.fileName, contentType: record.contentType, size: record.sizeBytes, sha256: record.sha256, open: (range) => this.#deps.blobs.read(record.blobKey, range) };
  }

  /**
   * Mails a reminder, with a new link, to a signer who has not acted (envelope-reminders.ts): the service's own change,
   * re-checked on the locked project. False when there was nothing to remind of any more.
   */
  async remind(envelopeId: string, signerId: string): Promise<boolean> {
    const envelope = await this.#deps.store.envelopes.findEnvelope(envelopeId);
    const ctx = envelope && await systemContext(this.#deps.store, envelope.programId);
    if (!envelope || !ctx) return false;
    return changeProject(this.#deps, systemCaller(ctx.program), ctx, envelope.projectId, {
      action: 'project.envelope.remind', access: 'read',
      act: async ({ tx, project, now }) => {
        const current = await tx.envelopes.findEnvelope(envelopeId);
        const signer = current?.state === 'sent' ? (await tx.envelopes.listSigners([envelopeId])).find((s) => s.id === signerId) : undefined;
        if (!current || !signer || !ACTIVE.has(signer.state)) return { changed: false, result: () => false };
        await this.#notify(tx, ctx.program, project, current, signer, now, 'reminded');
        return { detail: { ...this.#detail(current), signerId: signer.signerId }, result: () => true };
      },
    });
  }

  // ---- who the visitor is

  /**
   * Finds the envelope and the signer a proof stands for, reading through `reader` (the store, or the transaction to
   * check again on the locked project). A link must be live; a signed-in user must be one of the signers (the owner,
   * the e-mail a field names, a holder of the role) or may only read it as someone who may read the project.
   */
  async #resolve(reader: Pick<StoreReader, 'envelopes' | 'programs' | 'projects'>, proof: SignerProof, envelopeId: string | null, now: number): Promise<Resolved> {
    if ('token' in proof) {
      const link = proof.token === '' ? null : await reader.envelopes.findLink(hashLinkToken(proof.token));
      if (!link || link.usedAt !== null || link.revokedAt !== null || link.expiresAt <= now) throw new ApiError('FORBIDDEN', LINK_UNUSABLE);
      const envelope = await reader.envelopes.findEnvelope(link.envelopeId);
      if (!envelope) throw new ApiError('FORBIDDEN', LINK_UNUSABLE);
      const signers = await reader.envelopes.listSigners([envelope.id]);
      return { envelope, signers, me: signers.find((s) => s.id === link.signerId) ?? null, linkId: link.id, userId: null, reader: false };
    }
    const { caller } = proof;
    const notFound = new ApiError('NOT_FOUND', `Envelope "${envelopeId ?? ''}" was not found.`);
    const envelope = envelopeId === null ? null : await reader.envelopes.findEnvelope(envelopeId);
    const program = envelope && await reader.programs.findProgram(envelope.programId, caller.user.agencyId);
    const project = program && await reader.projects.getProject(program.id, envelope.projectId);
    if (!envelope || !program || !project) throw notFound;
    const signers = await reader.envelopes.listSigners([envelope.id]);
    const mine = signers.filter((s) => isSigner(caller, program, s));
    // A user named twice (the owner who is also the property owner) signs in order: the first whose turn it is.
    const me = mine.find((s) => ACTIVE.has(s.state)) ?? mine[0] ?? null;
    const role = roleIn(caller, program);
    const mayRead = role !== null && canRead(caller, role, project);
    if (!me && !mayRead) throw notFound;
    return { envelope, signers, me, linkId: null, userId: caller.user.id, reader: !me };
  }

  /** The signer acting: refused unless the visitor is one whose turn it is on a sent envelope. */
  #actor(r: Resolved): EnvelopeSigner {
    if (!r.me) throw new ApiError('FORBIDDEN', 'You are not a signer of this document; only the people it names may sign it.');
    if (r.envelope.state !== 'sent') throw new ApiError('CONFLICT', `This document is ${r.envelope.state}: nobody may sign or decline it any more; nothing was changed.`);
    if (r.me.state === 'signed' || r.me.state === 'declined') throw new ApiError('CONFLICT', `You have already ${r.me.state} this document; nothing was changed.`);
    if (!ACTIVE.has(r.me.state)) throw new ApiError('CONFLICT', 'It is not your turn to sign yet: the signers before you sign first; you will get a mail.');
    return r.me;
  }

  /**
   * One signer's step as a change of the project: the visitor found again inside the change (a link used, revoked or
   * expired meanwhile is refused there), then `work`; null from `work` changes nothing. The audit row's actor is the
   * signed-in signer, or the service for a link's holder (the detail names the signer).
   */
  async #signerChange(proof: SignerProof, envelope: Envelope, visit: Visit, action: string,
    work: (tx: StoreWriter, r: Resolved, now: number) => Promise<Record<string, unknown> | null>): Promise<void> {
    const ctx = await systemContext(this.#deps.store, envelope.programId);
    if (!ctx) throw new ApiError('NOT_FOUND', `Envelope "${envelope.id}" was not found.`);
    const userId = 'caller' in proof ? proof.caller.user.id : null;
    const system = systemCaller(ctx.program);
    // The service acts for the signer after finding who they are itself: a signer need not be able to read the project.
    const acting: Caller = { ...system, user: { ...system.user, id: userId ?? SYSTEM_USER_ID }, requestId: visit.requestId };
    await changeProject(this.#deps, acting, ctx, envelope.projectId, {
      action, access: 'read',
      act: async ({ tx, now }: ChangeStep) => {
        const r = await this.#resolve(tx, proof, envelope.id, now);
        if (r.envelope.id !== envelope.id) throw new ApiError('FORBIDDEN', LINK_UNUSABLE);
        if (action !== 'project.envelope.view') this.#actor(r);
        const extra = await work(tx, r, now);
        if (extra === null) return { changed: false, result: () => undefined };
        return { detail: { ...this.#detail(r.envelope), signerId: r.me?.signerId, byLink: r.linkId !== null, ...extra }, result: () => undefined };
      },
    });
  }

  async #useLink(tx: StoreWriter, r: Resolved, now: number): Promise<void> {
    if (r.linkId !== null && !(await tx.envelopes.useLink(r.linkId, now))) throw new ApiError('FORBIDDEN', LINK_UNUSABLE);
  }

  async #consentIn(tx: StoreWriter, r: Resolved, me: EnvelopeSigner, now: number, visit: Visit): Promise<void> {
    await tx.envelopes.updateSigner(me.id, { state: 'consented', consentedAt: now });
    await this.#step(tx, r.envelope.id, this.#trail(now, me, r, visit, 'consented', { disclosureSha256: sha256Hex(r.envelope.disclosure) }));
  }

  /** A role's signer who signed in: the holder who signed is kept (their account, name and address). */
  async #signedInAs(tx: StoreWriter, me: EnvelopeSigner, userId: string): Promise<Partial<EnvelopeSigner>> {
    if (me.kind !== 'role') return {};
    const [user] = await tx.accounts.usersByIds([userId]);
    return user ? { userId: user.id, name: user.name, email: user.email.toLowerCase() } : { userId };
  }

  #trail(at: number, me: EnvelopeSigner, r: Resolved, visit: Visit, action: EnvelopeStep['action'], detail: Record<string, unknown>): EnvelopeStep {
    return { at, signerId: me.id, action, userId: r.userId, ip: visit.ip, userAgent: visit.userAgent === null ? null : visit.userAgent.slice(0, 500), detail };
  }

  async #step(tx: StoreWriter, envelopeId: string, step: EnvelopeStep): Promise<void> {
    await tx.envelopes.appendStep(this.#deps.ids.next(), envelopeId, step);
  }

  #detail(e: Envelope): Record<string, unknown> {
    return { envelopeId: e.id, documentId: e.templateId, attachmentId: e.attachmentId, version: e.attachmentVersion };
  }

  // ---- mail

  async #notifyById(tx: StoreWriter, envelope: Envelope, signer: EnvelopeSigner, now: number): Promise<void> {
    const program = await tx.programs.findProgram(envelope.programId);
    const project = program && await tx.projects.getProject(program.id, envelope.projectId);
    if (program && project) await this.#notify(tx, program, project, envelope, signer, now, 'notified');
  }

  /**
   * Mails a signer (a person: a new personal link, earlier ones revoked; a role: each active holder, a link to sign
   * in with) and records the step. Returns the links made when mail is off, which then no mail carries.
   */
  async #notify(tx: StoreWriter, program: Program, project: Project, envelope: Envelope, signer: EnvelopeSigner, now: number,
    action: 'notified' | 'resent' | 'reminded', by: Partial<Visit & { userId: string }> = {}): Promise<string[]> {
    const { ids, publicUrl, mailOn } = this.#deps;
    const out: string[] = [];
    const send = async (to: string, toUserId: string | null, link: string, expires: string | null) => {
      if (!mailOn) return;
      const mail = signingMail({ program, project, envelope, signer, link, expires, reminder: action === 'reminded' });
      await tx.mail.enqueueMail({ id: ids.next(), kind: 'envelope.sign', eventId: null, to, ...mail, createdAt: now, projectId: project.id, toUserId });
    };
    if (signer.kind === 'role') {
      const holders = await tx.accounts.usersWithProgramRole(program, [signer.role!], 50);
      const link = signingUrl(publicUrl, { envelopeId: envelope.id });
      // Agency admins are admins of every program; they are mailed only when the role is admin itself.
      for (const u of holders.filter((h) => signer.role === 'admin' || !(h.agencyAdmin && h.agencyId === program.agencyId))) {
        // A holder whose grant is limited to access groups the project is not in cannot read it, so is not asked.
        const grant = u.agencyAdmin && u.agencyId === program.agencyId ? null : await tx.accounts.findGrant(u.id, program.id);
        if (grant && !grantReaches(grant, project)) continue;
        await send(u.email, u.id, link, null);
      }
    } else {
      await tx.envelopes.revokeLinks({ signerId: signer.id }, now);
      const token = newLinkToken();
      const expiresAt = now + LINK_TTL_MS;
      await tx.envelopes.insertLink({ id: ids.next(), tokenHash: hashLinkToken(token), envelopeId: envelope.id, signerId: signer.id, createdAt: now, expiresAt, usedAt: null, revokedAt: null });
      const link = signingUrl(publicUrl, { token });
      if (mailOn) await send(signer.email, signer.userId, link, isoTimestamp(expiresAt));
      else out.push(link);
    }
    await tx.envelopes.updateSigner(signer.id, { notifiedAt: now, ...(signer.state === 'waiting' ? { state: 'notified' as const } : {}) });
    await this.#step(tx, envelope.id, { at: now, signerId: signer.id, action, userId: by.userId ?? null, ip: by.ip ?? null, userAgent: by.userAgent ?? null, detail: { mailed: mailOn } });
    return out;
  }

  // ---- staff and readers

  async #readable(caller: Caller, ref: EnvelopeRef): Promise<{ ctx: ProgramContext; envelope: Envelope; project: Project }> {
    const ctx = await loadProgram(this.#deps, caller, ref.programRef);
    const project = await loadReadableProject(this.#deps.store, caller, ctx, ref.projectId);
    const envelope = await this.#deps.store.envelopes.findEnvelope(ref.envelopeId);
    if (!envelope || envelope.projectId !== project.id) throw new ApiError('NOT_FOUND', `Project ${project.id} has no envelope "${ref.envelopeId}".`);
    return { ctx, envelope, project };
  }

  async #staff(caller: Caller, ref: EnvelopeRef, operation: string): Promise<{ ctx: ProgramContext; envelope: Envelope }> {
    const ctx = await loadProgramWith(this.#deps, caller, ref.programRef, 'generateDocuments', operation);
    const project = await loadReadableProject(this.#deps.store, caller, ctx, ref.projectId);
    const envelope = await this.#deps.store.envelopes.findEnvelope(ref.envelopeId);
    if (!envelope || envelope.projectId !== project.id) throw new ApiError('NOT_FOUND', `Project ${project.id} has no envelope "${ref.envelopeId}".`);
    return { ctx, envelope };
  }

  async #sent(tx: StoreWriter, envelopeId: string): Promise<Envelope> {
    const current = await tx.envelopes.findEnvelope(envelopeId);
    if (!current) throw new ApiError('NOT_FOUND', `Envelope "${envelopeId}" was not found.`);
    if (current.state !== 'sent' || current.allSignedAt !== null) {
      const what = current.state === 'sent' ? 'signed by everyone' : current.state;
      throw new ApiError('CONFLICT', `Envelope ${current.id} is ${what}; nothing was changed.`);
    }
    return current;
  }

  async #page(proof: SignerProof, envelopeId: string): Promise<SigningPage> {
    // Read again after the change: a link just used up still shows the page it was used on.
    const { store } = this.#deps;
    const envelope = await store.envelopes.findEnvelope(envelopeId);
    const program = envelope && await store.programs.findProgram(envelope.programId);
    const project = program && await store.projects.getProject(program.id, envelope.projectId);
    if (!envelope || !program || !project) throw new ApiError('NOT_FOUND', `Envelope "${envelopeId}" was not found.`);
    const view = await this.#view(store, envelope, project, program);
    const meId = await this.#meId(proof, view);
    const me = view.signers.find((s) => s.id === meId) ?? null;
    return { ...view, me, mayAct: me !== null && envelope.state === 'sent' && ACTIVE.has(me.state) };
  }

  async #meId(proof: SignerProof, view: EnvelopeView): Promise<string | null> {
    if ('token' in proof) return (await this.#deps.store.envelopes.findLink(hashLinkToken(proof.token)))?.signerId ?? null;
    const mine = view.signers.filter((s) => isSigner(proof.caller, view.program, s));
    return (mine.find((s) => ACTIVE.has(s.state)) ?? mine[0])?.id ?? null;
  }

  async #view(reader: Pick<StoreReader, 'envelopes' | 'accounts'>, envelope: Envelope, project: Project, program: Program): Promise<EnvelopeView> {
    const [signers, steps] = await Promise.all([reader.envelopes.listSigners([envelope.id]), reader.envelopes.listSteps(envelope.id)]);
    const userIds = [...new Set(steps.flatMap((s) => (s.userId === null ? [] : [s.userId])))];
    const users = await reader.accounts.usersByIds(userIds);
    return { envelope, signers, steps, project, program, userEmails: new Map(users.map((u) => [u.id, u.email])) };
  }
}

/** An envelope as the API and staff pages address it: its program, project and id. */
export interface EnvelopeRef { programRef: string; projectId: string; envelopeId: string }

/** True when the signed-in caller is this signer: the owner's account, the address a field named, a holder of the role. */
export function isSigner(caller: Caller, program: Program, s: EnvelopeSigner): boolean {
  if (s.kind === 'owner') return s.userId === caller.user.id;
  if (s.kind === 'emailField') return s.email !== '' && s.email === caller.user.email.toLowerCase();
  // Once a holder has signed for the role, the signature is theirs.
  if (s.state === 'signed') return s.userId === caller.user.id;
  return s.role !== null && roleIn(caller, program)?.name === s.role;
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
