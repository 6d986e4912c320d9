import type { ConnectionsOverview } from '../../domain/administration/connection-console-service.ts';
import type { ConnectionSettingsView } from '../../domain/connections/connection-settings-service.ts';
import type { ConnectionAuth } from '../../model/connection.ts';
import type { Program } from '../../model/model.ts';
import { formatDateTime, isoDateTime } from '../format-time.ts';
import type { PageUser } from '../layout.tsx';
import { ConsoleErrorAlert } from './console-error-alert.tsx';
import { ConsoleLayout } from './console-layout.tsx';
import { consoleArea } from './console-paths.ts';

/** The Connections area's address. */
export const CONNECTIONS_PATH = consoleArea('connections').path;

/** The page of one program's connection (its settings form). */
export function connectionPath(programId: string, connectionId: string): string {
  return `${CONNECTIONS_PATH}/Edit?${new URLSearchParams({ ProgramId: programId, ConnectionId: connectionId })}`;
}

/** What every Connections page shows around its content. */
export interface ConnectionsPageBase { user: PageUser; csrfToken: string; agencyAdmin: boolean; timeZone: string; notice?: string | null }

const SIGN_IN: Record<ConnectionAuth['kind'], string> = {
  none: 'No sign-in', header: 'Secret header', oauth: 'OAuth client credentials', clientCert: 'Client certificate',
};

function Settings(p: { view: ConnectionSettingsView; timeZone: string }) {
  const { view } = p;
  if (view.url === null) return <>Not set: its calls wait and its lookups are unavailable</>;
  return (
    <>
      {view.url}<br />
      {SIGN_IN[view.auth ?? 'none']}{view.signIn.headerName ? ` ${view.signIn.headerName}` : ''}{view.signIn.clientId ? ` (client ${view.signIn.clientId})` : ''}{view.updatedAt === null ? null : <>, set on <time datetime={isoDateTime(view.updatedAt)}>{formatDateTime(view.updatedAt, p.timeZone)}</time></>}
    </>
  );
}

function programLabel(program: Program): string {
  return program.testOf === undefined ? program.name : `${program.name} (test copy)`;
}

function Hosts(p: { hosts: string[] }) {
  return p.hosts.length === 0
    ? <p>The agency allows no host yet: an operator adds one with <code>apas connection allow-host</code> before any address can be set.</p>
    : <p>Hosts the agency's connections may reach: {p.hosts.join(', ')} (an operator changes the list with <code>apas connection allow-host</code>).</p>;
}

/** What the Connections page shows. */
export interface ConnectionsPageProps extends ConnectionsPageBase { overview: ConnectionsOverview }

/** Connections: each administered program's declared connections (test copies too) with where they go; never a secret. */
export function ConnectionsPage(p: ConnectionsPageProps) {
  return (
    <ConsoleLayout title="Connections" user={p.user} csrfToken={p.csrfToken} area="connections" agencyAdmin={p.agencyAdmin} notice={p.notice}>
      <p>Where each program's connections to the agency's own systems go and how they sign in. Secrets are sealed when saved and never shown again.</p>
      <Hosts hosts={p.overview.hosts} />
      {p.overview.programs.length === 0 ? <p>No program you administer declares connections.</p> : p.overview.programs.map(({ program, connections }) => (
        <table class="usa-table usa-table--borderless" key={program.id}>
          <caption>Connections of {programLabel(program)}</caption>
          <thead><tr><th scope="col">Connection</th><th scope="col">Address and sign-in</th><th scope="col">Action</th></tr></thead>
          <tbody>
            {connections.map((v) => (
              <tr key={v.connectionId}>
                <th scope="row">{v.name} <span class="text-base">({v.connectionId})</span></th>
                <td><Settings view={v} timeZone={p.timeZone} /></td>
                <td><a href={connectionPath(program.id, v.connectionId)} aria-label={`Change ${v.name} of ${programLabel(program)}`}>Change</a></td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </ConsoleLayout>
  );
}

/** The non-secret values of the settings form, kept after a refusal (the secrets never are). */
export interface ConnectionForm { url: string; signIn: string; headerName: string; tokenUrl: string; clientId: string; scope: string }

/** A refusal of the form: the message and the setting at fault (a ConnectionSetting, 'signIn', or null for none in particular). */
export interface ConnectionRefusal { message: string; field: string | null }

/** The form's labels by setting, which a refusal names. */
export const SETTING_LABELS: Record<string, string> = {
  url: 'Address (URL)', signIn: 'Sign-in', headerName: 'Header name', headerSecret: 'Header secret', tokenUrl: 'Token URL',
  clientId: 'Client id', clientSecret: 'Client secret', clientCert: 'Sign-in', scope: 'Scope',
};

/** What a connection's page shows. */
export interface ConnectionPageProps extends ConnectionsPageBase {
  program: Program; view: ConnectionSettingsView; hosts: string[];
  form?: ConnectionForm | null; refusal?: ConnectionRefusal | null;
}

function formOf(view: ConnectionSettingsView): ConnectionForm {
  const { headerName, tokenUrl, clientId, scope } = view.signIn;
  return {
    url: view.url ?? '', signIn: view.auth === 'header' || view.auth === 'oauth' ? view.auth : 'none',
    headerName: headerName ?? '', tokenUrl: tokenUrl ?? '', clientId: clientId ?? '', scope: scope ?? '',
  };
}

// One text input of the form with its label, hint and (when the refusal names it) its error message.
function Field(p: { name: string; id: string; setting: string; value?: string; secret?: boolean; url?: boolean; hint?: string; refusal: ConnectionRefusal | null }) {
  const error = p.refusal?.field === p.setting ? p.refusal.message : null;
  const inputClass = `usa-input${error ? ' usa-input--error' : ''}`;
  const invalid = error ? 'true' : undefined;
  const described = [p.hint ? `${p.id}-hint` : null, error ? `${p.id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`usa-form-group${error ? ' usa-form-group--error' : ''}`}>
      <label class={`usa-label${error ? ' usa-label--error' : ''}`} for={p.id}>{SETTING_LABELS[p.setting]}</label>
      {p.hint ? <span class="usa-hint" id={`${p.id}-hint`}>{p.hint}</span> : null}
      {error ? <span class="usa-error-message" id={`${p.id}-error`} role="alert">{error}</span> : null}
      {p.secret
        ? <input class={inputClass} id={p.id} name={p.name} type="password" maxlength={2000} autocomplete="off" value="" aria-describedby={described} aria-invalid={invalid} />
        : <input class={inputClass} id={p.id} name={p.name} type="text" inputMode={p.url ? 'url' : undefined} spellcheck={false} maxlength={2000} autocomplete="off" value={p.value} aria-describedby={described} aria-invalid={invalid} />}
    </div>
  );
}

function Choice(p: { value: string; label: string; checked: boolean }) {
  return (
    <div class="usa-radio">
      <input class="usa-radio__input" id={`sign-in-${p.value}`} type="radio" name="SignIn" value={p.value} checked={p.checked} />
      <label class="usa-radio__label" for={`sign-in-${p.value}`}>{p.label}</label>
    </div>
  );
}

/** One connection: its settings, the form that sets the address and the sign-in, and the button that clears them. */
export function ConnectionPage(p: ConnectionPageProps) {
  const { program, view } = p;
  const form = p.form ?? formOf(view);
  const refusal = p.refusal ?? null;
  const hidden = (
    <>
      <input type="hidden" name="_csrf" value={p.csrfToken} />
      <input type="hidden" name="ProgramId" value={program.id} />
      <input type="hidden" name="ConnectionId" value={view.connectionId} />
    </>
  );
  return (
    <ConsoleLayout title={`Connection ${view.name}`} user={p.user} csrfToken={p.csrfToken} area="connections" agencyAdmin={p.agencyAdmin} notice={p.notice}>
      <ConsoleErrorAlert message={refusal ? `The connection was not saved. ${refusal.field ? `${SETTING_LABELS[refusal.field]}: ` : ''}${refusal.message}` : null} />
      <p><a href={CONNECTIONS_PATH}>All connections</a></p>
      <ul class="usa-list">
        <li>Program: {programLabel(program)}</li>
        <li>Connection: {view.name} ({view.connectionId})</li>
        <li>Now: <Settings view={view} timeZone={p.timeZone} /></li>
      </ul>
      <Hosts hosts={p.hosts} />
      <h2>Set the address and sign-in</h2>
      <form class="usa-form usa-form--large" method="post" action={`${CONNECTIONS_PATH}/Set`}>
        {hidden}
        <p>Saving replaces what is set; a secret must be entered again each time and is never shown after it is saved.</p>
        <Field name="Url" id="connection-url" setting="url" url value={form.url} refusal={refusal}
          hint="The full address the connection calls: https, on a host the agency allows." />
        <fieldset class={`usa-fieldset${refusal?.field === 'signIn' || refusal?.field === 'clientCert' ? ' usa-form-group--error' : ''}`}>
          <legend class="usa-legend">Sign-in</legend>
          <Choice value="none" label="No sign-in" checked={form.signIn === 'none'} />
          <Choice value="header" label="A secret header" checked={form.signIn === 'header'} />
          <Choice value="oauth" label="OAuth 2.0 client credentials" checked={form.signIn === 'oauth'} />
        </fieldset>
        <fieldset class="usa-fieldset">
          <legend class="usa-legend">A secret header</legend>
          <Field name="HeaderName" id="header-name" setting="headerName" value={form.headerName} refusal={refusal} hint="For example X-Api-Key." />
          <Field name="HeaderSecret" id="header-secret" setting="headerSecret" secret refusal={refusal} />
        </fieldset>
        <fieldset class="usa-fieldset">
          <legend class="usa-legend">OAuth 2.0 client credentials</legend>
          <Field name="TokenUrl" id="token-url" setting="tokenUrl" url value={form.tokenUrl} refusal={refusal} />
          <Field name="ClientId" id="client-id" setting="clientId" value={form.clientId} refusal={refusal} />
          <Field name="ClientSecret" id="client-secret" setting="clientSecret" secret refusal={refusal} />
          <Field name="Scope" id="scope" setting="scope" value={form.scope} refusal={refusal} hint="Optional." />
        </fieldset>
        {view.auth === 'clientCert' ? <p>This connection presents a client certificate, which only <code>apas connection set --client-cert</code> sets; saving here replaces it.</p> : null}
        <button class="usa-button" type="submit">Save connection</button>
      </form>
      {view.url === null ? null : (
        <>
          <h2>Clear</h2>
          <p>Without settings the connection's calls wait and its lookups are shown as unavailable.</p>
          <form method="post" action={`${CONNECTIONS_PATH}/Clear`}>
            {hidden}
            <button class="usa-button usa-button--secondary" type="submit">Clear settings</button>
          </form>
        </>
      )}
    </ConsoleLayout>
  );
}
