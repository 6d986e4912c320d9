import type { ComponentChildren } from 'preact';
import { TestProgramBanner } from './components/test-program-banner.tsx';

/** Who is signed in, as the page header shows it, and where the header's links lead. */
export interface PageUser {
  name: string; email: string; staff: boolean;
  /** The user administers something (src/domain/administration): the header links to the console. */
  console?: boolean;
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
  children: ComponentChildren;
}

/** The path of the one style sheet, served from the package. */
export const STYLESHEET_PATH = '/MvcProjects/assets/apas.css';

/** The page frame: a skip link, the agency's and program's names, the signed-in user with sign-out, and the content. */
export function Layout(p: LayoutProps) {
  const docTitle = [p.title, p.programName, p.agencyName, 'apas'].filter(Boolean).join(' · ');
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{docTitle}</title>
        <link rel="stylesheet" href={STYLESHEET_PATH} />
      </head>
      <body>
        <a class="skip-link" href="#main">Skip to content</a>
        <header class="site-header">
          <div class="brand">
            <span class="agency">{p.agencyName ?? 'apas'}</span>
            {p.programName ? <span class="program">{p.programName}</span> : null}
          </div>
          {p.user ? (
            <nav aria-label="Main">
              <ul>
                <li><a href="/MvcProjects/">{p.user.staff ? 'Work queues' : 'My projects'}</a></li>
                {p.user.console ? <li><a href="/MvcProjects/Console">Administration</a></li> : null}
                <li><a href="/MvcProjects/Account">Your account</a></li>
                <li class="who">Signed in as {p.user.name}</li>
                <li>
                  <form method="post" action="/MvcProjects/SignOut" class="inline">
                    <input type="hidden" name="_csrf" value={p.csrfToken} />
                    <button type="submit" class="link">Sign out</button>
                  </form>
                </li>
              </ul>
            </nav>
          ) : null}
        </header>
        <main id="main" tabIndex={-1}>
          {p.testProgram ? <TestProgramBanner /> : null}
          {p.children}
        </main>
        <footer class="site-footer">apas · Application and Process Automation Service</footer>
      </body>
    </html>
  );
}
