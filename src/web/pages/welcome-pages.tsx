import { ACCOUNT_PATHS } from '../../domain/accounts/self-service-accounts.ts';
import { ErrorSummary, type FormProblem } from '../components/error-summary.tsx';
import { Layout, type PageUser } from '../layout.tsx';

/** The page an invitation's link opens: the invited user chooses the password (the token rides along hidden). */
export function WelcomePage(p: { token: string; email: string; problems: FormProblem[]; csrfToken: string }) {
  return (
    <Layout title="Welcome: choose your password">
      <h1>Welcome</h1>
      <p>You were invited with the address <strong>{p.email}</strong>. Choose the password of your account.</p>
      <ErrorSummary title="Your password was not set" problems={p.problems} />
      <form method="post" action={ACCOUNT_PATHS.welcome} class="usa-form" novalidate>
        <input type="hidden" name="_csrf" value={p.csrfToken} />
        <input type="hidden" name="token" value={p.token} />
        <div class="field">
          <label class="usa-label" for="password">Password</label>
          <p class="hint usa-hint" id="password-hint">At least 12 characters.</p>
          <input class="usa-input" type="password" id="password" name="password" autocomplete="new-password" required minLength={12} aria-describedby="password-hint" />
        </div>
        <button class="usa-button" type="submit">Set my password</button>
      </form>
    </Layout>
  );
}

/** What the enrolment page shows: a new secret as a QR code (an SVG data: image, which the pages' CSP allows) and as text. */
export interface MfaEnrolmentProps { user: PageUser; csrfToken: string; secret: string; qrDataUri: string; problems: FormProblem[] }

/** Enrolment in multi-factor authentication: scan the code (or type the secret) into an app, then confirm with a code. */
export function MfaEnrolmentPage(p: MfaEnrolmentProps) {
  return (
    <Layout title="Set up multi-factor authentication" user={p.user} csrfToken={p.csrfToken}>
      <h1>Set up multi-factor authentication</h1>
      <p>Protect your account with a second step at sign-in: a 6-digit code from an authenticator app on your phone.</p>
      <ErrorSummary title="Multi-factor authentication was not set up" problems={p.problems} />
      <ol class="usa-process-list">
        <li class="usa-process-list__item">
          <h2 class="usa-process-list__heading">Scan this QR code with your authenticator app</h2>
          <img src={p.qrDataUri} width={200} height={200} alt="QR code of your multi-factor authentication secret" />
          <p>Or type this secret into the app: <code id="mfa-secret">{p.secret}</code></p>
        </li>
        <li class="usa-process-list__item">
          <h2 class="usa-process-list__heading">Type the code the app shows</h2>
          <form method="post" action={ACCOUNT_PATHS.mfa} class="usa-form" novalidate>
            <input type="hidden" name="_csrf" value={p.csrfToken} />
            <input type="hidden" name="secret" value={p.secret} />
            <label class="usa-label" for="code">6-digit code</label>
            <input class="usa-input" id="code" name="code" inputMode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required />
            <button class="usa-button" type="submit">Turn on multi-factor authentication</button>
          </form>
        </li>
      </ol>
      <p><a href="/MvcProjects/">Not now</a></p>
    </Layout>
  );
}
