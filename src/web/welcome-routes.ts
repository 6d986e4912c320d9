import type { FastifyInstance, FastifyReply } from 'fastify';
import QRCode from 'qrcode';
import { newTotpSecret, otpauthUri } from '../domain/accounts/mfa.ts';
import { ACCOUNT_PATHS } from '../domain/accounts/self-service-accounts.ts';
import { ApiError } from '../domain/api-error.ts';
import type { FormProblem } from './components/error-summary.tsx';
import { formField } from './form-field.ts';
import { csrfToken } from './csrf.ts';
import { NoticePage } from './pages/account-pages.tsx';
import { MfaEnrolmentPage, WelcomePage } from './pages/welcome-pages.tsx';
import { renderPage } from './render-page.ts';
import type { WebAppDeps } from './web-app-deps.ts';
import { pageUser, webCaller } from './web-session-request.ts';

function html(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').send(page);
}

// A problem with what was typed, shown on the form; anything else goes to the app's error handler.
function typed(error: unknown, fieldId: string): FormProblem {
  if (error instanceof ApiError && error.code === 'INVALID_PARAMETER') return { message: error.message.replace(/^./, (c) => c.toUpperCase()), fieldId };
  throw error;
}

const unusable = (message: string) => ({ title: 'This link cannot be used', lines: [message, 'Ask the admin who invited you for a new invitation.'] });

/** The QR code of an otpauth:// URI as an SVG data: URI (images from data: are within the pages' CSP; no script). */
async function qrDataUri(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/**
 * An invitation's link (the invited user chooses the password, then signs in and is offered MFA enrolment) and the
 * enrolment page itself, for any signed-in user not enrolled yet: a new secret as a QR code and as text, confirmed
 * with a current code before it is saved.
 */
export function welcomeRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { services, publicUrl } = deps;
  const accounts = services.selfService;

  web.get(ACCOUNT_PATHS.welcome, async (request, reply) => {
    const token = formField(request.query, 'token');
    let email: string;
    try {
      email = await accounts.checkInviteLink(token);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'INVALID_REQUEST') throw error;
      return html(reply, 400, renderPage(NoticePage(unusable(error.message))));
    }
    return html(reply, 200, renderPage(WelcomePage({ token, email, problems: [], csrfToken: csrfToken(reply) })));
  });

  web.post(ACCOUNT_PATHS.welcome, { preHandler: web.csrfProtection }, async (request, reply) => {
    const token = formField(request.body, 'token');
    try {
      await accounts.acceptInvite(token, formField(request.body, 'password'));
    } catch (error) {
      if (error instanceof ApiError && error.code === 'INVALID_REQUEST') return html(reply, 400, renderPage(NoticePage(unusable(error.message))));
      const problem = typed(error, 'password');
      return html(reply, 400, renderPage(WelcomePage({ token, email: await accounts.checkInviteLink(token), problems: [problem], csrfToken: csrfToken(reply) })));
    }
    // Signed in with the new password, the user is offered MFA enrolment next.
    return reply.redirect(`${ACCOUNT_PATHS.signIn}?${new URLSearchParams({ next: ACCOUNT_PATHS.mfa }).toString()}`, 303);
  });

  const enrolment = async (reply: FastifyReply, caller: Awaited<ReturnType<typeof webCaller>>, secret: string, problems: FormProblem[]) => {
    const qr = await qrDataUri(otpauthUri(secret, caller.user.email));
    return html(reply, problems.length > 0 ? 400 : 200, renderPage(MfaEnrolmentPage({ user: await pageUser(services, caller), csrfToken: csrfToken(reply), secret, qrDataUri: qr, problems })));
  };

  web.get(ACCOUNT_PATHS.mfa, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    if (await services.mfa.enrolled(caller.user.id)) {
      return html(reply, 200, renderPage(NoticePage({ title: 'Multi-factor authentication is on', lines: ['Your account asks for a code from your authenticator app at sign-in. An admin of your agency can reset it if you lose the app.'], link: { href: '/MvcProjects/', text: 'Continue' } })));
    }
    return enrolment(reply, caller, newTotpSecret(), []);
  });

  web.post(ACCOUNT_PATHS.mfa, { preHandler: web.csrfProtection }, async (request, reply) => {
    const caller = await webCaller(request, reply, services, publicUrl);
    const secret = formField(request.body, 'secret');
    try {
      await services.mfa.enrolSelf(caller, secret, formField(request.body, 'code'));
    } catch (error) {
      return enrolment(reply, caller, secret, [typed(error, 'code')]);
    }
    // Enrolling ended the sessions (they were signed in without this factor): sign in again, now with a code.
    return html(reply, 200, renderPage(NoticePage({
      title: 'Multi-factor authentication is on', lines: ['From now on, sign in with your password and the code your app shows.'],
      link: { href: ACCOUNT_PATHS.signIn, text: 'Sign in' },
    })));
  });
}
