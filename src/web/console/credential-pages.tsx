import type { UserCredentials } from '../../domain/administration/credential-service.ts';
import type { PersonRow } from '../../store/account-queries.ts';
import { formatDateTime } from '../format-time.ts';
import type { PageUser } from '../layout.tsx';
import { ConsoleLayout } from './console-layout.tsx';
import { consoleArea } from './console-paths.ts';
import { PeopleSearch } from './people-pages.tsx';

/** The Credentials area's address. */
export const CREDENTIALS_PATH = consoleArea('credentials').path;

/** A user's credentials page. */
export function credentialsPath(userId: string): string {
  return `${CREDENTIALS_PATH}/${encodeURIComponent(userId)}`;
}

/** A secret just made, shown on the answer page this once: an API key, or an OAuth client's id and secret. */
export type NewSecret = { kind: 'key'; id: string; name: string; key: string } | { kind: 'client'; id: string; name: string; secret: string };

interface PageBase { user: PageUser; csrfToken: string; notice?: string | null; timeZone: string }

const when = (ms: number | null | undefined, timeZone: string) => (ms === null || ms === undefined ? 'Never' : formatDateTime(ms, timeZone));

/** Whose credentials: the agency's users, searchable. */
export function CredentialsIndexPage(p: PageBase & { people: PersonRow[]; search: string }) {
  return (
    <ConsoleLayout title="Credentials" user={p.user} csrfToken={p.csrfToken} area="credentials" agencyAdmin notice={p.notice ?? null}>
      <p>API keys and OAuth clients act as their user, with that user's grants. Choose whose credentials to manage.</p>
      <PeopleSearch action={CREDENTIALS_PATH} search={p.search} />
      <ul class="usa-list">
        {p.people.map((u) => <li key={u.id}><a href={credentialsPath(u.id)}>{u.name}</a> ({u.email}){u.disabled ? ', disabled' : ''}</li>)}
      </ul>
      {p.people.length === 0 ? <p>Nobody matches.</p> : null}
    </ConsoleLayout>
  );
}

function Secret(p: { secret: NewSecret }) {
  const s = p.secret;
  return (
    <div class="usa-alert usa-alert--warning"><div class="usa-alert__body">
      <h2 class="usa-alert__heading">{s.kind === 'key' ? `The new API key "${s.name}"` : `The new OAuth client "${s.name}"`}</h2>
      <p class="usa-alert__text">Copy it now: it is shown this once only and is not stored.</p>
      {s.kind === 'key' ? (
        <p><label for="new-key">API key</label> <input class="usa-input" id="new-key" readonly value={s.key} /></p>
      ) : (
        <>
          <p><label for="new-client-id">Client id</label> <input class="usa-input" id="new-client-id" readonly value={s.id} /></p>
          <p><label for="new-client-secret">Client secret</label> <input class="usa-input" id="new-client-secret" readonly value={s.secret} /></p>
        </>
      )}
    </div></div>
  );
}

function RevokeForm(p: { action: string; field: string; id: string; label: string; csrfToken: string }) {
  return (
    <form method="post" action={p.action}>
      <input type="hidden" name="_csrf" value={p.csrfToken} />
      <input type="hidden" name={p.field} value={p.id} />
      <button class="usa-button usa-button--secondary" type="submit">{p.label}</button>
    </form>
  );
}

function CreateForm(p: { action: string; id: string; label: string; button: string; csrfToken: string }) {
  return (
    <form method="post" action={p.action} class="usa-form">
      <input type="hidden" name="_csrf" value={p.csrfToken} />
      <label class="usa-label" for={p.id}>{p.label}</label>
      <input class="usa-input" id={p.id} name="Name" required maxlength={200} autocomplete="off" />
      <button class="usa-button" type="submit">{p.button}</button>
    </form>
  );
}

/** One user's API keys and OAuth clients: created (the secret shown once), listed with their last use, revoked. */
export function UserCredentialsPage(p: PageBase & { credentials: UserCredentials; created?: NewSecret | null }) {
  const { user, keys, clients } = p.credentials;
  const path = credentialsPath(user.id);
  return (
    <ConsoleLayout title={`Credentials of ${user.name}`} user={p.user} csrfToken={p.csrfToken} area="credentials" agencyAdmin notice={p.notice ?? null}>
      <p><a href={CREDENTIALS_PATH}>All people</a> · {user.email}{user.disabled ? ' (disabled: its credentials do not work)' : ''}</p>
      {p.created ? <Secret secret={p.created} /> : null}
      <h2>API keys</h2>
      <table class="usa-table usa-table--borderless">
        <caption>API keys of {user.name}</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">State</th></tr></thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k.id}>
              <th scope="row">{k.name}</th><td>{k.id}</td><td>{formatDateTime(k.createdAt, p.timeZone)}</td><td>{when(k.lastUsedAt, p.timeZone)}</td>
              <td>{k.revokedAt === null ? <RevokeForm action={`${path}/Keys/Revoke`} field="KeyId" id={k.id} label={`Revoke key ${k.name} (${k.id})`} csrfToken={p.csrfToken} /> : `Revoked ${formatDateTime(k.revokedAt, p.timeZone)}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {keys.length === 0 ? <p>No API keys.</p> : null}
      <CreateForm action={`${path}/Keys`} id="key-name" label="Name of a new API key" button="Create API key" csrfToken={p.csrfToken} />
      <h2>OAuth clients</h2>
      <table class="usa-table usa-table--borderless">
        <caption>OAuth clients of {user.name}</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Client id</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">State</th></tr></thead>
        <tbody>
          {clients.map((c) => (
            <tr key={c.id}>
              <th scope="row">{c.name}</th><td>{c.id}</td><td>{formatDateTime(c.createdAt, p.timeZone)}</td><td>{when(c.lastUsedAt, p.timeZone)}</td>
              <td>{c.revokedAt === null ? <RevokeForm action={`${path}/Clients/Revoke`} field="ClientId" id={c.id} label={`Revoke client ${c.name} (${c.id})`} csrfToken={p.csrfToken} /> : `Revoked ${formatDateTime(c.revokedAt, p.timeZone)}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {clients.length === 0 ? <p>No OAuth clients.</p> : null}
      <CreateForm action={`${path}/Clients`} id="client-name" label="Name of a new OAuth client" button="Create OAuth client" csrfToken={p.csrfToken} />
    </ConsoleLayout>
  );
}
