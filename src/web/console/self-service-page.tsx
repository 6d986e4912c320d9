import type { PolicyView } from '../../domain/administration/self-service-policy-service.ts';
import { formatDateTime } from '../format-time.ts';
import type { PageUser } from '../layout.tsx';
import { ConsoleLayout } from './console-layout.tsx';
import { consoleArea } from './console-paths.ts';

/** What the Self-service area shows: the agency's policy, who set it last and when. */
export interface SelfServicePageProps {
  user: PageUser;
  csrfToken: string;
  policy: PolicyView;
  timeZone: string;
  notice: string | null;
}

/** The console's Self-service area (agency admins): may users create their own credentials, subscribe webhooks. */
export function SelfServicePage(p: SelfServicePageProps) {
  const area = consoleArea('self-service');
  const set = p.policy.updatedAt === null
    ? 'Never set: both are off.'
    : `Last set ${formatDateTime(p.policy.updatedAt, p.timeZone)}${p.policy.updatedByEmail ? ` by ${p.policy.updatedByEmail}` : ' on the command line'}.`;
  return (
    <ConsoleLayout title="Self-service" user={p.user} csrfToken={p.csrfToken} area="self-service" agencyAdmin notice={p.notice}>
      <p>
        What applicants and members of installer organizations may set up for themselves on their account page. Their
        credentials act as them, with their own access; their webhooks are sent only events of projects they can read.
      </p>
      <section class="usa-summary-box" aria-labelledby="policy-now">
        <div class="usa-summary-box__body">
          <h2 class="usa-summary-box__heading" id="policy-now">Now</h2>
          <ul class="usa-list" aria-label="Policy now">
            <li>Own API keys and OAuth clients: <strong>{p.policy.ownCredentials ? 'allowed' : 'off'}</strong></li>
            <li>Own webhook subscriptions: <strong>{p.policy.ownWebhooks ? 'allowed' : 'off'}</strong></li>
          </ul>
          <p>{set}</p>
        </div>
      </section>
      <form method="post" action={area.path} class="usa-form usa-form--large">
        <input type="hidden" name="_csrf" value={p.csrfToken} />
        <fieldset class="usa-fieldset">
          <legend class="usa-legend">What users may do themselves</legend>
          <div class="usa-checkbox">
            <input class="usa-checkbox__input" type="checkbox" id="own-credentials" name="ownCredentials" value="on" checked={p.policy.ownCredentials} />
            <label class="usa-checkbox__label" for="own-credentials">Create and revoke their own API keys and OAuth clients</label>
          </div>
          <div class="usa-checkbox">
            <input class="usa-checkbox__input" type="checkbox" id="own-webhooks" name="ownWebhooks" value="on" checked={p.policy.ownWebhooks} aria-describedby="own-webhooks-hint" />
            <label class="usa-checkbox__label" for="own-webhooks">Subscribe webhooks for the projects they can read</label>
          </div>
          <p class="usa-hint" id="own-webhooks-hint">Turning webhooks off stops every user's subscription at once: nothing more is sent, and what was waiting is not sent.</p>
        </fieldset>
        <button type="submit" class="usa-button">Save policy</button>
      </form>
    </ConsoleLayout>
  );
}
