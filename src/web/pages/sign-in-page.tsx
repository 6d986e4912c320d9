import { ACCOUNT_PATHS } from '../../domain/accounts/self-service-accounts.ts';
import { ErrorSummary } from '../components/error-summary.tsx';
import { Layout, type PageUser } from '../layout.tsx';

/**
 * What the sign-in page shows: the address to go on to, the e-mail typed so far, why the last try failed, and whether
 * passwords can be reset by mail here (only with mail on; otherwise the page says whom to ask instead of linking).
 */
export interface SignInPageProps {
  next: string; email: string; error: string | null; csrfToken: string; resetByMail: boolean;
  /** The agencies offering staff single sign-on: one "Sign in with <label>" link each (none: no such section). */
  providers?: { agencyId: string; label: string }[];
}

/** Where a "Sign in with <provider>" link starts the agency's single sign-on. */
export function signOnStartPath(agencyId: string, next: string): string {
  return `/MvcProjects/SignIn/Sso/${encodeURIComponent(agencyId)}?next=${encodeURIComponent(next)}`;
}

/** What the sign-in page shows a browser that is signed in already. */
export interface SignedInAlreadyProps { user: PageUser; next: string; csrfToken: string }

/**
 * The sign-in page of a browser that holds a session already (perhaps one planted by someone else): who it is signed
 * in as, a link on as that person, and a form (no script needed) that signs out and comes back to sign in anew.
 */
export function SignedInAlreadyPage(p: SignedInAlreadyProps) {
  return (
    <Layout title="Sign in">
      <h1>You are signed in already</h1>
      <p>This browser is signed in as <strong>{p.user.name}</strong> ({p.user.email}).</p>
      <p><a href={p.next}>Continue as {p.user.name}</a></p>
      <form method="post" action="/MvcProjects/SignOut">
        <input type="hidden" name="_csrf" value={p.csrfToken} />
        <input type="hidden" name="next" value={p.next} />
        <input type="hidden" name="after" value="sign-in" />
        <p>Not you, or want to use another account?</p>
        <button class="usa-button" type="submit">Sign out and sign in as someone else</button>
      </form>
    </Layout>
  );
}

/** The sign-in form: e-mail and password; a failure is announced above the form and linked to the first field. */
export function SignInPage(p: SignInPageProps) {
  return (
    <Layout title="Sign in">
      <h1>Sign in</h1>
      <ErrorSummary title="You could not be signed in" problems={p.error ? [{ message: p.error, fieldId: 'email' }] : []} />
      <form class="usa-form usa-form--large" method="post" action="/MvcProjects/SignIn" novalidate>
        <input type="hidden" name="_csrf" value={p.csrfToken} />
        <input type="hidden" name="next" value={p.next} />
        <div class="usa-form-group">
          <label class="usa-label" for="email">E-mail address</label>
          <input class="usa-input" type="email" id="email" name="email" autocomplete="username" required value={p.email} />
        </div>
        <div class="usa-form-group">
          <label class="usa-label" for="password">Password</label>
          <input class="usa-input" type="password" id="password" name="password" autocomplete="current-password" required />
        </div>
        <button class="usa-button" type="submit">Sign in</button>
      </form>
      {p.providers && p.providers.length > 0 ? (
        <section aria-labelledby="sign-on-heading">
          <h2 id="sign-on-heading">Agency staff</h2>
          <ul class="usa-button-group">
            {p.providers.map((x) => (
              <li class="usa-button-group__item" key={x.agencyId}>
                <a class="usa-button usa-button--outline" href={signOnStartPath(x.agencyId, p.next)}>Sign in with {x.label}</a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {p.resetByMail
        ? <p><a href={ACCOUNT_PATHS.forgot}>Forgot your password?</a></p>
        : <p>Forgot your password? Ask the agency's staff to set a new one for you.</p>}
    </Layout>
  );
}

/** What the code step shows. */
export interface CodePageProps { next: string; error: string | null; csrfToken: string }

/** The second step for users enrolled in MFA: the current code of their authenticator app. */
export function CodePage(p: CodePageProps) {
  return (
    <Layout title="Enter your one-time code">
      <h1>Enter your one-time code</h1>
      <ErrorSummary title="The code was not accepted" problems={p.error ? [{ message: p.error, fieldId: 'code' }] : []} />
      <form class="usa-form usa-form--large" method="post" action="/MvcProjects/SignIn/Code" novalidate>
        <input type="hidden" name="_csrf" value={p.csrfToken} />
        <input type="hidden" name="next" value={p.next} />
        <div class="usa-form-group">
          <label class="usa-label" for="code">One-time code</label>
          <p class="usa-hint" id="code-hint">The 6-digit code your authenticator app shows now.</p>
          <input class="usa-input" type="text" id="code" name="code" inputMode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxLength={6}
            aria-describedby="code-hint" required />
        </div>
        <button class="usa-button" type="submit">Continue</button>
      </form>
    </Layout>
  );
}

/** What the page of a refused single sign-on shows. */
export interface SignOnRefusedProps { message: string }

/** A single sign-on that did not sign anyone in: why, and the way back to the sign-in page. */
export function SignOnRefusedPage(p: SignOnRefusedProps) {
  return (
    <Layout title="Single sign-on did not sign you in">
      <h1>Single sign-on did not sign you in</h1>
      <div class="usa-alert usa-alert--error" role="alert">
        <div class="usa-alert__body"><p class="usa-alert__text">{p.message}</p></div>
      </div>
      <p><a href="/MvcProjects/SignIn">Back to the sign-in page</a></p>
    </Layout>
  );
}
