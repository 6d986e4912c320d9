import type { ApiError, ErrorCode } from '../domain/api-error.ts';
import { ACCOUNT_PATHS } from '../domain/accounts/self-service-accounts.ts';
import { Layout } from './layout.tsx';
import { renderPage } from './render-page.ts';

/** Where the web pages live; an error on a path below it is answered as a page, not as XML. */
export const WEB_PREFIX = '/MvcProjects/';

/** The staff work queue's path prefix (the commercial product's), also answered with pages. */
export const QUEUE_PREFIX = '/Projects/';

/** The start page every error page leads back to: My projects, the work queues, or sign-in for nobody signed in. */
export const START_PATH = '/MvcProjects/';

/** True for a request of a web page, which is answered with an HTML page (and sign-in), not XML. */
export function isWebPath(url: string): boolean {
  return url.startsWith(WEB_PREFIX) || url.startsWith(QUEUE_PREFIX);
}

/** What an error page says: a heading, what happened and what to do, in words for the person at the browser. */
export interface ErrorPageText { title: string; lines: string[] }

const AGAIN = 'Go back to the previous page with your browser’s Back button, reload it, and try again.';

// Written for people, by code: the API's messages are for integrators and may name internal ids (of programs,
// projects, forms), so no page quotes them; what a person can do next matters more than the code.
const BY_CODE: Partial<Record<ErrorCode, ErrorPageText>> = {
  AUTHENTICATION_REQUIRED: { title: 'Please sign in', lines: ['Your sign-in has ended, or you are not signed in. Sign in and try again.'] },
  INVALID_CREDENTIALS: { title: 'Please sign in', lines: ['The e-mail address or password was not right. Sign in and try again.'] },
  MFA_REQUIRED: { title: 'Please sign in', lines: ['This page needs your one-time code as well. Sign in and try again.'] },
  MFA_INVALID: { title: 'Please sign in', lines: ['The one-time code was not accepted. Sign in and try again.'] },
  FORBIDDEN: { title: 'You cannot use this page', lines: ['Your account does not give you access to this page. If you think it should, ask the agency.'] },
  SENSITIVE_DATA_NOT_ALLOWED: { title: 'You cannot see these values', lines: ['Your account does not give you access to sensitive values. If you think it should, ask the agency.'] },
  NOT_FOUND: { title: 'Page not found', lines: ['There is no page at this address, or it is not available to you. Check the address, or start again from your start page.'] },
  METHOD_NOT_ALLOWED: { title: 'This page cannot be used this way', lines: ['This address is meant for a button on one of the pages, not to be opened directly.'] },
  REQUEST_TIMEOUT: { title: 'That took too long', lines: ['The request did not arrive in time, so nothing was changed.', AGAIN] },
  CONFLICT: { title: 'Someone else changed this at the same time', lines: ['Nothing was changed by your request.', AGAIN] },
  FORM_NOT_AVAILABLE: { title: 'This form cannot be filled in now', lines: ['The project’s status does not allow it at the moment. Nothing was changed.'] },
  TRANSITION_NOT_ALLOWED: { title: 'That step is not possible now', lines: ['The project’s status does not allow it at the moment. Nothing was changed.', AGAIN] },
  THREAD_CLOSED: { title: 'This conversation is closed', lines: ['Nothing was added to it. Start a new one, or ask the agency to reopen it.'] },
  PAYLOAD_TOO_LARGE: { title: 'What you sent is too large', lines: ['Nothing was changed. Send a smaller file or less text.'] },
  UNSUPPORTED_MEDIA_TYPE: { title: 'What you sent could not be read', lines: ['Nothing was changed.', AGAIN] },
  RATE_LIMITED: { title: 'Too many requests', lines: ['You have sent many requests in a short time. Wait a few minutes and try again.'] },
  SIGN_IN_LOCKED: { title: 'Too many attempts', lines: ['There were too many attempts in a short time. Wait a few minutes and try again.'] },
  INTERNAL_ERROR: { title: 'Something went wrong on our side', lines: ['The page could not be shown. The fault has been recorded; try again in a few minutes. If it keeps happening, tell the agency.'] },
  SERVICE_UNAVAILABLE: { title: 'The service is busy', lines: ['Nothing was changed. Try again in a moment.'] },
};

const FORM_EXPIRED: ErrorPageText = {
  title: 'This form has expired',
  lines: ['It was opened before you last signed in, or did not come from this site, so nothing was changed.', AGAIN],
};

function textOf(error: ApiError, cause: unknown): ErrorPageText {
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('FST_CSRF_')) return FORM_EXPIRED;
  const known = BY_CODE[error.code];
  if (known) return known;
  if (error.status >= 500) return BY_CODE.INTERNAL_ERROR!;
  return { title: 'This request could not be handled', lines: ['Something in the request was not as this page expects, so nothing was changed.', AGAIN] };
}

/**
 * The HTML page an error of a web page is answered with: the site's layout, what happened in plain words and the way
 * back to the start page. `cause` is what was thrown (it tells an expired form from other refusals).
 */
export function renderErrorPage(error: ApiError, cause?: unknown): string {
  const text = textOf(error, cause);
  const signIn = error.status === 401;
  return renderPage(
    <Layout title={text.title}>
      <h1>{text.title}</h1>
      {text.lines.map((line) => <p key={line}>{line}</p>)}
      <p>
        <a href={signIn ? ACCOUNT_PATHS.signIn : START_PATH}>{signIn ? 'Go to sign-in' : 'Go to your start page'}</a>
      </p>
      <p class="usa-hint">Error {error.status}</p>
    </Layout>,
  );
}
