import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { Store } from '../../store/store.ts';
import { renderMail } from '../mail-template.ts';
import { ACCOUNT_PATHS } from './self-service-accounts.ts';
import type { ThrottleNotice } from './sign-in-guard.ts';

const MAIL = {
  subject: 'Failed sign-ins to your account',
  text: 'There were several failed attempts to sign in to your account with wrong passwords.\n\nIf that was you, nothing needs doing. If not, someone may be guessing your password: sign-ins from browsers you have not used with this account are slowed down for a while; browsers you signed in with before are not affected.\n\nIf you think someone knows your password, choose a new one: {{forgotLink}}\n',
};

/**
 * Tells a user that their account's web sign-ins are being throttled (SignInGuard calls it once per window): an
 * audit row, and with mail on a mail through the queue. Nothing for unknown or disabled user names.
 */
export function signInNotice(deps: { store: Store; clock: Clock; ids: IdGenerator; publicUrl: string; mailOn: boolean }): ThrottleNotice {
  return async (userName) => {
    const { store, clock, ids } = deps;
    await store.transaction(async (tx) => {
      const user = await tx.accounts.findUserByEmail(userName);
      if (!user || user.disabled) return;
      const now = clock.now();
      if (deps.mailOn) {
        const mail = renderMail(MAIL, { forgotLink: `${deps.publicUrl}${ACCOUNT_PATHS.forgot}` });
        await tx.mail.enqueueMail({ id: ids.next(), kind: 'account.signin.throttled', eventId: null, to: user.email, ...mail, createdAt: now });
      }
      await tx.audit.write({ action: 'account.signin.throttled', actorId: null, agencyId: user.agencyId, detail: { userId: user.id } }, now, ids.next());
    });
  };
}
