import type { MyOrganization, OrganizationView } from '../../domain/organizations/organization-service.ts';
import { DEFAULT_FIELD_LABELS, DEFAULT_FIELDS } from '../../domain/organizations/organization-defaults.ts';
import { Layout, type PageUser } from '../layout.tsx';
import { organizationPath, ORGANIZATIONS_PATH } from '../organization-paths.ts';

/** What every organization page needs: the signed-in user, the CSRF token, and a notice after a change. */
interface PageBase { user: PageUser; csrfToken: string; notice?: string | null }

function Notice(p: { notice?: string | null }) {
  return p.notice ? <output class="notice">{p.notice}</output> : null;
}

/** Organizations: the ones the user belongs to, and a form to create one (the creator becomes its admin). */
export function OrganizationsPage(p: PageBase & { organizations: MyOrganization[] }) {
  return (
    <Layout title="Organizations" user={p.user} csrfToken={p.csrfToken}>
      <h1>Organizations</h1>
      <Notice notice={p.notice} />
      <p>Members of an organization see and work on every application started for it.</p>
      {p.organizations.length === 0 ? <p>You are not a member of any organization.</p> : (
        <ul>
          {p.organizations.map((o) => <li key={o.id}><a href={organizationPath(o.id)}>{o.name}</a> ({o.role})</li>)}
        </ul>
      )}
      <h2>Create an organization</h2>
      <form method="post" action={ORGANIZATIONS_PATH}>
        <input type="hidden" name="_csrf" value={p.csrfToken} />
        <label for="org-name">Organization name</label>
        <input id="org-name" name="Name" required maxlength={200} autocomplete="organization" />
        <button type="submit">Create organization</button>
      </form>
    </Layout>
  );
}

/** One organization: its members; for its admins the invite, remove and defaults forms. */
export function OrganizationPage(p: PageBase & { view: OrganizationView }) {
  const { organization, role, members } = p.view;
  const admin = role === 'admin';
  const path = organizationPath(organization.id);
  return (
    <Layout title={organization.name} user={p.user} csrfToken={p.csrfToken}>
      <h1>{organization.name}</h1>
      <Notice notice={p.notice} />
      <p>Your role: {role}. <a href={ORGANIZATIONS_PATH}>All organizations</a></p>
      <div class="table-wrap">
        <table>
          <caption>Members</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Role</th>{admin ? <th scope="col">Action</th> : null}</tr></thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.userId}>
                <td>{m.name}</td><td>{m.email}</td><td>{m.role}</td>
                {admin ? (
                  <td>
                    <form method="post" action={`${path}/Remove`}>
                      <input type="hidden" name="_csrf" value={p.csrfToken} />
                      <input type="hidden" name="Email" value={m.email} />
                      <button type="submit" aria-label={`Remove ${m.name}`}>Remove</button>
                    </form>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {admin ? (
        <>
          <h2>Invite a member</h2>
          <form method="post" action={`${path}/Invite`}>
            <input type="hidden" name="_csrf" value={p.csrfToken} />
            <label for="invite-email">E-mail address</label>
            <input id="invite-email" name="Email" type="email" required autocomplete="off" />
            <button type="submit">Send invitation</button>
          </form>
          <h2>Defaults for new applications</h2>
          <p>Prefilled on every application started for the organization, in programs that have these fields.</p>
          <form method="post" action={`${path}/Defaults`}>
            <input type="hidden" name="_csrf" value={p.csrfToken} />
            {DEFAULT_FIELDS.map((f) => (
              <p key={f}>
                <label for={`default-${f}`}>{DEFAULT_FIELD_LABELS[f]}</label>
                <input id={`default-${f}`} name={f} maxlength={200} value={organization.defaults[f] ?? ''} />
              </p>
            ))}
            <button type="submit">Save defaults</button>
          </form>
        </>
      ) : null}
    </Layout>
  );
}

/** The page an invitation link opens: which organization, and a button to join it as the signed-in user. */
export function AcceptInvitationPage(p: PageBase & { organizationName: string; token: string }) {
  return (
    <Layout title="Join an organization" user={p.user} csrfToken={p.csrfToken}>
      <h1>Join {p.organizationName}</h1>
      <p>As a member you see and work on every application started for {p.organizationName}.</p>
      <form method="post" action={`${ORGANIZATIONS_PATH}/Accept`}>
        <input type="hidden" name="_csrf" value={p.csrfToken} />
        <input type="hidden" name="token" value={p.token} />
        <button type="submit">Join {p.organizationName}</button>
      </form>
    </Layout>
  );
}
