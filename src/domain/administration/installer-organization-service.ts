import type { Store } from '../../store/store.ts';
import type { Organization } from '../../store/organization-queries.ts';
import type { Caller } from '../caller.ts';
import type { OrganizationService, OrganizationView } from '../organizations/organization-service.ts';
import { requireAgencyAdmin, requireConsoleScope } from './console-scope.ts';

/**
 * The console's Organizations area (agency admins): the installer organizations of the agency with their member
 * counts, one organization's members and pending invitations, and removing a member or revoking an invitation, by the
 * organization service's own rules (an organization keeps its last admin), audited with the caller as actor.
 */
export class InstallerOrganizationService {
  constructor(private readonly deps: { store: Pick<Store, 'programs'>; organizations: OrganizationService }) {}

  /** The agency's organizations by name, with their member counts. */
  async list(caller: Caller): Promise<(Organization & { memberCount: number })[]> {
    return this.deps.organizations.ofAgency(await this.#agency(caller, 'Listing organizations'));
  }

  /** One organization of the agency: its members and pending invitations; NOT_FOUND for another agency's. */
  async view(caller: Caller, organizationId: string): Promise<Omit<OrganizationView, 'role'>> {
    return this.deps.organizations.agencyView(await this.#agency(caller, 'Reading organizations'), organizationId);
  }

  /** Removes a member by e-mail address. */
  async remove(caller: Caller, organizationId: string, email: string): Promise<void> {
    await this.deps.organizations.removeForAgency(caller, await this.#agency(caller, 'Removing members'), organizationId, email);
  }

  /** Revokes a pending invitation. */
  async revokeInvitation(caller: Caller, organizationId: string, invitationId: string): Promise<void> {
    await this.deps.organizations.revokeInvitationForAgency(caller, await this.#agency(caller, 'Revoking invitations'), organizationId, invitationId);
  }

  async #agency(caller: Caller, what: string): Promise<string> {
    const scope = await requireConsoleScope(caller, this.deps.store.programs);
    requireAgencyAdmin(scope, what);
    return scope.agencyId;
  }
}
