import type { PageUser } from '../layout.tsx';
import { ConsoleLayout } from './console-layout.tsx';
import { CONSOLE_AREAS } from './console-paths.ts';

/** What the console's start page shows: the areas the caller may use and the programs they administer. */
export interface ConsoleHomePageProps {
  user: PageUser;
  csrfToken: string;
  agencyAdmin: boolean;
  programs: { id: string; customId: string; name: string }[];
}

/** The console's start page: one link per area, and what the caller administers. */
export function ConsoleHomePage(p: ConsoleHomePageProps) {
  const areas = CONSOLE_AREAS.filter((a) => p.agencyAdmin || !a.agencyAdminOnly);
  return (
    <ConsoleLayout title="Administration" user={p.user} csrfToken={p.csrfToken} agencyAdmin={p.agencyAdmin}>
      <p>
        {p.agencyAdmin
          ? 'You are an admin of your agency: you administer every program and the agency itself.'
          : `You administer ${p.programs.map((x) => x.name).join(', ')}.`}
      </p>
      <ul class="usa-list">
        {areas.map((a) => <li key={a.id}><a href={a.path}>{a.label}</a></li>)}
      </ul>
    </ConsoleLayout>
  );
}
