import { ACCOUNT_PATHS } from '../../domain/accounts/self-service-accounts.ts';
import { ErrorSummary, type FormProblem } from '../components/error-summary.tsx';
import { Layout } from '../layout.tsx';

/** The sign-up form of one program: what was typed so far (never the password) and what was wrong with it. */
export interface SignUpPageProps { programRef: string; programName: string; name: string; email: string; problems: FormProblem[]; csrfToken: string }

/** Sign-up for a program: name and e-mail; the password is chosen on the page the mailed confirmation link opens. */
export function SignUpPage(p: SignUpPageProps) {
  return (
    <Layout title="Create an account" programName={p.programName}>
      <h1>Create an account</h1>
      <p>To apply to {p.programName}, create an account. We send a link to your e-mail address; open it to confirm the address and choose your password.</p>
      <ErrorSummary title="Your account could not be created" problems={p.problems} />
      <form class="usa-form usa-form--large" method="post" action={`${ACCOUNT_PATHS.signUp}?${new URLSearchParams({ ProgramId: p.programRef }).toString()}`} novalidate>
        <input type="hidden" name="_csrf" value={p.csrfToken} />
        <div class="usa-form-group">
          <label class="usa-label" for="name">Full name</label>
          <input class="usa-input" type="text" id="name" name="name" autocomplete="name" required maxLength={200} value={p.name} />
        </div>
        <div class="usa-form-group">
          <label class="usa-label" for="email">E-mail address</label>
          <input class="usa-input" type="email" id="email" name="email" autocomplete="email" required value={p.email} />
        </div>
        <button class="usa-button" type="submit">Create account</button>
      </form>
      <p>Already have an account? <a href={ACCOUNT_PATHS.signIn}>Sign in</a>.</p>
    </Layout>
  );
}

/** A page that only tells something, with an optional link onwards (the answers that must not differ between addresses). */
export function NoticePage(p: { title: string; lines: string[]; link?: { href: string; text: string } }) {
  return (
    <Layout title={p.title}>
      <h1>{p.title}</h1>
      {p.lines.map((line) => <p key={line}>{line}</p>)}
      {p.link ? <p><a href={p.link.href}>{p.link.text}</a></p> : null}
    </Layout>
  );
}

/**
 * The confirmation step: the mailed link opens this page, where the mailbox's holder chooses the password and a button
 * confirms (a button, so a link scanner cannot use the link up).
 */
export function ConfirmPage(p: { token: string; problems: FormProblem[]; csrfToken: string }) {
  return (
    <Layout title="Confirm your e-mail address">
      <h1>Confirm your e-mail address</h1>
      <p>Choose the password for your account to activate it.</p>
      <ErrorSummary title="Your account was not activated" problems={p.problems} />
      <form class="usa-form usa-form--large" method="post" action={ACCOUNT_PATHS.confirm} novalidate>
        <input type="hidden" name="_csrf" value={p.csrfToken} />
        <input type="hidden" name="token" value={p.token} />
        <div class="usa-form-group">
          <label class="usa-label" for="password">Password</label>
          <p class="usa-hint" id="password-hint">At least 12 characters.</p>
          <input class="usa-input" type="password" id="password" name="password" autocomplete="new-password" required minLength={12} aria-describedby="password-hint" />
        </div>
        <button class="usa-button" type="submit">Confirm and activate my account</button>
      </form>
    </Layout>
  );
}

/** The form that asks for a reset link. */
export function ForgotPasswordPage(p: { email: string; problems: FormProblem[]; csrfToken: string }) {
  return (
    <Layout title="Forgot your password?">
      <h1>Forgot your password?</h1>
      <p>Enter the e-mail address of your account. If it has one, we send it a link to choose a new password.</p>
      <ErrorSummary title="There is a problem" problems={p.problems} />
      <form class="usa-form usa-form--large" method="post" action={ACCOUNT_PATHS.forgot} novalidate>
        <input type="hidden" name="_csrf" value={p.csrfToken} />
        <div class="usa-form-group">
          <label class="usa-label" for="email">E-mail address</label>
          <input class="usa-input" type="email" id="email" name="email" autocomplete="email" required value={p.email} />
        </div>
        <button class="usa-button" type="submit">Send me a link</button>
      </form>
    </Layout>
  );
}

/** The form a reset link opens: the new password (the token rides along hidden). */
export function ResetPasswordPage(p: { token: string; problems: FormProblem[]; csrfToken: string }) {
  return (
    <Layout title="Choose a new password">
      <h1>Choose a new password</h1>
      <ErrorSummary title="The password was not changed" problems={p.problems} />
      <form class="usa-form usa-form--large" method="post" action={ACCOUNT_PATHS.reset} novalidate>
        <input type="hidden" name="_csrf" value={p.csrfToken} />
        <input type="hidden" name="token" value={p.token} />
        <div class="usa-form-group">
          <label class="usa-label" for="password">New password</label>
          <p class="usa-hint" id="password-hint">At least 12 characters.</p>
          <input class="usa-input" type="password" id="password" name="password" autocomplete="new-password" required minLength={12} aria-describedby="password-hint" />
        </div>
        <button class="usa-button" type="submit">Set new password</button>
      </form>
    </Layout>
  );
}
