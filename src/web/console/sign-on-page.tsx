import type { SignOnInput, SignOnView } from '../../domain/sign-on/sign-on-settings-service.ts';
import { SIGN_ON_DEFAULTS } from '../../domain/sign-on/sign-on-settings-service.ts';
import { ErrorSummary } from '../components/error-summary.tsx';
import type { PageUser } from '../layout.tsx';
import { ConsoleLayout } from './console-layout.tsx';
import { consoleArea } from './console-paths.ts';

/** What the Single sign-on page shows: the stored settings (never the secret), or what was typed when saving failed. */
export interface SignOnPageProps {
  user: PageUser;
  csrfToken: string;
  settings: SignOnView | null;
  /** The form as typed, when saving it was refused (the secret is never sent back). */
  typed?: Omit<SignOnInput, 'clientSecret'> | null;
  error?: string | null;
  notice?: string | null;
  /** Where the provider sends the browser back: to register with the provider. */
  callbackUrl: string;
}

function Field(p: { id: string; label: string; hint?: string; value: string; type?: 'text' | 'url' | 'password' }) {
  return (
    <div class="usa-form-group">
      <label class="usa-label" for={p.id}>{p.label}</label>
      {p.hint ? <div class="usa-hint" id={`${p.id}-hint`}>{p.hint}</div> : null}
      {p.type === 'password'
        ? <input class="usa-input" id={p.id} name={p.id} type="password" value="" autocomplete="new-password" aria-describedby={p.hint ? `${p.id}-hint` : undefined} />
        : <input class="usa-input" id={p.id} name={p.id} type="text" inputMode={p.type === 'url' ? 'url' : undefined} value={p.value} autocomplete="off"
          aria-describedby={p.hint ? `${p.id}-hint` : undefined} />}
    </div>
  );
}

function Check(p: { id: string; label: string; checked: boolean }) {
  return (
    <div class="usa-checkbox">
      <input class="usa-checkbox__input" id={p.id} name={p.id} type="checkbox" value="on" checked={p.checked} />
      <label class="usa-checkbox__label" for={p.id}>{p.label}</label>
    </div>
  );
}

/** The agency's OpenID Connect provider for staff: a form of every setting, and a button that turns it off. */
export function SignOnPage(p: SignOnPageProps) {
  const area = consoleArea('sign-on');
  const s = p.typed ?? (p.settings ? {
    label: p.settings.label, issuer: p.settings.issuer, clientId: p.settings.clientId, scopes: p.settings.scopes.join(' '),
    emailClaim: p.settings.emailClaim, groupsClaim: p.settings.groupsClaim, groupGrants: p.settings.groupGrantsText,
    allowPasswords: p.settings.allowPasswords, enabled: p.settings.enabled,
  } : null);
  return (
    <ConsoleLayout title="Single sign-on" user={p.user} csrfToken={p.csrfToken} area="sign-on" agencyAdmin notice={p.notice ?? null}>
      <ErrorSummary title="The settings were not saved" problems={p.error ? [{ message: p.error, fieldId: 'label' }] : []} />
      <div class="usa-summary-box">
        <div class="usa-summary-box__body">
          <h2 class="usa-summary-box__heading">{p.settings ? (p.settings.enabled ? 'Single sign-on is on' : 'Single sign-on is off') : 'Single sign-on is not set up'}</h2>
          <div class="usa-summary-box__text">
            <p>Staff sign in with your OpenID Connect provider; their groups there decide their access here, at every sign-in.</p>
            <p>Register this redirect address with the provider: <code>{p.callbackUrl}</code></p>
          </div>
        </div>
      </div>
      <form class="usa-form usa-form--large" method="post" action={area.path} novalidate>
        <input type="hidden" name="_csrf" value={p.csrfToken} />
        <Field id="label" label="Provider name" hint={'Shown on the sign-in page as "Sign in with …".'} value={s?.label ?? ''} />
        <Field id="issuer" label="Issuer URL" hint="The provider's issuer, e.g. https://login.microsoftonline.com/TENANT/v2.0." value={s?.issuer ?? ''} type="url" />
        <Field id="clientId" label="Client id" value={s?.clientId ?? ''} />
        <Field id="clientSecret" label="Client secret" type="password" value=""
          hint={p.settings ? 'Stored and never shown again; leave empty to keep it.' : 'Stored sealed; it is never shown again.'} />
        <Field id="scopes" label="Scopes" hint={`Separated by spaces; openid is always asked for. Default: ${SIGN_ON_DEFAULTS.scopes}.`} value={s?.scopes ?? SIGN_ON_DEFAULTS.scopes} />
        <Field id="emailClaim" label="E-mail claim" value={s?.emailClaim ?? SIGN_ON_DEFAULTS.emailClaim} />
        <Field id="groupsClaim" label="Groups claim" value={s?.groupsClaim ?? SIGN_ON_DEFAULTS.groupsClaim} />
        <div class="usa-form-group">
          <label class="usa-label" for="groupGrants">Groups and what they give</label>
          <div class="usa-hint" id="groupGrants-hint">One per line: <code>GROUP = admin</code> (agency admin) or <code>GROUP = PROGRAM ROLE</code>, with <code>sensitive</code> after it for sensitive data and <code>only NORTH,SOUTH</code> at the end to limit the grant to those access groups (without it, a grant keeps the limit set on it here).</div>
          <textarea class="usa-textarea" id="groupGrants" name="groupGrants" rows={6} aria-describedby="groupGrants-hint">{s?.groupGrants ?? ''}</textarea>
        </div>
        <fieldset class="usa-fieldset">
          <legend class="usa-legend">Options</legend>
          <Check id="allowPasswords" label="Staff may also sign in with a local password" checked={s?.allowPasswords ?? true} />
          <Check id="enabled" label="Offer single sign-on on the sign-in page" checked={s?.enabled ?? true} />
        </fieldset>
        <button class="usa-button" type="submit">Save</button>
      </form>
      {p.settings?.enabled ? (
        <form method="post" action={`${area.path}/Disable`}>
          <input type="hidden" name="_csrf" value={p.csrfToken} />
          <button class="usa-button usa-button--secondary" type="submit">Turn single sign-on off</button>
        </form>
      ) : null}
    </ConsoleLayout>
  );
}
