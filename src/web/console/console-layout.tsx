import type { ComponentChildren } from 'preact';
import { Layout, type PageUser } from '../layout.tsx';
import { CONSOLE_AREAS, CONSOLE_PATH } from './console-paths.ts';

/** What every console page shows around its content. */
export interface ConsoleLayoutProps {
  title: string;
  agencyName?: string | null;
  user: PageUser;
  csrfToken: string;
  /** The area the page belongs to (console-paths.ts), marked current in the side navigation; none on the start page. */
  area?: string;
  /** Only agency admins see the areas marked agencyAdminOnly. */
  agencyAdmin: boolean;
  /** A one-line notice at the top (what the last action did), shown as a success alert. */
  notice?: string | null;
  children: ComponentChildren;
}

/** A console page: the site's frame with the console's side navigation beside the content. */
export function ConsoleLayout(p: ConsoleLayoutProps) {
  const areas = CONSOLE_AREAS.filter((a) => p.agencyAdmin || !a.agencyAdminOnly);
  return (
    <Layout title={p.title} agencyName={p.agencyName ?? null} user={p.user} csrfToken={p.csrfToken} section="console">
      <div class="grid-row grid-gap console">
        <nav class="tablet:grid-col-3 console-nav" aria-label="Administration">
          <ul class="usa-sidenav">
            <li class="usa-sidenav__item">
              <a href={CONSOLE_PATH} class={p.area === undefined ? 'usa-current' : undefined} aria-current={p.area === undefined ? 'page' : undefined}>Overview</a>
            </li>
            {areas.map((a) => (
              <li class="usa-sidenav__item" key={a.id}>
                <a href={a.path} class={p.area === a.id ? 'usa-current' : undefined} aria-current={p.area === a.id ? 'page' : undefined}>{a.label}</a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="tablet:grid-col-9 console-content">
          <h1>{p.title}</h1>
          {p.notice ? (
            <output class="usa-alert usa-alert--success usa-alert--slim display-block">
              <div class="usa-alert__body"><p class="usa-alert__text">{p.notice}</p></div>
            </output>
          ) : null}
          {p.children}
        </div>
      </div>
    </Layout>
  );
}
