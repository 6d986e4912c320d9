import type { DeliveryLogPage } from '../../domain/administration/webhook-console-service.ts';
import type { WebhookSubscriptionView } from '../../domain/webhooks/webhook-service.ts';
import { EventTypeBoxes } from '../components/event-type-boxes.tsx';
import type { WebhookDelivery } from '../../model/webhook.ts';
import { formatDateTime, isoDateTime } from '../format-time.ts';
import type { PageUser } from '../layout.tsx';
import { ConsoleErrorAlert } from './console-error-alert.tsx';
import { ConsoleLayout } from './console-layout.tsx';
import { ConsolePager } from './console-pager.tsx';
import { consoleArea } from './console-paths.ts';

/** The Webhooks area's address. */
export const WEBHOOKS_PATH = consoleArea('webhooks').path;

/** A subscription's page (its actions and delivery log). */
export function subscriptionPath(programId: string, subscriptionId: string, cursor?: string | null): string {
  const q = new URLSearchParams({ ProgramId: programId, SubscriptionId: subscriptionId, ...(cursor ? { cursor } : {}) });
  return `${WEBHOOKS_PATH}/Subscription?${q}`;
}

/** What every webhooks page shows around its content. */
export interface WebhooksPageBase { user: PageUser; csrfToken: string; agencyAdmin: boolean; timeZone: string; notice?: string | null; refusal?: string | null }

function Hidden(p: { csrfToken: string; fields: Record<string, string> }) {
  return (
    <>
      <input type="hidden" name="_csrf" value={p.csrfToken} />
      {Object.entries(p.fields).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
    </>
  );
}

// The secret of a new subscription or a rotation, shown this once.
function SecretBox(p: { secret: string; rotated: boolean }) {
  return (
    <section class="usa-summary-box" aria-labelledby="secret-heading">
      <div class="usa-summary-box__body">
        <h2 class="usa-summary-box__heading" id="secret-heading">{p.rotated ? 'The new signing secret' : 'The signing secret'}</h2>
        <p>Copy it now: it is not shown again. The receiver verifies each delivery's <code>webhook-signature</code> with it (Standard Webhooks).</p>
        <label class="usa-label" for="webhook-secret">Signing secret</label>
        <input class="usa-input" id="webhook-secret" readonly value={p.secret} size={60} />
      </div>
    </section>
  );
}

function state(s: WebhookSubscriptionView): string {
  return s.enabled ? 'Enabled' : `Disabled${s.disabledReason ? `: ${s.disabledReason}` : ''}`;
}

/** What the subscriptions page shows. */
export interface WebhooksPageProps extends WebhooksPageBase {
  programs: { id: string; name: string }[];
  /** The program shown; null when the caller manages no program's webhooks. */
  program: { id: string; name: string } | null;
  subscriptions: WebhookSubscriptionView[];
  created?: { secret: string; subscription: WebhookSubscriptionView } | null;
}

/** Webhooks: a program's subscriptions, and a form to subscribe a new receiver. */
export function WebhooksPage(p: WebhooksPageProps) {
  return (
    <ConsoleLayout title="Webhooks" user={p.user} csrfToken={p.csrfToken} area="webhooks" agencyAdmin={p.agencyAdmin} notice={p.notice}>
      <ConsoleErrorAlert message={p.refusal} />
      {p.created ? <SecretBox secret={p.created.secret} rotated={false} /> : null}
      {p.programs.length > 1 ? (
        <nav aria-label="Programs">
          <ul class="usa-button-group">
            {p.programs.map((x) => (
              <li class="usa-button-group__item" key={x.id}>
                <a class={`usa-button${x.id === p.program?.id ? '' : ' usa-button--outline'}`} href={`${WEBHOOKS_PATH}?ProgramId=${encodeURIComponent(x.id)}`} aria-current={x.id === p.program?.id ? 'page' : undefined}>{x.name}</a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {p.program === null ? <p>You manage the webhooks of no program.</p> : (
        <>
          <h2>Subscriptions of {p.program.name}</h2>
          {p.subscriptions.length === 0 ? <p>No receiver is subscribed to this program's events.</p> : (
            <table class="usa-table usa-table--borderless">
              <caption>Webhook subscriptions of {p.program.name}</caption>
              <thead><tr><th scope="col">Receiver</th><th scope="col">Event types</th><th scope="col">State</th><th scope="col">Created</th></tr></thead>
              <tbody>
                {p.subscriptions.map((s) => (
                  <tr key={s.id}>
                    <th scope="row"><a href={subscriptionPath(p.program!.id, s.id)}>{s.url}</a></th>
                    <td>{s.eventTypes.length === 0 ? 'every type' : s.eventTypes.join(', ')}</td>
                    <td>{state(s)}</td>
                    <td><time datetime={isoDateTime(s.createdAt)}>{formatDateTime(s.createdAt, p.timeZone)}</time>{s.createdBy ? ` by ${s.createdBy}` : ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h2>Subscribe a receiver</h2>
          <form class="usa-form usa-form--large" method="post" action={`${WEBHOOKS_PATH}/Create`}>
            <Hidden csrfToken={p.csrfToken} fields={{ ProgramId: p.program.id }} />
            <label class="usa-label" for="webhook-url">Receiver URL</label>
            <span class="usa-hint" id="webhook-url-hint">An https address on the public internet; deliveries are signed with the secret shown once.</span>
            <input class="usa-input" id="webhook-url" name="Url" type="url" required maxlength={2000} aria-describedby="webhook-url-hint" />
            <EventTypeBoxes idPrefix="new" chosen={[]} />
            <button class="usa-button" type="submit">Create subscription</button>
          </form>
        </>
      )}
    </ConsoleLayout>
  );
}

function deliveryState(d: WebhookDelivery): string {
  if (d.status === 'delivered') return 'delivered';
  if (d.status === 'failed') return 'failed';
  return d.attempts === 0 ? 'pending' : 'retrying';
}

/** What a subscription's page shows. */
export interface SubscriptionPageProps extends WebhooksPageBase {
  log: DeliveryLogPage;
  rotated?: string | null;
  /** True on a later page of the log: a link back to the newest. */
  older: boolean;
}

function Action(p: { csrfToken: string; action: string; fields: Record<string, string>; label: string; secondary?: boolean }) {
  return (
    <form method="post" action={`${WEBHOOKS_PATH}/${p.action}`} class="display-inline-block margin-right-1">
      <Hidden csrfToken={p.csrfToken} fields={p.fields} />
      <button class={`usa-button${p.secondary ? ' usa-button--secondary' : ''}`} type="submit">{p.label}</button>
    </form>
  );
}

/** One subscription: its state, its actions (test event, filters, enable/disable, rotate, delete) and its delivery log. */
export function SubscriptionPage(p: SubscriptionPageProps) {
  const { program, subscription: s } = p.log;
  const ids = { ProgramId: program.id, SubscriptionId: s.id };
  return (
    <ConsoleLayout title={`Webhook to ${s.url}`} user={p.user} csrfToken={p.csrfToken} area="webhooks" agencyAdmin={p.agencyAdmin} notice={p.notice}>
      <ConsoleErrorAlert message={p.refusal} />
      {p.rotated ? <SecretBox secret={p.rotated} rotated /> : null}
      <p><a href={`${WEBHOOKS_PATH}?ProgramId=${encodeURIComponent(program.id)}`}>All subscriptions of {program.name}</a></p>
      <ul class="usa-list">
        <li>State: {state(s)}</li>
        <li>Event types: {s.eventTypes.length === 0 ? 'every type' : s.eventTypes.join(', ')}</li>
        <li>Failed attempts since the last success: {s.consecutiveFailures}</li>
        {s.previousSecretUntil !== null ? <li>The replaced secret signs too until <time datetime={isoDateTime(s.previousSecretUntil)}>{formatDateTime(s.previousSecretUntil, p.timeZone)}</time></li> : null}
      </ul>
      <div>
        {s.enabled ? <Action csrfToken={p.csrfToken} action="Test" fields={ids} label="Send a test event" /> : null}
        <Action csrfToken={p.csrfToken} action={s.enabled ? 'Disable' : 'Enable'} fields={ids} label={s.enabled ? 'Disable' : 'Enable'} secondary={s.enabled} />
      </div>
      <h2>Event types</h2>
      <form class="usa-form" method="post" action={`${WEBHOOKS_PATH}/EventTypes`}>
        <Hidden csrfToken={p.csrfToken} fields={ids} />
        <EventTypeBoxes idPrefix="edit" chosen={s.eventTypes} />
        <button class="usa-button" type="submit">Save event types</button>
      </form>
      <h2>Signing secret</h2>
      <form class="usa-form" method="post" action={`${WEBHOOKS_PATH}/RotateSecret`}>
        <Hidden csrfToken={p.csrfToken} fields={ids} />
        <label class="usa-label" for="grace-hours">Hours the old secret still signs (0 to 168)</label>
        <input class="usa-input usa-input--small" id="grace-hours" name="GraceHours" type="number" min={0} max={168} value="24" required />
        <button class="usa-button" type="submit">Rotate secret</button>
      </form>
      <h2>Delivery log</h2>
      {p.log.deliveries.some((d) => d.status === 'failed') ? <Action csrfToken={p.csrfToken} action="RedeliverFailed" fields={ids} label="Send the failed deliveries again" secondary /> : null}
      {p.log.deliveries.length === 0 ? <p>{p.older ? 'No older deliveries.' : 'Nothing was sent to this receiver yet.'}</p> : (
        <table class="usa-table usa-table--borderless">
          <caption>Deliveries, newest first</caption>
          <thead><tr><th scope="col">Made</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th><th scope="col">Action</th></tr></thead>
          <tbody>
            {p.log.deliveries.map((d) => (
              <tr key={d.id}>
                <td><time datetime={isoDateTime(d.createdAt)}>{formatDateTime(d.createdAt, p.timeZone)}</time></td>
                <td>{d.eventType}{d.redeliveryOf ? ' (sent again)' : ''}<br /><span class="text-base">{d.eventId}</span></td>
                <td><span class="usa-tag">{deliveryState(d)}</span></td>
                <td>{d.attempts}</td>
                <td>{d.lastStatusCode !== null ? `HTTP ${d.lastStatusCode}` : ''}{d.lastError ? ` ${d.lastError}` : ''}</td>
                <td>{d.status === 'pending' ? null : <Action csrfToken={p.csrfToken} action="Redeliver" fields={{ ...ids, DeliveryId: d.id }} label="Send again" secondary />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ConsolePager label="Delivery log pages" noun="deliveries" newest={p.older ? subscriptionPath(program.id, s.id) : null} older={p.log.nextCursor ? subscriptionPath(program.id, s.id, p.log.nextCursor) : null} />
      <h2>Delete</h2>
      <form method="post" action={`${WEBHOOKS_PATH}/Delete`}>
        <Hidden csrfToken={p.csrfToken} fields={ids} />
        <button class="usa-button usa-button--secondary" type="submit">Delete subscription</button>
      </form>
    </ConsoleLayout>
  );
}
