import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../domain/api-error.ts';
import { ACCOUNT_PATHS } from '../domain/accounts/self-service-accounts.ts';
import type { FormProblem } from './components/error-summary.tsx';
import { ConfirmPage, ForgotPasswordPage, NoticePage, ResetPasswordPage, SignUpPage } from './pages/account-pages.tsx';
import { renderPage } from './render-page.ts';
import type { WebAppDeps } from './web-app-deps.ts';
import { csrfToken } from './csrf.ts';

type Form = Record<string, unknown>;

function field(source: unknown, name: string): string {
  const value = (source as Form | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

function html(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').send(page);
}

// Problems with what was typed are shown on the form, next to the field; anything else goes to the app's error handler.
function formProblem(error: unknown, fieldOf: (message: string) => string): FormProblem {
  if (error instanceof ApiError && (error.code === 'INVALID_REQUEST' || error.code === 'INVALID_PARAMETER')) {
    return { message: error.message.replace(/^./, (c) => c.toUpperCase()), fieldId: fieldOf(error.message) };
  }
  throw error;
}

const sentForSignUp = {
  title: 'Check your e-mail',
  lines: ['We sent a message to the address you gave. Open the link in it to confirm the address and activate your account.',
    'If no message arrives within a few minutes, look in your spam folder.'],
};

const sentForReset = {
  title: 'Check your e-mail',
  lines: ['If an account has this address, we sent it a link to choose a new password; the link works once, for an hour.',
    'If the address signed up and was never confirmed, we sent it a new link to confirm it instead.'],
};

// A new link is offered only while mail is on (a link mailed earlier can outlive it); otherwise the way back is sign-in.
// The page it leads to mails a reset link to an active account and a new confirmation link to one never confirmed.
const linkUnusable = (message: string, resetByMail: boolean) => ({
  title: 'This link cannot be used',
  lines: [message],
  link: resetByMail ? { href: ACCOUNT_PATHS.forgot, text: 'Ask for a new link' } : { href: ACCOUNT_PATHS.signIn, text: 'Go to sign-in' },
});

/**
 * Self-service accounts: sign-up for a program that allows it, the confirmation link, and password reset by mail.
 * Forms carry the CSRF token like every form; answers are the same whether or not an address has an account.
 */
export function accountRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const accounts = deps.services.selfService;
  const programRefOf = (query: unknown) => field(query, 'ProgramId');

  web.get(ACCOUNT_PATHS.signUp, async (request, reply) => {
    const program = await accounts.signUpProgram(programRefOf(request.query));
    return html(reply, 200, renderPage(SignUpPage({
      programRef: programRefOf(request.query), programName: program.name, name: '', email: '', problems: [], csrfToken: csrfToken(reply),
    })));
  });

  web.post(ACCOUNT_PATHS.signUp, { preHandler: web.csrfProtection }, async (request, reply) => {
    const programRef = programRefOf(request.query);
    const program = await accounts.signUpProgram(programRef);
    const input = { name: field(request.body, 'name'), email: field(request.body, 'email') };
    try {
      await accounts.signUp({ programRef, ...input, address: request.ip });
    } catch (error) {
      const problem = formProblem(error, (m) => (/e-mail/i.test(m) ? 'email' : 'name'));
      return html(reply, 400, renderPage(SignUpPage({
        programRef, programName: program.name, name: input.name, email: input.email, problems: [problem], csrfToken: csrfToken(reply),
      })));
    }
    return html(reply, 200, renderPage(NoticePage(sentForSignUp)));
  });

  web.get(ACCOUNT_PATHS.confirm, async (request, reply) => {
    const token = field(request.query, 'token');
    try {
      await accounts.checkConfirmLink(token);
    } catch (error) {
      return html(reply, 400, renderPage(NoticePage(linkUnusable(formProblem(error, () => 'token').message, accounts.resetByMail))));
    }
    return html(reply, 200, renderPage(ConfirmPage({ token, problems: [], csrfToken: csrfToken(reply) })));
  });

  web.post(ACCOUNT_PATHS.confirm, { preHandler: web.csrfProtection }, async (request, reply) => {
    const token = field(request.body, 'token');
    try {
      await accounts.confirm(token, field(request.body, 'password'));
    } catch (error) {
      const problem = formProblem(error, () => 'password');
      if (error instanceof ApiError && error.code === 'INVALID_PARAMETER') {
        return html(reply, 400, renderPage(ConfirmPage({ token, problems: [problem], csrfToken: csrfToken(reply) })));
      }
      return html(reply, 400, renderPage(NoticePage(linkUnusable(problem.message, accounts.resetByMail))));
    }
    return html(reply, 200, renderPage(NoticePage({
      title: 'Your account is active', lines: ['Your e-mail address is confirmed. You can sign in now.'],
      link: { href: ACCOUNT_PATHS.signIn, text: 'Sign in' },
    })));
  });

  web.get(ACCOUNT_PATHS.forgot, async (_request, reply) => {
    if (!accounts.resetByMail) throw new ApiError('NOT_FOUND', 'Passwords cannot be reset by mail here; ask the agency.');
    return html(reply, 200, renderPage(ForgotPasswordPage({ email: '', problems: [], csrfToken: csrfToken(reply) })));
  });

  web.post(ACCOUNT_PATHS.forgot, { preHandler: web.csrfProtection }, async (request, reply) => {
    const email = field(request.body, 'email');
    try {
      await accounts.requestReset(email, request.ip);
    } catch (error) {
      const problem = formProblem(error, () => 'email');
      return html(reply, 400, renderPage(ForgotPasswordPage({ email, problems: [problem], csrfToken: csrfToken(reply) })));
    }
    return html(reply, 200, renderPage(NoticePage(sentForReset)));
  });

  web.get(ACCOUNT_PATHS.reset, async (request, reply) => {
    const token = field(request.query, 'token');
    try {
      await accounts.checkResetLink(token);
    } catch (error) {
      return html(reply, 400, renderPage(NoticePage(linkUnusable(formProblem(error, () => 'token').message, accounts.resetByMail))));
    }
    return html(reply, 200, renderPage(ResetPasswordPage({ token, problems: [], csrfToken: csrfToken(reply) })));
  });

  web.post(ACCOUNT_PATHS.reset, { preHandler: web.csrfProtection }, async (request, reply) => {
    const token = field(request.body, 'token');
    try {
      await accounts.checkResetLink(token);
    } catch (error) {
      return html(reply, 400, renderPage(NoticePage(linkUnusable(formProblem(error, () => 'token').message, accounts.resetByMail))));
    }
    try {
      await accounts.resetPassword(token, field(request.body, 'password'));
    } catch (error) {
      const problem = formProblem(error, () => 'password');
      if (problem.message.includes('link')) return html(reply, 400, renderPage(NoticePage(linkUnusable(problem.message, accounts.resetByMail))));
      return html(reply, 400, renderPage(ResetPasswordPage({ token, problems: [problem], csrfToken: csrfToken(reply) })));
    }
    return html(reply, 200, renderPage(NoticePage({
      title: 'Your password was changed', lines: ['Sign in with your new password. Any other sign-ins of your account were ended.'],
      link: { href: ACCOUNT_PATHS.signIn, text: 'Sign in' },
    })));
  });
}
