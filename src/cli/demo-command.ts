import { formatDemoCredentials, seedDemo } from '../domain/programs/demo.ts';
import type { CliCommand } from './cli-command.ts';
import { withContext } from './cli-context.ts';

/** `apas demo`: seeds the demo agency, program and accounts (idempotently) and prints the credentials. */
export const demoCommand: CliCommand = {
  name: 'demo',
  summary: 'Create the demo agency, the residential solar program and the demo accounts, then print their credentials.',
  notes: ['Running it again changes nothing. The credentials are public: never seed the demo on a production database.'],
  async run(_input, io) {
    const report = await withContext(io, (ctx) => seedDemo(ctx));
    io.out(report.created ? 'Demo data created:' : 'Demo data already present; nothing changed.');
    for (const action of report.actions) io.out(`  ${action}`);
    io.out(formatDemoCredentials());
    return 0;
  },
};
