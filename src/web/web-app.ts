import { welcomeRoutes } from './welcome-routes.ts';
import { organizationRoutes } from './organization-routes.ts';
import { myAccountRoutes } from './my-account-routes.ts';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { accountRoutes } from './account-routes.ts';
import { applicationRoutes } from './application-routes.ts';
import type { WebAppDeps } from './web-app-deps.ts';
import { homeRoutes } from './home-routes.ts';
import { myProjectsRoutes } from './my-projects-routes.ts';
import { reviewRoutes } from './review-routes.ts';
import { inquiryReplyRoutes } from './inquiry-reply-routes.ts';
import { csrfOptions } from './csrf.ts';
import { isWebPath } from './error-page.tsx';
import { pageAssetRoutes } from './page-assets.ts';
import { projectPageRoutes } from './project-page-routes.ts';
import { webSecurityHeaders } from './security-headers.ts';
import { signInRoutes } from './sign-in-routes.ts';
import { signOnRoutes } from './sign-on-routes.ts';
import { workQueueRoutes } from './work-queue-routes.ts';
import { bulkActionRoutes } from './bulk-action-routes.ts';
import { dashboardRoutes } from './dashboard-routes.ts';
import { signingRoutes } from './signing-routes.ts';
import { consoleRoutes } from './console/console-routes.ts';

/**
 * The web application for applicants and staff, in its own Fastify context: form bodies, cookies, CSRF tokens and
 * security headers apply to its pages only, never to the API. Pages are rendered on the server and work without
 * JavaScript; the Content-Security-Policy allows no script at all.
 */
/** The X-CSRF-Token header, when sent once. */
function headerToken(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export async function webApp(app: FastifyInstance, deps: WebAppDeps): Promise<void> {
  const secure = new URL(deps.publicUrl).protocol === 'https:';
  // Every page gets the security headers, also the 404 and 405 of an unknown path or method under the pages'
  // prefixes, which the app's one not-found handler answers outside the pages' context.
  const securityHeaders = webSecurityHeaders(secure);
  // Synchronous: every request of the app, the API's too, runs it.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.is404 && isWebPath(request.url)) securityHeaders(request.raw, reply.raw);
    done();
  });
  await app.register(async (web) => {
    await web.register(fastifyCookie);
    await web.register(fastifyFormbody);
    // Uploads are streamed to the blob store, which stops at the attachment definition's limit; busboy's own default
    // limit (1 MB) would cut files short silently, so it is lifted here. One file per post, no other parts to speak of.
    await web.register(fastifyMultipart, { limits: { fileSize: Number.MAX_SAFE_INTEGER, files: 1, fields: 10, parts: 11 } });
    // The token comes in the body (a multipart form puts it first, and its route checks it before any file:
    // application-routes.ts) or, for a script, in X-CSRF-Token; never in the address, where history and logs keep it.
    await web.register(fastifyCsrf, csrfOptions(secure, (request) => (request.body as { _csrf?: string } | undefined)?._csrf ?? headerToken(request.headers['x-csrf-token'])));
    web.addHook('onRequest', async (request, reply) => securityHeaders(request.raw, reply.raw));
    pageAssetRoutes(web);
    web.get('/', async (_request, reply) => reply.redirect('/MvcProjects/', 303));
    signInRoutes(web, deps);
    signOnRoutes(web, deps);
    accountRoutes(web, deps);
    welcomeRoutes(web, deps);
    homeRoutes(web, deps);
    myProjectsRoutes(web, deps);
    organizationRoutes(web, deps);
    myAccountRoutes(web, deps);
    projectPageRoutes(web, deps);
    applicationRoutes(web, deps);
    inquiryReplyRoutes(web, deps.services, deps.publicUrl);
    workQueueRoutes(web, deps);
    bulkActionRoutes(web, deps);
    dashboardRoutes(web, deps);
    reviewRoutes(web, deps);
    signingRoutes(web, deps);
    consoleRoutes(web, deps);
  });
}
