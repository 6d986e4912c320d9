import type { OwnCredentialsView } from '../../domain/accounts/own-credentials-service.ts';
import type { OwnSubscriptionView, OwnWebhooksView } from '../../domain/webhooks/own-webhook-service.ts';
import type { WebhookDelivery } from '../../model/webhook.ts';
import { EventTypeBoxes } from '../components/event-type-boxes.tsx';
import { formatDateTime } from '../format-time.ts';
import { Layout, type PageUser } from '../layout.tsx';
import { MY_ACCOUNT_FORMS, MY_ACCOUNT_PATH, myWebhookPath } from '../web-paths.ts';

/** A secret just made, shown on this page only (never in an address or a log). */
export interface ShownSecret { label: string; value: string; note: string }

/** What the account page shows. */
export interface MyAccountPageProps {
  user: PageUser;
  csrfToken: string;
  timeZone: string;
  credentials: OwnCredentialsView;
  webhooks: OwnWebhooksView;
  notice?: string | null;
  /** Why a change was refused (nothing changed). */
  refusal?: string | null;
  secret?: ShownSecret | null;
}

// What the page says after a POST: the change made, why nothing was changed, or a secret shown this once.
function Messages(p: { notice: string | null; refusal: string | null; secret: ShownSecret | null }) {
  return (
    <>
      {p.notice ? <output class="usa-alert usa-alert--success usa-alert--slim display-block"><div class="usa-alert__body"><p class="usa-alert__text">{p.notice}</p></div></output> : null}
      {p.refusal ? (
        <div class="usa-alert usa-alert--error" role="alert"><div class="usa-alert__body"><h2 class="usa-alert__heading">Nothing was changed</h2><p class="usa-alert__text">{p.refusal}</p></div></div>
      ) : null}
      {p.secret ? (
        <section class="usa-alert usa-alert--warning" aria-labelledby="new-secret-heading">
          <div class="usa-alert__body">
            <h2 class="usa-alert__heading" id="new-secret-heading">Copy it now</h2>
            <p class="usa-alert__text">{p.secret.note}</p>
            <p><label class="usa-label" for="new-secret">{p.secret.label}</label> <input class="usa-input" id="new-secret" readonly value={p.secret.value} size={70} /></p>
          </div>
        </section>
      ) : null}
    </>
  );
}

function Hidden(p: { csrfToken: string; name?: string; value?: string }) {
  return (
    <>
      <input type="hidden" name="_csrf" value={p.csrfToken} />
      {p.name ? <input type="hidden" name={p.name} value={p.value} /> : null}
    </>
  );
}

function State(p: { revokedAt: number | null; timeZone: string }) {
  return p.revokedAt === null ? <span class="usa-tag">Active</span> : <>Revoked {formatDateTime(p.revokedAt, p.timeZone)}</>;
}

/** A table of keys or clients, each live one with its Revoke button. */
function CredentialTable(p: { caption: string; idLabel: string; rows: { id: string; name: string; createdAt: number; revokedAt: number | null }[]; action: string; field: string; csrfToken: string; timeZone: string }) {
  if (p.rows.length === 0) return <p>You have none.</p>;
  return (
    <table class="usa-table">
      <caption>{p.caption}</caption>
      <thead><tr><th scope="col">Name</th><th scope="col">{p.idLabel}</th><th scope="col">Created</th><th scope="col">State</th><th scope="col"><span class="usa-sr-only">Action</span></th></tr></thead>
      <tbody>
        {p.rows.map((r) => (
          <tr key={r.id}>
            <th scope="row">{r.name}</th>
            <td><code>{r.id}</code></td>
            <td>{formatDateTime(r.createdAt, p.timeZone)}</td>
            <td><State revokedAt={r.revokedAt} timeZone={p.timeZone} /></td>
            <td>
              {r.revokedAt === null ? (
                <form method="post" action={p.action}>
                  <Hidden csrfToken={p.csrfToken} name={p.field} value={r.id} />
                  <button type="submit" class="usa-button usa-button--secondary" aria-label={`Revoke ${r.name} (${r.id})`}>Revoke</button>
                </form>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function NameForm(p: { action: string; id: string; label: string; button: string; csrfToken: string }) {
  return (
    <form method="post" action={p.action} class="usa-form">
      <Hidden csrfToken={p.csrfToken} />
      <label class="usa-label" for={p.id}>{p.label}</label>
      <input class="usa-input" id={p.id} name="Name" required maxLength={200} />
      <button type="submit" class="usa-button">{p.button}</button>
    </form>
  );
}

function Subscriptions(p: { subscriptions: OwnSubscriptionView[]; csrfToken: string; timeZone: string }) {
  if (p.subscriptions.length === 0) return <p>You have no webhook subscriptions.</p>;
  return (
    <table class="usa-table">
      <caption>Your webhook subscriptions</caption>
      <thead><tr><th scope="col">Receiver</th><th scope="col">Program</th><th scope="col">Created</th><th scope="col">State</th><th scope="col"><span class="usa-sr-only">Action</span></th></tr></thead>
      <tbody>
        {p.subscriptions.map((s) => (
          <tr key={s.id}>
            <th scope="row"><a href={myWebhookPath(s.id)}>{s.url}</a></th>
            <td>{s.programName}</td>
            <td>{formatDateTime(s.createdAt, p.timeZone)}</td>
            <td>{s.enabled ? <span class="usa-tag">Enabled</span> : <>Disabled: {s.disabledReason}</>}</td>
            <td>
              <form method="post" action={MY_ACCOUNT_FORMS.deleteWebhook}>
                <Hidden csrfToken={p.csrfToken} name="SubscriptionId" value={s.id} />
                <button type="submit" class="usa-button usa-button--secondary" aria-label={`Delete the subscription of ${s.url}`}>Delete</button>
              </form>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The user's account page: their own API keys, OAuth clients and webhook subscriptions. The forms that make new ones
 * are offered only while the agency's policy allows them; revoking and deleting always are. A new secret is shown
 * once, here.
 */
export function MyAccountPage(p: MyAccountPageProps) {
  const { credentials: c, webhooks: w } = p;
  return (
    <Layout title="Your account" user={p.user} csrfToken={p.csrfToken} section="account">
      <h1>Your account</h1>
      <p>Signed in as {p.user.email}.</p>
      <Messages notice={p.notice ?? null} refusal={p.refusal ?? null} secret={p.secret ?? null} />

      <h2>API keys</h2>
      <p>
        A key of yours, sent with your e-mail address and password (or with an access token of one of your OAuth clients),
        lets a program use the interface as you: it reads and changes what you may, nothing more.
      </p>
      <CredentialTable caption="Your API keys" idLabel="Key id" rows={c.keys} action={MY_ACCOUNT_FORMS.revokeKey} field="KeyId" csrfToken={p.csrfToken} timeZone={p.timeZone} />
      {c.allowed
        ? <NameForm action={MY_ACCOUNT_FORMS.createKey} id="key-name" label="Name of a new API key" button="Create API key" csrfToken={p.csrfToken} />
        : <p>Your agency does not let users create their own API keys and OAuth clients; ask the agency for one.</p>}

      <h2>OAuth clients</h2>
      <p>A client gets access tokens with the client credentials grant; the tokens act as you. It needs one of your API keys too.</p>
      <CredentialTable caption="Your OAuth clients" idLabel="Client id" rows={c.clients} action={MY_ACCOUNT_FORMS.revokeClient} field="ClientId" csrfToken={p.csrfToken} timeZone={p.timeZone} />
      {c.allowed ? <NameForm action={MY_ACCOUNT_FORMS.createClient} id="client-name" label="Name of a new OAuth client" button="Create OAuth client" csrfToken={p.csrfToken} /> : null}

      <h2>Webhooks</h2>
      <p>
        A subscription posts the events of a program's projects that you can read to your receiver, signed with its secret
        (Standard Webhooks). A project handed to someone else is no longer sent to you.
      </p>
      <Subscriptions subscriptions={w.subscriptions} csrfToken={p.csrfToken} timeZone={p.timeZone} />
      {w.allowed && w.programs.length > 0 ? (
        <form method="post" action={MY_ACCOUNT_FORMS.createWebhook} class="usa-form usa-form--large">
          <Hidden csrfToken={p.csrfToken} />
          <label class="usa-label" for="webhook-program">Program</label>
          <select class="usa-select" id="webhook-program" name="ProgramId">
            {w.programs.map((x) => <option key={x.id} value={x.id}>{x.name}</option>)}
          </select>
          <label class="usa-label" for="webhook-url">Receiver address</label>
          <div class="usa-hint" id="webhook-url-hint">An https:// address that answers 2xx to each delivery.</div>
          <input class="usa-input" id="webhook-url" name="Url" type="url" required aria-describedby="webhook-url-hint" />
          <button type="submit" class="usa-button">Subscribe</button>
        </form>
      ) : null}
      {w.allowed ? null : <p>Your agency does not let users subscribe webhooks themselves{w.subscriptions.length > 0 ? '; your subscriptions are not sent anything while it is off' : ''}.</p>}
    </Layout>
  );
}

/** What one of the user's own subscriptions offers: its kinds of event, disable or enable, a new secret. */
export interface MyWebhookPageProps {
  user: PageUser; csrfToken: string; timeZone: string; subscription: OwnSubscriptionView; deliveries: WebhookDelivery[];
  notice?: string | null; refusal?: string | null; secret?: ShownSecret | null;
}

/** One of the user's own subscriptions: its settings and forms to change them, then its delivery log, newest first. */
export function MyWebhookPage(p: MyWebhookPageProps) {
  const s = p.subscription;
  const path = myWebhookPath(s.id);
  return (
    <Layout title="Webhook subscription" user={p.user} csrfToken={p.csrfToken} section="account">
      <h1>Webhook subscription</h1>
      <p>To {s.url}, for {s.programName}. <a href={MY_ACCOUNT_PATH}>Back to your account</a></p>
      <Messages notice={p.notice ?? null} refusal={p.refusal ?? null} secret={p.secret ?? null} />
      <p>{s.enabled ? <span class="usa-tag">Enabled</span> : <>Disabled{s.disabledReason ? `: ${s.disabledReason}` : ''}</>}</p>
      <form method="post" action={`${path}/${s.enabled ? 'Disable' : 'Enable'}`}>
        <Hidden csrfToken={p.csrfToken} />
        {s.enabled ? null : <p>Enabling again clears its failures and sends the deliveries that waited.</p>}
        <button class={s.enabled ? 'usa-button usa-button--outline' : 'usa-button'} type="submit">{s.enabled ? 'Disable this subscription' : 'Enable this subscription'}</button>
      </form>
      <form method="post" action={`${path}/Events`} class="usa-form">
        <Hidden csrfToken={p.csrfToken} />
        <EventTypeBoxes idPrefix="own" chosen={s.eventTypes} />
        <button class="usa-button" type="submit">Save the kinds of event</button>
      </form>
      <h2>Signing secret</h2>
      {s.previousSecretUntil !== null ? <p>Deliveries are also signed with the secret before the last one until {formatDateTime(s.previousSecretUntil, p.timeZone)}.</p> : null}
      <form method="post" action={`${path}/Rotate`} class="usa-form">
        <Hidden csrfToken={p.csrfToken} />
        <label class="usa-label" for="grace-hours">Keep signing with the current secret too for</label>
        <select class="usa-select" id="grace-hours" name="GraceHours">
          {[['0', 'no time: switch at once'], ['24', '24 hours'], ['72', '3 days'], ['168', '7 days']].map(([value, label]) => <option key={value} value={value} selected={value === '24'}>{label}</option>)}
        </select>
        <button class="usa-button usa-button--secondary" type="submit">Make a new signing secret</button>
      </form>
      <h2>Deliveries</h2>
      {p.deliveries.length === 0 ? <p>Nothing was sent yet.</p> : (
        <table class="usa-table">
          <caption>Latest deliveries</caption>
          <thead><tr><th scope="col">Event</th><th scope="col">Project</th><th scope="col">Made</th><th scope="col">State</th><th scope="col">Attempts</th><th scope="col">Last answer</th></tr></thead>
          <tbody>
            {p.deliveries.map((d) => (
              <tr key={d.id}>
                <th scope="row">{d.eventType}</th>
                <td><code>{d.projectId}</code></td>
                <td>{formatDateTime(d.createdAt, p.timeZone)}</td>
                <td>{d.status}</td>
                <td>{d.attempts}</td>
                <td>{d.lastError ?? (d.lastStatusCode === null ? '' : `HTTP ${d.lastStatusCode}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Layout>
  );
}
