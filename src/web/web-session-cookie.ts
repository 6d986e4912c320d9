import { WEB_SESSION_MINUTES } from '../domain/accounts/auth-service.ts';

/** The name of the cookie that carries a web session (the second factor of MFA users on the web pages). */
export const WEB_SESSION_COOKIE = 'apas_mfa';

/** Only the web pages get the cookie back; the API never reads it. */
const COOKIE_PATH = '/MvcProjects';

/**
 * The Set-Cookie value of a new web session: HttpOnly (no script reads it), SameSite=Lax (another site can make
 * the browser send it only when following a link, whose GET changes nothing; the reply POST also checks its
 * Origin), limited to the web pages' path, for the session's lifetime, and Secure when the service is reached over
 * HTTPS. Lax rather than Strict because landing-page links arrive in e-mails.
 */
export function webSessionSetCookie(value: string, publicUrl: string): string {
  const secure = new URL(publicUrl).protocol === 'https:' ? '; Secure' : '';
  return `${WEB_SESSION_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${WEB_SESSION_MINUTES * 60}; HttpOnly; SameSite=Lax${secure}`;
}
