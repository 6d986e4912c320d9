import type { OrganizationView } from '../../domain/organizations/organization-service.ts';
import type { Organization } from '../../store/organization-queries.ts';
import { formatDateTime } from '../format-time.ts';
import type { PageUser } from '../layout.tsx';
import { ConsoleLayout } from './console-layout.tsx';
import { consoleArea } from './console-paths.ts';

/** The Organizations area's address. */
export const INSTALLER_ORGANIZATIONS_PATH = consoleArea('organizations').path;

/** An organization's page in the console. */
export function installerOrganizationPath(id: string): string {
  return `${INSTALLER_ORGANIZATIONS_PATH}/${encodeURIComponent(id)}`;
}

interface PageBase { user: PageUser; csrfToken: string; notice?: string | null; timeZone: string }

/** The agency's installer organizations with their member counts. */
export function InstallerOrganizationsPage(p: PageBase & { organizations: (Organization & { memberCount: number })[] }) {
  return (
    <ConsoleLayout title="Organizations" user={p.user} csrfToken={p.csrfToken} area="organizations" agencyAdmin notice={p.notice ?? null}>
      <p>Installer companies create their organizations themselves and invite their staff; members work on each other's applications.</p>
      {p.organizations.length === 0 ? <p>No organization has been created in your agency yet.</p> : (
        <table class="usa-table usa-table--borderless">
          <caption>The organizations of your agency</caption>
          <thead><tr><th scope="col">Organization</th><th scope="col">Members</th><th scope="col">Created</th></tr></thead>
          <tbody>
            {p.organizations.map((o) => (
              <tr key={o.id}>
                <th scope="row"><a href={installerOrganizationPath(o.id)}>{o.name}</a></th>
                <td>{o.memberCount}</td>
                <td>{formatDateTime(o.createdAt, p.timeZone)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ConsoleLayout>
  );
}

/** One organization: its members (remove) and pending invitations (revoke). */
export function InstallerOrganizationPage(p: PageBase & { view: Omit<OrganizationView, 'role'> }) {
  const { organization, members, invitations } = p.view;
  const path = installerOrganizationPath(organization.id);
  return (
    <ConsoleLayout title={organization.name} user={p.user} csrfToken={p.csrfToken} area="organizations" agencyAdmin notice={p.notice ?? null}>
      <p><a href={INSTALLER_ORGANIZATIONS_PATH}>All organizations</a></p>
      <table class="usa-table usa-table--borderless">
        <caption>Members</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">E-mail address</th><th scope="col">Role</th><th scope="col">Member since</th><th scope="col">Remove</th></tr></thead>
        <tbody>
          {members.map((m) => (
            <tr key={m.userId}>
              <th scope="row">{m.name}</th><td>{m.email}</td><td>{m.role}</td><td>{formatDateTime(m.addedAt, p.timeZone)}</td>
              <td>
                <form method="post" action={`${path}/Remove`}>
                  <input type="hidden" name="_csrf" value={p.csrfToken} />
                  <input type="hidden" name="Email" value={m.email} />
                  <button class="usa-button usa-button--secondary" type="submit">Remove {m.name}</button>
                </form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Pending invitations</h2>
      {invitations.length === 0 ? <p>No invitations are waiting to be accepted.</p> : (
        <table class="usa-table usa-table--borderless">
          <caption>Invitations not yet accepted</caption>
          <thead><tr><th scope="col">E-mail address</th><th scope="col">Invited by</th><th scope="col">Expires</th><th scope="col">Revoke</th></tr></thead>
          <tbody>
            {invitations.map((i) => (
              <tr key={i.id}>
                <th scope="row">{i.email}</th><td>{i.invitedBy}</td><td>{formatDateTime(i.expiresAt, p.timeZone)}</td>
                <td>
                  <form method="post" action={`${path}/Invitations/Revoke`}>
                    <input type="hidden" name="_csrf" value={p.csrfToken} />
                    <input type="hidden" name="InvitationId" value={i.id} />
                    <button class="usa-button usa-button--outline" type="submit">Revoke the invitation of {i.email}</button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ConsoleLayout>
  );
}
