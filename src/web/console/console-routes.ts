import type { FastifyInstance } from 'fastify';
import { renderPage } from '../render-page.ts';
import type { WebAppDeps } from '../web-app-deps.ts';
import { ConsoleHomePage } from './console-home-page.tsx';
import { CONSOLE_PATH } from './console-paths.ts';
import { consoleRequest, sendPage } from './console-request.ts';
import { credentialRoutes } from './credential-routes.ts';
import { installerOrganizationRoutes } from './installer-organization-routes.ts';
import { peopleRoutes } from './people-routes.ts';
import { programsRoutes } from './programs-routes.ts';
import { auditRoutes } from './audit-routes.ts';
import { mailRoutes } from './mail-routes.ts';
import { webhooksRoutes } from './webhooks-routes.ts';
import { testProgramRoutes } from './test-program-routes.ts';
import { signOnConsoleRoutes } from './sign-on-routes.ts';
import { selfServiceRoutes } from './self-service-routes.ts';
import { importRoutes } from './import-routes.ts';
import { connectionsRoutes } from './connections-routes.ts';

/** The agency console: its start page and every area's routes (one registration per area, in console-paths.ts order). */
export function consoleRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  web.get(CONSOLE_PATH, async (request, reply) => {
    const c = await consoleRequest(request, reply, deps);
    const programs = c.scope.programs.map((p) => ({ id: p.id, customId: p.customId, name: p.name }));
    return sendPage(reply, renderPage(ConsoleHomePage({ user: c.user, csrfToken: c.csrfToken, agencyAdmin: c.scope.agencyAdmin, programs })));
  });
  peopleRoutes(web, deps);
  installerOrganizationRoutes(web, deps);
  credentialRoutes(web, deps);
  programsRoutes(web, deps);
  webhooksRoutes(web, deps);
  connectionsRoutes(web, deps);
  auditRoutes(web, deps);
  mailRoutes(web, deps);
  testProgramRoutes(web, deps);
  importRoutes(web, deps);
  signOnConsoleRoutes(web, deps);
  selfServiceRoutes(web, deps);
}
