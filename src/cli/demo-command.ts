import { DEMO_AGENCY, formatDemoCredentials, seedDemo, seedDemoLists } from '../domain/programs/demo.ts';
import { seedDemoProjects } from '../domain/wiring/demo-projects.ts';
import { makeDemoSigningP12 } from './signing-certificate.ts';
import type { CliCommand } from './cli-command.ts';
import { withContext } from './cli-context.ts';

/** `apas demo`: seeds the demo agency, program and accounts (idempotently) and prints the credentials. */
export const demoCommand: CliCommand = {
  name: 'demo',
  summary: 'Create the demo agency, its programs (residential solar, incentive claims), accounts and sample projects, then print the credentials.',
  notes: [
    'Running it again changes nothing. The credentials are public: never seed the demo on a production database.',
    'Unless APAS_SIGNING_P12 is set, it also makes a self-signed certificate for sealing signed PDFs, apas-signing.p12 beside the database.',
  ],
  async run(_input, io) {
    const { report, lists, projects, certificate } = await withContext(io, async (ctx) => ({
      report: await seedDemo(ctx), lists: await seedDemoLists(ctx),
      projects: await seedDemoProjects({ ...ctx, publicUrl: ctx.config.publicUrl, maxNumbersPerRequest: ctx.config.maxNumbersPerRequest }),
      certificate: makeDemoSigningP12(ctx.config, DEMO_AGENCY.name, ctx.clock.now()),
    }));
    const actions = [...report.actions, ...lists, ...projects, ...(certificate === null ? [] : [`made the self-signed signing certificate ${certificate}`])];
    io.out(actions.length > 0 ? 'Demo data created:' : 'Demo data already present; nothing changed.');
    for (const action of actions) io.out(`  ${action}`);
    io.out(formatDemoCredentials());
    return 0;
  },
};
