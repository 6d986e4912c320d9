import type { PersonView } from '../../domain/administration/people-service.ts';
import type { PersonRow } from '../../store/account-queries.ts';
import type { Program } from '../../model/model.ts';
import { ErrorSummary, type FormProblem } from '../components/error-summary.tsx';
import { formatDateTime } from '../format-time.ts';
import type { PageUser } from '../layout.tsx';
import { ConsoleLayout } from './console-layout.tsx';
import { consoleArea } from './console-paths.ts';

/** The People area's address. */
export const PEOPLE_PATH = consoleArea('people').path;

/** A person's page in the console. */
export function personPath(userId: string): string {
  return `${PEOPLE_PATH}/${encodeURIComponent(userId)}`;
}

/** What every People page needs. */
interface PageBase { user: PageUser; csrfToken: string; agencyAdmin: boolean; notice?: string | null; timeZone: string }

function Csrf(p: { token: string }) {
  return <input type="hidden" name="_csrf" value={p.token} />;
}

function lastSignIn(person: PersonRow, timeZone: string): string {
  return person.lastSignInAt === null ? 'Never' : formatDateTime(person.lastSignInAt, timeZone);
}

/** Tags a person's state: disabled, agency admin, MFA. */
function States(p: { person: PersonRow }) {
  return (
    <>
      {p.person.disabled ? <span class="usa-tag usa-tag--big bg-secondary">Disabled</span> : <span class="usa-tag">Active</span>}{' '}
      {p.person.agencyAdmin ? <span class="usa-tag">Agency admin</span> : null}
    </>
  );
}

/** The search form of a list of people: a part of the name or e-mail address, sent as `q` by GET. */
export function PeopleSearch(p: { action: string; search: string }) {
  return (
    <form method="get" action={p.action} class="usa-search usa-search--small">
      <label class="usa-label" for="people-search">Search by name or e-mail address</label>
      <input class="usa-input" id="people-search" name="q" type="search" value={p.search} maxlength={200} />
      <button class="usa-button" type="submit">Search</button>
    </form>
  );
}

/** What the invitation form shows again after a refusal: what was typed and what was wrong. */
export interface InviteAgain { name: string; email: string; problem: FormProblem }

// The link of an invitation when mail is off: shown to the admin on the answer to the POST, never put in an address.
function InvitationLink(p: { email: string; link: string }) {
  return (
    <div class="usa-alert usa-alert--info"><div class="usa-alert__body">
      <p class="usa-alert__text">Mail is off on this service, so no invitation mail was sent. Send this link to {p.email} yourself; it works once, for a week:</p>
      <p><label for="invitation-link">Invitation link</label> <input class="usa-input" id="invitation-link" readonly value={p.link} /></p>
    </div></div>
  );
}

/** The invitation form (agency admins): a name and an address; the link is mailed. */
function InviteForm(p: { csrfToken: string; again?: InviteAgain | null }) {
  return (
    <section aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite a colleague</h2>
      <p>They get an e-mail with a link, valid for a week, to choose their password; they can then enrol in multi-factor authentication.</p>
      <ErrorSummary title="Nobody was invited" problems={p.again ? [p.again.problem] : []} />
      <form method="post" action={`${PEOPLE_PATH}/Invite`} class="usa-form">
        <Csrf token={p.csrfToken} />
        <label class="usa-label" for="invite-name">Name</label>
        <input class="usa-input" id="invite-name" name="Name" required maxlength={200} autocomplete="off" value={p.again?.name ?? ''} />
        <label class="usa-label" for="invite-email">E-mail address</label>
        <input class="usa-input" id="invite-email" name="Email" type="email" required maxlength={254} autocomplete="off" value={p.again?.email ?? ''} />
        <button class="usa-button" type="submit">Send invitation</button>
      </form>
    </section>
  );
}

/** People: the agency's users, searchable, each linking to their page; agency admins also invite. */
export function PeoplePage(p: PageBase & { people: PersonRow[]; search: string; invitationLink?: { email: string; link: string } | null; inviteAgain?: InviteAgain | null }) {
  return (
    <ConsoleLayout title="People" user={p.user} csrfToken={p.csrfToken} area="people" agencyAdmin={p.agencyAdmin} notice={p.notice ?? null}>
      {p.invitationLink ? <InvitationLink email={p.invitationLink.email} link={p.invitationLink.link} /> : null}
      {p.agencyAdmin ? null : <p>You change the grants of the programs you administer; the agency's admins manage accounts.</p>}
      <PeopleSearch action={PEOPLE_PATH} search={p.search} />
      <table class="usa-table usa-table--borderless">
        <caption>{p.search === '' ? 'The people of your agency' : `People matching "${p.search}"`}</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">E-mail address</th><th scope="col">State</th><th scope="col">MFA</th><th scope="col">Last sign-in</th></tr></thead>
        <tbody>
          {p.people.map((person) => (
            <tr key={person.id}>
              <th scope="row"><a href={personPath(person.id)}>{person.name}</a></th>
              <td>{person.email}</td>
              <td><States person={person} /></td>
              <td>{person.mfaEnrolled ? 'Enrolled' : 'Not enrolled'}</td>
              <td>{lastSignIn(person, p.timeZone)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {p.people.length === 0 ? <p>Nobody matches.</p> : null}
      {p.agencyAdmin ? <InviteForm csrfToken={p.csrfToken} again={p.inviteAgain ?? null} /> : null}
    </ConsoleLayout>
  );
}

function AccountActions(p: { view: PersonView; csrfToken: string; self: boolean }) {
  const { person } = p.view;
  const path = personPath(person.id);
  return (
    <section aria-labelledby="account-heading">
      <h2 id="account-heading">Account</h2>
      {p.self ? <p>You cannot disable your own account.</p> : (
        <form method="post" action={`${path}/${person.disabled ? 'Enable' : 'Disable'}`}>
          <Csrf token={p.csrfToken} />
          {person.disabled ? null : <p>Disabling ends the user's sessions, MFA session tokens and OAuth access tokens at once.</p>}
          <button class={person.disabled ? 'usa-button' : 'usa-button usa-button--secondary'} type="submit">{person.disabled ? 'Enable this user' : 'Disable this user'}</button>
        </form>
      )}
      {p.view.awaitingPassword && !person.disabled ? (
        <form method="post" action={`${path}/Reinvite`}>
          <Csrf token={p.csrfToken} />
          <p>{person.email} has not chosen a password yet. A new invitation link replaces the earlier ones.</p>
          <button class="usa-button usa-button--outline" type="submit">Send the invitation again</button>
        </form>
      ) : null}
      {person.mfaEnrolled ? (
        <form method="post" action={`${path}/ResetMfa`}>
          <Csrf token={p.csrfToken} />
          <p>Resetting ends the enrolment and the user's sessions; they enrol again after signing in.</p>
          <button class="usa-button usa-button--outline" type="submit">Reset multi-factor authentication</button>
        </form>
      ) : null}
    </section>
  );
}

function GrantRow(p: { g: PersonView['grants'][number]; path: string; csrfToken: string }) {
  const { program, roles, grant } = p.g;
  const id = program.customId;
  return (
    <tr>
      <th scope="row">{program.name}</th>
      <td>{grant ? `${roles.find((r) => r.value === grant.role)?.label ?? grant.role}${grant.sensitive ? ', with sensitive data' : ''}${grant.accessGroups ? `, only the projects of ${groupNames(program, grant.accessGroups)}` : ''}` : 'No access'}</td>
      <td>
        <form method="post" action={`${p.path}/Grants`} class="usa-form">
          <Csrf token={p.csrfToken} />
          <input type="hidden" name="Program" value={program.id} />
          <label class="usa-label" for={`role-${id}`}>Role in {program.name}</label>
          <select class="usa-select" id={`role-${id}`} name="Role">
            {roles.map((r) => <option key={r.value} value={r.value} selected={grant?.role === r.value}>{r.label}</option>)}
          </select>
          <div class="usa-checkbox">
            <input class="usa-checkbox__input" type="checkbox" id={`sensitive-${id}`} name="Sensitive" value="true" checked={grant?.sensitive ?? false} />
            <label class="usa-checkbox__label" for={`sensitive-${id}`}>May see sensitive data in {program.name}</label>
          </div>
          <GroupChoices program={program} chosen={grant?.accessGroups ?? null} />
          <button class="usa-button" type="submit">{grant ? `Change the grant in ${program.name}` : `Grant access to ${program.name}`}</button>
        </form>
        {grant ? (
          <form method="post" action={`${p.path}/Grants/Remove`}>
            <Csrf token={p.csrfToken} />
            <input type="hidden" name="Program" value={program.id} />
            <button class="usa-button usa-button--unstyled" type="submit">Remove the grant in {program.name}</button>
          </form>
        ) : null}
      </td>
    </tr>
  );
}

/** The names of a program's access groups, by customId (a group the program no longer has by its customId). */
function groupNames(program: Program, groups: readonly string[]): string {
  return groups.map((g) => program.accessGroups?.find((x) => x.customId === g)?.name ?? g).join(', ');
}

/** The access groups a grant may be limited to, when the program has any: none ticked reads every project. */
function GroupChoices(p: { program: Program; chosen: readonly string[] | null }) {
  const groups = p.program.accessGroups ?? [];
  if (groups.length === 0) return null;
  const id = p.program.customId;
  return (
    <fieldset class="usa-fieldset">
      <legend class="usa-legend">Only the projects of these access groups (none ticked: every project)</legend>
      {groups.map((g) => (
        <div class="usa-checkbox" key={g.customId}>
          <input class="usa-checkbox__input" type="checkbox" id={`group-${id}-${g.customId}`} name="Group" value={g.customId} checked={p.chosen?.includes(g.customId) ?? false} />
          <label class="usa-checkbox__label" for={`group-${id}-${g.customId}`}>{g.name} in {p.program.name}</label>
        </div>
      ))}
    </fieldset>
  );
}

/** A person: state, MFA and last sign-in; account actions for agency admins; grants in the programs the caller administers. */
export function PersonPage(p: PageBase & { view: PersonView; self: boolean; invitationLink?: string | null }) {
  const { person } = p.view;
  const path = personPath(person.id);
  return (
    <ConsoleLayout title={person.name} user={p.user} csrfToken={p.csrfToken} area="people" agencyAdmin={p.agencyAdmin} notice={p.notice ?? null}>
      <p><a href={PEOPLE_PATH}>All people</a></p>
      {p.invitationLink ? <InvitationLink email={person.email} link={p.invitationLink} /> : null}
      <dl class="usa-summary-box">
        <dt>E-mail address</dt><dd>{person.email}</dd>
        <dt>State</dt><dd><States person={person} /></dd>
        <dt>Multi-factor authentication</dt><dd>{person.mfaEnrolled ? 'Enrolled' : 'Not enrolled'}</dd>
        <dt>Last sign-in</dt><dd>{lastSignIn(person, p.timeZone)}</dd>
      </dl>
      {p.agencyAdmin ? <AccountActions view={p.view} csrfToken={p.csrfToken} self={p.self} /> : null}
      <h2>Grants</h2>
      {person.agencyAdmin ? <p>An agency admin is an admin of every program of the agency, whatever the grants say.</p> : null}
      <table class="usa-table usa-table--borderless">
        <caption>Roles in the programs you administer</caption>
        <thead><tr><th scope="col">Program</th><th scope="col">Role</th><th scope="col">Change</th></tr></thead>
        <tbody>{p.view.grants.map((g) => <GrantRow key={g.program.id} g={g} path={path} csrfToken={p.csrfToken} />)}</tbody>
      </table>
    </ConsoleLayout>
  );
}
