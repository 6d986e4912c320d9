import { createHash, randomBytes } from 'node:crypto';
import type { MailTemplate } from '../../model/notification.ts';
import type { Organization, OrganizationInvitation, OrganizationMember, OrganizationRole } from '../../store/organization-queries.ts';
import type { StoreReader, StoreWriter } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import type { Caller } from '../caller.ts';
import { normaliseEmail, requireName } from '../accounts/account-service.ts';
import { renderMail } from '../mail-template.ts';
import type { ServiceDeps } from '../service-deps.ts';
import { DEFAULT_FIELDS, MAX_DEFAULT_CHARS } from './organization-defaults.ts';

/** The web pages of organizations; the mailed invitation links open the accept page. */
export const ORGANIZATION_PATHS = { list: '/MvcProjects/Organizations', accept: '/MvcProjects/Organizations/Accept' } as const;

/** How long an invitation link lives (ms): a week. */
export const INVITATION_MS = 7 * 24 * 3_600_000;

/** An invitation not yet accepted, as its organization's admins see it (never its token). */
export interface PendingInvitationView { id: string; email: string; invitedBy: string; createdAt: number; expiresAt: number }

/** An organization as its pages show it to a member: the caller's role, its members and defaults; admins also its pending invitations. */
export interface OrganizationView { organization: Organization; role: OrganizationRole; members: OrganizationMember[]; invitations: PendingInvitationView[] }

/**
 * What sending an invitation gives back: with mail on, nothing (the link went into the mail queue); with mail off, the
 * link itself, for the inviting admin to pass on, since no mail will carry it.
 */
export interface SentInvitation { email: string; link: string | null }

/** What the organization service needs besides the store: whether mail is on (APAS_SMTP_URL). */
export interface OrganizationDeps extends ServiceDeps<'organizations' | 'accounts' | 'mail' | 'audit'> { mailOn: boolean }

/** An organization the caller belongs to, with their role in it. */
export type MyOrganization = Organization & { role: OrganizationRole };

const INVITE_MAIL: MailTemplate = {
  subject: 'Join {{organization}}',
  text: '{{inviter}} invites you to join {{organization}}: its members see and work on the applications started for it.\n\nSign in with this e-mail address and accept within a week:\n{{link}}\n\nIf you do not want to join, ignore this mail.\n',
};

const LINK_UNUSABLE = 'This invitation has already been used or has expired. Ask the organization for a new one.';

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Organizations: create one (the creator becomes its admin), invite members by a mailed one-use link, accept it as the
 * signed-in user it was sent to, remove members, set the defaults. Every change in one transaction with its audit row.
 * An organization that is not the caller's answers NOT_FOUND, as an unknown one does.
 */
export class OrganizationService {
  readonly #deps: OrganizationDeps;
  constructor(deps: OrganizationDeps) {
    this.#deps = deps;
  }

  /** The organizations the caller is a member of. */
  mine(caller: Caller): Promise<MyOrganization[]> {
    return this.#deps.store.organizations.organizationsOf(caller.user.id);
  }

  /** Creates an organization of the caller's agency with the caller as its admin; returns its id. */
  async create(caller: Caller, rawName: string): Promise<string> {
    const name = requireName(rawName, 'organization name');
    const { store, clock, ids } = this.#deps;
    const id = ids.next();
    await store.transaction(async (tx) => {
      const now = clock.now();
      await tx.organizations.insertOrganization({ id, agencyId: caller.user.agencyId, name, defaults: {}, createdAt: now, createdBy: caller.user.id });
      await tx.organizations.addMember(id, caller.user.id, 'admin', now);
      await tx.audit.write({ action: 'organization.create', actorId: caller.user.id, agencyId: caller.user.agencyId, detail: { organizationId: id, name } }, now, ids.next());
    });
    return id;
  }

  /** An organization of the caller's, with its members; for its admins, also the invitations that can still be accepted. */
  async view(caller: Caller, organizationId: string): Promise<OrganizationView> {
    const { store, clock } = this.#deps;
    const { organization, role } = await this.#membership(store, caller, organizationId);
    const members = await store.organizations.listMembers(organization.id);
    const pending = role === 'admin' ? await store.organizations.listPendingInvitations(organization.id, clock.now()) : [];
    const inviters = new Map(members.map((m) => [m.userId, m.name]));
    for (const i of pending) {
      if (!inviters.has(i.invitedBy)) inviters.set(i.invitedBy, (await store.accounts.findUserById(i.invitedBy))?.name ?? 'A former member');
    }
    const invitations = pending.map((i) => ({ id: i.id, email: i.email, invitedBy: inviters.get(i.invitedBy)!, createdAt: i.createdAt, expiresAt: i.expiresAt }));
    return { organization, role, members, invitations };
  }

  /**
   * Invites an address (organization admins only): a one-use link, valid for a week, that adds the signed-in user of
   * that address as a member; mailed when mail is on, else given back for the admin to pass on. INVALID_REQUEST when
   * the address already belongs to a member (inviting again cannot change that).
   */
  async invite(caller: Caller, organizationId: string, rawEmail: string): Promise<SentInvitation> {
    const email = normaliseEmail(rawEmail);
    const { store, clock, ids } = this.#deps;
    return store.transaction(async (tx) => {
      const { organization } = await this.#admin(tx, caller, organizationId);
      if ((await tx.organizations.listMembers(organization.id)).some((m) => m.email === email)) {
        throw new ApiError('INVALID_REQUEST', `${email} is already a member of ${organization.name}.`);
      }
      const now = clock.now();
      const token = randomBytes(32).toString('base64url');
      await tx.organizations.insertInvitation({
        id: ids.next(), organizationId: organization.id, email, tokenHash: hashToken(token), invitedBy: caller.user.id, createdAt: now, expiresAt: now + INVITATION_MS, usedAt: null,
      });
      await tx.audit.write({ action: 'organization.invite', actorId: caller.user.id, agencyId: organization.agencyId, detail: { organizationId: organization.id, email } }, now, ids.next());
      return { email, link: await this.#send(tx, caller, organization, email, token, now) };
    });
  }

  /**
   * Sends a pending invitation again (organization admins only) with a new link, valid for a week from now; the
   * earlier link stops working. NOT_FOUND when the invitation is no longer pending (accepted, revoked or expired).
   */
  async resendInvitation(caller: Caller, organizationId: string, invitationId: string): Promise<SentInvitation> {
    const { store, clock, ids } = this.#deps;
    return store.transaction(async (tx) => {
      const { organization } = await this.#admin(tx, caller, organizationId);
      const now = clock.now();
      const invitation = await this.#pending(tx, organization, invitationId, now);
      const token = randomBytes(32).toString('base64url');
      if (!(await tx.organizations.renewInvitation(invitation.id, hashToken(token), now, now + INVITATION_MS))) throw this.#notPending();
      await tx.audit.write({ action: 'organization.invite.resend', actorId: caller.user.id, agencyId: organization.agencyId, detail: { organizationId: organization.id, email: invitation.email } }, now, ids.next());
      return { email: invitation.email, link: await this.#send(tx, caller, organization, invitation.email, token, now) };
    });
  }

  /** Revokes a pending invitation (organization admins only): its link works no more. NOT_FOUND when it is no longer pending. */
  async revokeInvitation(caller: Caller, organizationId: string, invitationId: string): Promise<void> {
    await this.#revoke(caller, (tx) => this.#admin(tx, caller, organizationId), invitationId);
  }

  async #revoke(caller: Caller, authorize: (tx: StoreWriter) => Promise<{ organization: Organization }>, invitationId: string): Promise<void> {
    const { store, clock, ids } = this.#deps;
    await store.transaction(async (tx) => {
      const { organization } = await authorize(tx);
      const now = clock.now();
      const invitation = await this.#pending(tx, organization, invitationId, now);
      if (!(await tx.organizations.deleteInvitation(invitation.id, now))) throw this.#notPending();
      await tx.audit.write({ action: 'organization.invite.revoke', actorId: caller.user.id, agencyId: organization.agencyId, detail: { organizationId: organization.id, email: invitation.email } }, now, ids.next());
    });
  }

  // The link of an invitation, queued in a mail when mail is on (then null comes back), else given back: a link is never
  // queued when no mail will carry it, as the queue would keep its token unredacted.
  async #send(tx: Pick<StoreWriter, 'mail'>, caller: Caller, organization: Organization, email: string, token: string, now: number): Promise<string | null> {
    const link = `${this.#deps.publicUrl}${ORGANIZATION_PATHS.accept}?${new URLSearchParams({ token }).toString()}`;
    if (!this.#deps.mailOn) return link;
    const mail = renderMail(INVITE_MAIL, { organization: organization.name, inviter: caller.user.name, link });
    await tx.mail.enqueueMail({ id: this.#deps.ids.next(), kind: 'organization.invite', eventId: null, to: email, ...mail, createdAt: now });
    return null;
  }

  async #pending(reader: Pick<StoreReader, 'organizations'>, organization: Organization, invitationId: string, now: number): Promise<OrganizationInvitation> {
    const found = (await reader.organizations.listPendingInvitations(organization.id, now)).find((i) => i.id === invitationId);
    if (!found) throw this.#notPending();
    return found;
  }

  #notPending(): ApiError {
    return new ApiError('NOT_FOUND', 'This invitation is no longer pending: it was accepted, revoked or has expired.');
  }

  /** The organization an invitation link invites to, for the accept page; INVALID_REQUEST when the link is not usable. */
  async invitation(token: string): Promise<Organization> {
    const found = token === '' ? null : await this.#deps.store.organizations.findInvitation(hashToken(token));
    const organization = found && found.usedAt === null && found.expiresAt > this.#deps.clock.now() ? await this.#deps.store.organizations.findOrganization(found.organizationId) : null;
    if (!organization) throw new ApiError('INVALID_REQUEST', LINK_UNUSABLE);
    return organization;
  }

  /**
   * Accepts an invitation as the signed-in caller: only the user of the invited address (of the organization's agency)
   * may, so a forwarded link is useless to anyone else; the link is used up. Returns the organization's id.
   */
  async accept(caller: Caller, token: string): Promise<string> {
    const { store, clock, ids } = this.#deps;
    return store.transaction(async (tx) => {
      const now = clock.now();
      const found = token === '' ? null : await tx.organizations.findInvitation(hashToken(token));
      if (!found || found.usedAt !== null || found.expiresAt <= now) throw new ApiError('INVALID_REQUEST', LINK_UNUSABLE);
      const organization = await tx.organizations.findOrganization(found.organizationId);
      if (!organization || found.email !== caller.user.email.toLowerCase() || organization.agencyId !== caller.user.agencyId) {
        throw new ApiError('FORBIDDEN', 'This invitation was sent to another e-mail address: sign in as that user to accept it.');
      }
      if (!(await tx.organizations.useInvitation(found.id, now))) throw new ApiError('INVALID_REQUEST', LINK_UNUSABLE);
      await tx.organizations.addMember(organization.id, caller.user.id, 'member', now);
      await tx.audit.write({ action: 'organization.join', actorId: caller.user.id, agencyId: organization.agencyId, detail: { organizationId: organization.id, userId: caller.user.id } }, now, ids.next());
      return organization.id;
    });
  }

  /**
   * Removes the member of an address (organization admins only): from their next request on they read none of the
   * organization's projects. NOT_FOUND when the address is no member's; INVALID_REQUEST for the last admin.
   */
  async remove(caller: Caller, organizationId: string, rawEmail: string): Promise<void> {
    await this.#remove(caller, (tx) => this.#admin(tx, caller, organizationId), rawEmail);
  }

  async #remove(caller: Caller, authorize: (tx: StoreWriter) => Promise<{ organization: Organization }>, rawEmail: string): Promise<void> {
    const email = normaliseEmail(rawEmail);
    const { store, clock, ids } = this.#deps;
    await store.transaction(async (tx) => {
      const { organization } = await authorize(tx);
      const members = await tx.organizations.listMembers(organization.id);
      const member = members.find((m) => m.email === email);
      if (!member) throw new ApiError('NOT_FOUND', `${email} is not a member of ${organization.name}.`);
      // Not a CONFLICT: that says someone changed the same thing at the same time, and retrying can never help here.
      if (member.role === 'admin' && members.filter((m) => m.role === 'admin').length === 1) {
        throw new ApiError('INVALID_REQUEST', `${member.name} (${email}) is the last admin of ${organization.name} and cannot be removed; an organization keeps at least one admin.`);
      }
      await tx.organizations.removeMember(organization.id, member.userId);
      const now = clock.now();
      await tx.audit.write({ action: 'organization.remove', actorId: caller.user.id, agencyId: organization.agencyId, detail: { organizationId: organization.id, userId: member.userId } }, now, ids.next());
    });
  }

  /** The organizations of an agency with their member counts, by name (the agency console and `apas organization list`). */
  ofAgency(agencyId: string): Promise<(Organization & { memberCount: number })[]> {
    return this.#deps.store.organizations.agencyOrganizations(agencyId);
  }

  /**
   * An organization of an agency as the agency sees it: its members and the invitations still pending; NOT_FOUND for
   * an organization of another agency. Its agency's admins are not its members, so the console reads it through here.
   */
  async agencyView(agencyId: string, organizationId: string): Promise<Omit<OrganizationView, 'role'>> {
    const { store, clock } = this.#deps;
    const { organization } = await this.#ofAgency(store, agencyId, organizationId);
    const members = await store.organizations.listMembers(organization.id);
    const pending = await store.organizations.listPendingInvitations(organization.id, clock.now());
    const invitations = [];
    for (const i of pending) {
      const inviter = members.find((m) => m.userId === i.invitedBy)?.name ?? (await store.accounts.findUserById(i.invitedBy))?.name ?? 'A former member';
      invitations.push({ id: i.id, email: i.email, invitedBy: inviter, createdAt: i.createdAt, expiresAt: i.expiresAt });
    }
    return { organization, members, invitations };
  }

  /**
   * The organizations of one agency (custom id or id) or of all, with their agency and member counts, for the
   * command line; NOT_FOUND for an unknown agency.
   */
  async listForOperator(agencyRef?: string): Promise<(Organization & { memberCount: number; agency: string })[]> {
    const { accounts } = this.#deps.store;
    const agencies = await accounts.listAgencies();
    const only = agencyRef === undefined ? agencies : agencies.filter((a) => a.customId === agencyRef || a.id === agencyRef);
    if (agencyRef !== undefined && only.length === 0) throw new ApiError('NOT_FOUND', `agency "${agencyRef}" not found`);
    const lists = await Promise.all(only.map(async (a) => (await this.ofAgency(a.id)).map((o) => ({ ...o, agency: a.customId ?? a.id }))));
    return lists.flat();
  }

  /** An organization's members and pending invitations by its id, for the command line; NOT_FOUND when there is none. */
  async viewForOperator(organizationId: string): Promise<Omit<OrganizationView, 'role'>> {
    const organization = await this.#deps.store.organizations.findOrganization(organizationId);
    if (!organization) throw new ApiError('NOT_FOUND', `organization ${organizationId} not found`);
    return this.agencyView(organization.agencyId, organization.id);
  }

  /** Removes a member as an admin of the organization's agency (the console); the same rules as remove(). */
  async removeForAgency(caller: Caller, agencyId: string, organizationId: string, rawEmail: string): Promise<void> {
    await this.#remove(caller, (tx) => this.#ofAgency(tx, agencyId, organizationId), rawEmail);
  }

  /** Revokes a pending invitation as an admin of the organization's agency (the console); the same rules as revokeInvitation(). */
  async revokeInvitationForAgency(caller: Caller, agencyId: string, organizationId: string, invitationId: string): Promise<void> {
    await this.#revoke(caller, (tx) => this.#ofAgency(tx, agencyId, organizationId), invitationId);
  }

  async #ofAgency(reader: Pick<StoreReader, 'organizations'>, agencyId: string, organizationId: string): Promise<{ organization: Organization }> {
    const organization = await reader.organizations.findOrganization(organizationId);
    if (!organization || organization.agencyId !== agencyId) throw new ApiError('NOT_FOUND', `Organization ${organizationId} not found.`);
    return { organization };
  }

  /** Sets the defaults prefilled on new applications (organization admins only); an empty value removes one. */
  async setDefaults(caller: Caller, organizationId: string, values: Readonly<Record<string, string>>): Promise<void> {
    const defaults: Record<string, string> = {};
    for (const customId of DEFAULT_FIELDS) {
      const value = (values[customId] ?? '').trim();
      if (value.length > MAX_DEFAULT_CHARS) throw new ApiError('INVALID_PARAMETER', `A default may be at most ${MAX_DEFAULT_CHARS} characters (${customId}).`);
      if (value !== '') defaults[customId] = value;
    }
    const { store, clock, ids } = this.#deps;
    await store.transaction(async (tx) => {
      const { organization } = await this.#admin(tx, caller, organizationId);
      await tx.organizations.setOrganizationDefaults(organization.id, defaults);
      await tx.audit.write({ action: 'organization.defaults', actorId: caller.user.id, agencyId: organization.agencyId, detail: { organizationId: organization.id, defaults } }, clock.now(), ids.next());
    });
  }

  // The organization and the caller's role in it, read now (not from the request's start); NOT_FOUND for a non-member.
  async #membership(reader: Pick<StoreReader, 'organizations'>, caller: Caller, organizationId: string): Promise<{ organization: Organization; role: OrganizationRole }> {
    const organization = await reader.organizations.findOrganization(organizationId);
    const member = organization ? (await reader.organizations.listMembers(organization.id)).find((m) => m.userId === caller.user.id) : undefined;
    if (!organization || !member) throw new ApiError('NOT_FOUND', `Organization ${organizationId} not found.`);
    return { organization, role: member.role };
  }

  async #admin(reader: Pick<StoreReader, 'organizations'>, caller: Caller, organizationId: string): Promise<{ organization: Organization }> {
    const found = await this.#membership(reader, caller, organizationId);
    if (found.role !== 'admin') throw new ApiError('FORBIDDEN', `Only admins of ${found.organization.name} invite and remove members and set its defaults.`);
    return found;
  }
}
