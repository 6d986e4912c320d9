import { createHash, randomBytes } from 'node:crypto';
import type { MailTemplate } from '../../model/notification.ts';
import type { Organization, OrganizationMember, OrganizationRole } from '../../store/organization-queries.ts';
import type { StoreReader } from '../../store/store.ts';
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

/** An organization as its pages show it to a member: the caller's role, its members and defaults. */
export interface OrganizationView { organization: Organization; role: OrganizationRole; members: OrganizationMember[] }

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
  readonly #deps: ServiceDeps<'organizations' | 'accounts' | 'mail' | 'audit'>;
  constructor(deps: ServiceDeps<'organizations' | 'accounts' | 'mail' | 'audit'>) {
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

  /** An organization of the caller's, with its members. */
  async view(caller: Caller, organizationId: string): Promise<OrganizationView> {
    const { organization, role } = await this.#membership(this.#deps.store, caller, organizationId);
    return { organization, role, members: await this.#deps.store.organizations.listMembers(organization.id) };
  }

  /**
   * Invites an address (organization admins only): queues a mail with a one-use link, valid for a week, that adds the
   * signed-in user of that address as a member. CONFLICT when the address already belongs to a member.
   */
  async invite(caller: Caller, organizationId: string, rawEmail: string): Promise<void> {
    const email = normaliseEmail(rawEmail);
    const { store, clock, ids, publicUrl } = this.#deps;
    await store.transaction(async (tx) => {
      const { organization } = await this.#admin(tx, caller, organizationId);
      if ((await tx.organizations.listMembers(organization.id)).some((m) => m.email === email)) {
        throw new ApiError('CONFLICT', `${email} is already a member of ${organization.name}.`);
      }
      const now = clock.now();
      const token = randomBytes(32).toString('base64url');
      await tx.organizations.insertInvitation({
        id: ids.next(), organizationId: organization.id, email, tokenHash: hashToken(token), invitedBy: caller.user.id, createdAt: now, expiresAt: now + INVITATION_MS, usedAt: null,
      });
      const link = `${publicUrl}${ORGANIZATION_PATHS.accept}?${new URLSearchParams({ token }).toString()}`;
      const mail = renderMail(INVITE_MAIL, { organization: organization.name, inviter: caller.user.name, link });
      await tx.mail.enqueueMail({ id: ids.next(), kind: 'organization.invite', eventId: null, to: email, ...mail, createdAt: now });
      await tx.audit.write({ action: 'organization.invite', actorId: caller.user.id, agencyId: organization.agencyId, detail: { organizationId: organization.id, email } }, now, ids.next());
    });
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
   * organization's projects. NOT_FOUND when the address is no member's; CONFLICT for the last admin.
   */
  async remove(caller: Caller, organizationId: string, rawEmail: string): Promise<void> {
    const email = normaliseEmail(rawEmail);
    const { store, clock, ids } = this.#deps;
    await store.transaction(async (tx) => {
      const { organization } = await this.#admin(tx, caller, organizationId);
      const members = await tx.organizations.listMembers(organization.id);
      const member = members.find((m) => m.email === email);
      if (!member) throw new ApiError('NOT_FOUND', `${email} is not a member of ${organization.name}.`);
      if (member.role === 'admin' && members.filter((m) => m.role === 'admin').length === 1) {
        throw new ApiError('CONFLICT', `${email} is the last admin of ${organization.name}; an organization keeps at least one.`);
      }
      await tx.organizations.removeMember(organization.id, member.userId);
      const now = clock.now();
      await tx.audit.write({ action: 'organization.remove', actorId: caller.user.id, agencyId: organization.agencyId, detail: { organizationId: organization.id, userId: member.userId } }, now, ids.next());
    });
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
