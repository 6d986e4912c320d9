import type { ComponentChildren } from 'preact';
import { TestProgramBanner } from './components/test-program-banner.tsx';
import { SITE_STYLESHEET_PATH, USWDS_STYLESHEET_PATH } from './page-assets.ts';

/** Who is signed in, as the page header shows it, and where the header's links lead. */
export interface PageUser {
  name: string; email: string; staff: boolean;
  /** The user administers something (src/domain/administration): the header links to the console. */
  console?: boolean;
  /** The user's agency, shown in the header of pages that belong to no program (the console's). */
  agencyName?: string | null;
}

/** What every page shows around its content. */
export interface LayoutProps {
  /** The page's own title (the document title adds the program and agency). */
  title: string;
  agencyName?: string | null;
  programName?: string | null;
  user?: PageUser | null;
  /** The CSRF token of the sign-out form; pages without a signed-in user need none. */
  csrfToken?: string;
  /** The page belongs to a test copy of a program: a banner says so at the top of the content. */
  testProgram?: boolean;
  /** The header's section the page belongs to, marked current there (the start pages when none is given). */
  section?: 'home' | 'console' | 'account';
  children: ComponentChildren;
}

/** Every page's start: My projects, the work queues, or sign-in for nobody signed in. */
const HOME = '/MvcProjects/';

// A header link's class, and aria-current when the page belongs to its section (USWDS marks it usa-current).
function navLink(p: LayoutProps, section: NonNullable<LayoutProps['section']>) {
  const current = (p.section ?? 'home') === section;
  return { class: current ? 'usa-nav__link usa-current' : 'usa-nav__link', 'aria-current': current ? ('page' as const) : undefined };
}

/**
 * The page frame, in the U.S. Web Design System's patterns: a skip link, the basic header with the agency's and
 * program's names and the navigation (the signed-in user, sign-out as a form button), the content and the slim footer.
 * No script: the header's navigation stays in the page on a narrow screen instead of behind a menu button (apas.css).
 */
export function Layout(p: LayoutProps) {
  const agencyName = p.agencyName ?? p.user?.agencyName ?? null;
  const docTitle = [p.title, p.programName, agencyName, 'apas'].filter(Boolean).join(' · ');
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{docTitle}</title>
        <link rel="stylesheet" href={USWDS_STYLESHEET_PATH} />
        <link rel="stylesheet" href={SITE_STYLESHEET_PATH} />
      </head>
      <body>
        <a class="usa-skipnav" href="#main">Skip to content</a>
        <header class="usa-header usa-header--basic">
          <div class="usa-nav-container">
            <div class="usa-navbar">
              <div class="usa-logo">
                <em class="usa-logo__text">
                  <a href={HOME}>{agencyName ?? 'apas'}</a>
                  {p.programName ? <span class="apas-program">{p.programName}</span> : null}
                </em>
              </div>
            </div>
            {p.user ? (
              <nav aria-label="Main" class="usa-nav">
                <ul class="usa-nav__primary">
                  <li class="usa-nav__primary-item"><a {...navLink(p, 'home')} href={HOME}><span>{p.user.staff ? 'Work queues' : 'My projects'}</span></a></li>
                  {p.user.console ? <li class="usa-nav__primary-item"><a {...navLink(p, 'console')} href="/MvcProjects/Console"><span>Administration</span></a></li> : null}
                  <li class="usa-nav__primary-item"><a {...navLink(p, 'account')} href="/MvcProjects/Account"><span>Your account</span></a></li>
                  <li class="usa-nav__primary-item apas-nav-user">Signed in as {p.user.name}</li>
                  <li class="usa-nav__primary-item">
                    <form method="post" action="/MvcProjects/SignOut">
                      <input type="hidden" name="_csrf" value={p.csrfToken} />
                      <button type="submit" class="usa-nav__link"><span>Sign out</span></button>
                    </form>
                  </li>
                </ul>
              </nav>
            ) : null}
          </div>
        </header>
        <main id="main" class="apas-main" tabIndex={-1}>
          <div class="grid-container">
            {p.testProgram ? <TestProgramBanner /> : null}
            {p.children}
          </div>
        </main>
        <footer class="usa-footer usa-footer--slim">
          <div class="usa-footer__secondary-section">
            <div class="grid-container">apas · Application and Process Automation Service</div>
          </div>
        </footer>
      </body>
    </html>
  );
}
