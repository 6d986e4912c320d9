import type { MyOrganization, OrganizationView } from '../../domain/organizations/organization-service.ts';
import { TableBox } from '../components/table-box.tsx';
import { Alert } from '../components/alert.tsx';
import { DEFAULT_FIELD_LABELS, DEFAULT_FIELDS } from '../../domain/organizations/organization-defaults.ts';
import { formatDateTime } from '../format-time.ts';
import { Layout, type PageUser } from '../layout.tsx';
import { organizationPath, ORGANIZATIONS_PATH } from '../organization-paths.ts';

/** What every organization page needs: the signed-in user, the CSRF token, and a notice after a change. */
interface PageBase { user: PageUser; csrfToken: string; notice?: string | null }

function Notice(p: { notice?: string | null }) {
  return p.notice ? <Alert kind="success" slim live>{p.notice}</Alert> : null;
}

/** Organizations: the ones the user belongs to, and a form to create one (the creator becomes its admin). */
export function OrganizationsPage(p: PageBase & { organizations: MyOrganization[] }) {
  return (
    <Layout title="Organizations" user={p.user} csrfToken={p.csrfToken}>
      <h1>Organizations</h1>
      <Notice notice={p.notice} />
      <p>Members of an organization see and work on every application started for it.</p>
      {p.organizations.length === 0 ? <p>You are not a member of any organization.</p> : (
        <ul class="usa-list">
          {p.organizations.map((o) => <li key={o.id}><a href={organizationPath(o.id)}>{o.name}</a> ({o.role})</li>)}
        </ul>
      )}
      <h2>Create an organization</h2>
      <form class="usa-form usa-form--large" method="post" action={ORGANIZATIONS_PATH}>
        <input type="hidden" name="_csrf" value={p.csrfToken} />
        <label class="usa-label" for="org-name">Organization name</label>
        <input class="usa-input" id="org-name" name="Name" required maxlength={200} autocomplete="organization" />
        <button class="usa-button" type="submit">Create organization</button>
      </form>
    </Layout>
  );
}

/** What the organization page shows besides the organization: a refused change, or an invitation link to pass on. */
export interface OrganizationPageExtra {
  /** Why a change was refused (nothing was changed). */
  refusal?: string | null;
  /** An invitation just made or sent again while mail is off: its link, for the admin to pass on. */
  invitation?: { email: string; link: string } | null;
  timeZone: string;
}

function InvitationLink(p: { email: string; link: string }) {
  return (
    <Alert kind="info">
      <p>Mail is off on this service, so no invitation mail was sent. Send this link to {p.email} yourself; it works once, for a week, for the user of that address:</p>
      <p><label class="usa-label" for="invitation-link">Invitation link</label> <input class="usa-input" id="invitation-link" readonly value={p.link} size={60} /></p>
    </Alert>
  );
}

function PendingInvitations(p: { view: OrganizationView; path: string; csrfToken: string; timeZone: string }) {
  if (p.view.invitations.length === 0) return <p>No invitations are waiting to be accepted.</p>;
  const action = (kind: 'Resend' | 'Revoke', id: string, email: string) => (
    <form method="post" action={`${p.path}/Invitations/${kind}`} class="inline-form">
      <input type="hidden" name="_csrf" value={p.csrfToken} />
      <input type="hidden" name="InvitationId" value={id} />
      <button type="submit" class={kind === 'Revoke' ? 'usa-button usa-button--outline' : 'usa-button'} aria-label={`${kind === 'Resend' ? 'Send again the invitation of' : 'Revoke the invitation of'} ${email}`}>
        {kind === 'Resend' ? 'Send again' : 'Revoke'}
      </button>
    </form>
  );
  return (
    <TableBox label="Invitations waiting to be accepted">
      <table class="usa-table">
        <caption>Invitations waiting to be accepted</caption>
        <thead><tr><th scope="col">E-mail</th><th scope="col">Invited by</th><th scope="col">Sent</th><th scope="col">Expires</th><th scope="col">Action</th></tr></thead>
        <tbody>
          {p.view.invitations.map((i) => (
            <tr key={i.id}>
              <td>{i.email}</td><td>{i.invitedBy}</td><td>{formatDateTime(i.createdAt, p.timeZone)}</td><td>{formatDateTime(i.expiresAt, p.timeZone)}</td>
              <td>{action('Resend', i.id, i.email)}{action('Revoke', i.id, i.email)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableBox>
  );
}

/** One organization: its members; for its admins the invite, remove and defaults forms and the pending invitations. */
export function OrganizationPage(p: PageBase & { view: OrganizationView } & OrganizationPageExtra) {
  const { organization, role, members } = p.view;
  const admin = role === 'admin';
  const path = organizationPath(organization.id);
  return (
    <Layout title={organization.name} user={p.user} csrfToken={p.csrfToken}>
      <h1>{organization.name}</h1>
      <Notice notice={p.notice} />
      {p.refusal ? (
        <Alert kind="error" role="alert">
          <p>{p.refusal}</p>
          <p>Nothing was changed.</p>
        </Alert>
      ) : null}
      {p.invitation ? <InvitationLink email={p.invitation.email} link={p.invitation.link} /> : null}
      <p>Your role: {role}. <a href={ORGANIZATIONS_PATH}>All organizations</a></p>
      <TableBox label="Members">
        <table class="usa-table">
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
                      <button class="usa-button usa-button--secondary" type="submit" aria-label={`Remove ${m.name}`}>Remove</button>
                    </form>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </TableBox>
      {admin ? (
        <>
          <h2>Invite a member</h2>
          <form class="usa-form usa-form--large" method="post" action={`${path}/Invite`}>
            <input type="hidden" name="_csrf" value={p.csrfToken} />
            <label class="usa-label" for="invite-email">E-mail address</label>
            <input class="usa-input" id="invite-email" name="Email" type="email" required autocomplete="off" />
            <button class="usa-button" type="submit">Send invitation</button>
          </form>
          <h2>Pending invitations</h2>
          <PendingInvitations view={p.view} path={path} csrfToken={p.csrfToken} timeZone={p.timeZone} />
          <h2>Defaults for new applications</h2>
          <p>Prefilled on every application started for the organization, in programs that have these fields.</p>
          <form class="usa-form usa-form--large" method="post" action={`${path}/Defaults`}>
            <input type="hidden" name="_csrf" value={p.csrfToken} />
            {DEFAULT_FIELDS.map((f) => (
              <p key={f}>
                <label class="usa-label" for={`default-${f}`}>{DEFAULT_FIELD_LABELS[f]}</label>
                <input class="usa-input" id={`default-${f}`} name={f} maxlength={200} value={organization.defaults[f] ?? ''} />
              </p>
            ))}
            <button class="usa-button" type="submit">Save defaults</button>
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
        <button class="usa-button" type="submit">Join {p.organizationName}</button>
      </form>
    </Layout>
  );
}
