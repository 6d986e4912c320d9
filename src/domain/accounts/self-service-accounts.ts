import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../../model/clock.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { Program, User } from '../../model/model.ts';
import type { MailTemplate } from '../../model/notification.ts';
import type { AccountToken, TokenPurpose } from '../../store/account-token-queries.ts';
import type { Store, StoreWriter } from '../../store/store.ts';
import { checkPassword, normaliseEmail, requireName } from './account-service.ts';
import { ApiError } from '../api-error.ts';
import { renderMail } from '../mail-template.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { hashSecret } from './secrets.ts';

/** The web pages of self-service accounts; the mailed links point at them. */
export const ACCOUNT_PATHS = {
  signUp: '/MvcProjects/SignUp',
  confirm: '/MvcProjects/SignUp/Confirm',
  forgot: '/MvcProjects/ForgotPassword',
  reset: '/MvcProjects/ResetPassword',
  signIn: '/MvcProjects/SignIn',
  /** An invitation's link: the invited user chooses the password there. */
  welcome: '/MvcProjects/Welcome',
  /** Enrolment in multi-factor authentication with a QR code, offered after an invitation's password is set. */
  mfa: '/MvcProjects/Account/Mfa',
} as const;

const DEFAULT_INVITE_MS = 7 * 24 * 3_600_000;

/** How long mailed links live (ms); invitations a week unless said. */
export interface AccountLinkPolicy { confirmMs: number; resetMs: number; inviteMs?: number }

/** Confirmation links live 24 hours, reset links one hour, invitations a week. */
export const DEFAULT_LINK_POLICY: AccountLinkPolicy = { confirmMs: 24 * 3_600_000, resetMs: 3_600_000, inviteMs: DEFAULT_INVITE_MS };

/** Who invites a colleague, and whom: the invited user joins the inviter's agency. */
export interface Invitation { inviter: { id: string; agencyId: string; name: string }; name: string; email: string }

/** What self-service needs: the store, time, ids, the public address for links, and two counters against abuse. */
export interface SelfServiceDeps {
  store: Store;
  clock: Clock;
  ids: IdGenerator;
  publicUrl: string;
  /** Sign-up and reset requests per client address: over the limit the request is refused (RATE_LIMITED). */
  perAddress: RateLimiter;
  /** Mails per e-mail address: over the limit no mail is queued, and the answer is the same. */
  perEmail: RateLimiter;
  /** False when no mail server is configured: then nobody can sign up or reset a password by mail. */
  mailOn: boolean;
  policy?: AccountLinkPolicy;
}

/**
 * What a sign-up form sends: no password. The password is chosen on the page the mailed confirmation link opens, by
 * whoever holds the mailbox, so nobody who only knows the address can choose it (see docs/web.md, Self-service accounts).
 */
export interface SignUpInput { programRef: string; name: string; email: string; address: string }

/**
 * What an invited user who has not chosen a password, or a user who signed up but never confirmed, has as password
 * hash: not an argon2 hash, so no password matches it.
 */
export const UNCONFIRMED_PASSWORD = '!unconfirmed';
const NO_PASSWORD = UNCONFIRMED_PASSWORD;

const LINK_UNUSABLE = 'This link has already been used or has expired. Ask for a new one.';

const MAILS: Record<'confirm' | 'exists' | 'reset' | 'invite', MailTemplate> = {
  invite: {
    subject: 'You are invited to {{agencyName}}',
    text: '{{inviter}} invited you to work with {{agencyName}}.\n\nTo choose your password and activate your account, open this link within a week:\n{{link}}\n\nThe link works once. If you did not expect this mail, ignore it.\n',
  },
  confirm: {
    subject: 'Confirm your e-mail address for {{programName}}',
    // No name: the address is not verified yet, so anything the sign-up form took would go to a stranger in the agency's name.
    text: 'Welcome.\n\nTo finish signing up for {{programName}}, confirm your e-mail address and choose your password within 24 hours:\n{{link}}\n\nIf you did not sign up, ignore this mail; the account stays inactive.\n',
  },
  exists: {
    subject: 'You already have an account',
    text: 'Someone, probably you, tried to sign up for {{programName}} with this e-mail address, which already has an account.\n\nSign in: {{signInLink}}\nForgot your password? {{forgotLink}}\n\nIf this was not you, ignore this mail; nothing changed.\n',
  },
  reset: {
    subject: 'Reset your password',
    text: 'To choose a new password, open this link within an hour:\n{{link}}\n\nIf you did not ask for this, ignore this mail; your password stays as it is.\n',
  },
};

/** A new random link token (256 bits, URL-safe) and the SHA-256 that is stored for it. */
function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Self-service accounts on the web pages: sign-up for a program that allows it (an inactive applicant until the
 * mailed link confirms the address), and password reset by a mailed link. Links are single-use, expire, and are kept
 * only as hashes. No answer says whether an address has an account: a sign-up with a known address mails its owner
 * instead, and a reset request for an unknown one does nothing, behind the same page. Mails are queued in the
 * transaction of the change and sent by the mail sender.
 */
export class SelfServiceAccounts {
  readonly #deps: SelfServiceDeps;
  readonly #policy: AccountLinkPolicy;

  constructor(deps: SelfServiceDeps) {
    this.#deps = deps;
    this.#policy = deps.policy ?? DEFAULT_LINK_POLICY;
  }

  /** The program open for sign-up under `ref` (custom or generated id); NOT_FOUND when there is none. */
  async signUpProgram(ref: string): Promise<Program> {
    const program = ref === '' || !this.#deps.mailOn ? null : await this.#deps.store.programs.findProgram(ref);
    if (!program?.selfSignUp) throw new ApiError('NOT_FOUND', 'There is no program open for sign-up at this address.');
    return program;
  }

  /**
   * Signs up: counts the request against its client address first (RATE_LIMITED), checks the form
   * (INVALID_REQUEST/INVALID_PARAMETER), then creates an inactive user with the applicant role in the program and
   * mails a confirmation link, or, when the address has an account, mails its owner. An address that signed up but
   * never confirmed gets a new link instead (the older ones stop working). No password is taken here.
   */
  async signUp(input: SignUpInput): Promise<void> {
    const program = await this.signUpProgram(input.programRef);
    // A refused client is refused before anything it sent is looked at.
    await this.#admitAddress(input.address);
    const name = requireName(input.name, 'name');
    const email = normaliseEmail(input.email);
    const mailAllowed = (await this.#deps.perEmail.hit(`account-mail:${email}`)).allowed;
    const { store, clock, ids } = this.#deps;
    await store.transaction(async (tx) => {
      const now = clock.now();
      const existing = await tx.accounts.findUserByEmail(email);
      if (existing?.disabled && (await tx.accountTokens.awaitsConfirmation(existing.id))) {
        // Signed up before and never confirmed (the mail lost, the link expired): a new link; whoever confirms chooses the password.
        await tx.accountTokens.retireAccountTokens(existing.id, 'confirm', now);
        if (existing.agencyId === program.agencyId && !(await tx.accounts.findGrant(existing.id, program.id))) {
          await tx.accounts.setGrant({ userId: existing.id, programId: program.id, role: 'applicant', sensitive: false });
        }
        const link = await this.#newLink(tx, existing.id, 'confirm', program.id, ACCOUNT_PATHS.confirm);
        if (mailAllowed) await this.#queue(tx, 'account.confirm', email, MAILS.confirm, { programName: program.name, link });
        await tx.audit.write({ action: 'account.signup.again', actorId: existing.id, agencyId: existing.agencyId, programId: program.id, detail: { userId: existing.id } }, now, ids.next());
        return;
      }
      if (existing) {
        if (mailAllowed) await this.#queue(tx, 'account.exists', email, MAILS.exists, { programName: program.name, signInLink: this.#url(ACCOUNT_PATHS.signIn), forgotLink: this.#url(ACCOUNT_PATHS.forgot) });
        await tx.audit.write({ action: 'account.signup.known', actorId: null, agencyId: existing.agencyId, programId: program.id, detail: { userId: existing.id } }, now, ids.next());
        return;
      }
      const user: User = { id: ids.next(), agencyId: program.agencyId, email, name, agencyAdmin: false, disabled: true };
      // No password yet: a text no argon2 hash matches, until the confirmation sets the one its holder chooses.
      await tx.accounts.insertUser(user, NO_PASSWORD, now);
      await tx.accounts.setGrant({ userId: user.id, programId: program.id, role: 'applicant', sensitive: false });
      const link = await this.#newLink(tx, user.id, 'confirm', program.id, ACCOUNT_PATHS.confirm);
      if (mailAllowed) await this.#queue(tx, 'account.confirm', email, MAILS.confirm, { programName: program.name, link });
      await tx.audit.write({ action: 'account.signup', actorId: user.id, agencyId: program.agencyId, programId: program.id, detail: { userId: user.id, email } }, now, ids.next());
    });
  }

  /** Throws INVALID_REQUEST unless `token` is a confirmation link that can still be used (for showing its form). */
  async checkConfirmLink(token: string): Promise<void> {
    const found = token === '' ? null : await this.#deps.store.accountTokens.findAccountToken(hashToken(token));
    if (!this.#usable(found, 'confirm')) throw new ApiError('INVALID_REQUEST', LINK_UNUSABLE);
  }

  /**
   * Confirms an address with its mailed link and the password typed on the page the link opened: the account becomes
   * active with that password. The link itself never carries or chooses one, so another sign-up with the same address
   * cannot decide the password. INVALID_REQUEST when the link is not usable, INVALID_PARAMETER for a bad password.
   */
  async confirm(token: string, password: string): Promise<void> {
    // The link first (one cheap read), so that posts with made-up links cost no password hash.
    await this.checkConfirmLink(token);
    const hash = await hashSecret(checkPassword(password));
    const { store, clock, ids } = this.#deps;
    await store.transaction(async (tx) => {
      const found = await this.#useToken(tx, token, 'confirm');
      const now = clock.now();
      await tx.accounts.updateUser(found.userId, { disabled: false, passwordHash: hash }, now);
      await tx.audit.write({ action: 'account.confirm', actorId: found.userId, programId: found.programId ?? undefined, detail: { userId: found.userId } }, now, ids.next());
    });
  }

  /** True when passwords can be reset by mail (a mail server is configured). */
  get resetByMail(): boolean {
    return this.#deps.mailOn;
  }

  /**
   * Mails a reset link when the address belongs to an active account, and a new confirmation link when it signed up
   * and never confirmed (the link expired or was lost: "Ask for a new link"); otherwise does nothing. The answer is the
   * same either way.
   */
  async requestReset(rawEmail: string, address: string): Promise<void> {
    if (!this.#deps.mailOn) throw new ApiError('NOT_FOUND', 'Passwords cannot be reset by mail here; ask the agency.');
    const email = normaliseEmail(rawEmail);
    await this.#admitAddress(address);
    const mailAllowed = (await this.#deps.perEmail.hit(`account-mail:${email}`)).allowed;
    const { store, clock, ids } = this.#deps;
    await store.transaction(async (tx) => {
      const user = await tx.accounts.findUserByEmail(email);
      if (!user || !mailAllowed) return;
      if (user.disabled) return this.#confirmAgain(tx, user);
      const now = clock.now();
      // A new link replaces any earlier one, so only the latest mail works.
      await tx.accountTokens.retireAccountTokens(user.id, 'reset', now);
      const link = await this.#newLink(tx, user.id, 'reset', null, ACCOUNT_PATHS.reset);
      await this.#queue(tx, 'account.reset', user.email, MAILS.reset, { link });
      await tx.audit.write({ action: 'account.reset.request', actorId: null, agencyId: user.agencyId, detail: { userId: user.id } }, now, ids.next());
    });
  }

  // A sign-up never confirmed gets a new confirmation link for the program it signed up for, the older ones retired. A
  // disabled account whose links were used or ended (confirmed once, or disabled by an operator) gets nothing.
  async #confirmAgain(tx: StoreWriter, user: User): Promise<void> {
    const pending = await tx.accountTokens.pendingConfirmation(user.id);
    const program = pending?.programId ? await tx.programs.findProgram(pending.programId) : null;
    if (!program) return;
    const now = this.#deps.clock.now();
    await tx.accountTokens.retireAccountTokens(user.id, 'confirm', now);
    const link = await this.#newLink(tx, user.id, 'confirm', program.id, ACCOUNT_PATHS.confirm);
    await this.#queue(tx, 'account.confirm', user.email, MAILS.confirm, { programName: program.name, link });
    await tx.audit.write({ action: 'account.confirm.again', actorId: null, agencyId: user.agencyId, programId: program.id, detail: { userId: user.id } }, now, this.#deps.ids.next());
  }

  /** Throws INVALID_REQUEST unless `token` is a reset link that can still be used (for showing the form). */
  async checkResetLink(token: string): Promise<void> {
    const found = token === '' ? null : await this.#deps.store.accountTokens.findAccountToken(hashToken(token));
    if (!this.#usable(found, 'reset')) throw new ApiError('INVALID_REQUEST', LINK_UNUSABLE);
  }

  /** Sets a new password with a reset link (used up by it) and ends the user's sessions and OAuth access tokens. */
  async resetPassword(token: string, password: string): Promise<void> {
    await this.checkResetLink(token);
    const hash = await hashSecret(checkPassword(password));
    const { store, clock, ids } = this.#deps;
    await store.transaction(async (tx) => {
      const found = await this.#useToken(tx, token, 'reset');
      const now = clock.now();
      await tx.accounts.updateUser(found.userId, { passwordHash: hash }, now);
      await tx.accountTokens.endUserSessions(found.userId, 'sessions-and-access-tokens', now);
      await tx.audit.write({ action: 'account.password.reset', actorId: found.userId, detail: { userId: found.userId } }, now, ids.next());
    });
  }

  /**
   * Invites a colleague into the inviter's agency (the console checks the inviter is its admin): a user without a
   * password and a single-use link, valid for a week, mailed to the address, whose page sets the password. With mail
   * off the link comes back for the inviter to pass on (it is then never queued). CONFLICT when the address has an account.
   */
  async invite(input: Invitation): Promise<{ user: User; link: string | null }> {
    const name = requireName(input.name, 'name');
    const email = normaliseEmail(input.email);
    const { store, clock, ids } = this.#deps;
    return store.transaction(async (tx) => {
      const now = clock.now();
      if (await tx.accounts.findUserByEmail(email)) throw new ApiError('CONFLICT', `A user with the e-mail ${email} already exists.`);
      const agency = await tx.accounts.findAgency(input.inviter.agencyId);
      if (!agency) throw new ApiError('NOT_FOUND', 'The agency was not found.');
      const user: User = { id: ids.next(), agencyId: agency.id, email, name, agencyAdmin: false, disabled: false };
      await tx.accounts.insertUser(user, NO_PASSWORD, now);
      const link = await this.#newLink(tx, user.id, 'invite', null, ACCOUNT_PATHS.welcome);
      if (this.#deps.mailOn) await this.#queue(tx, 'account.invite', email, MAILS.invite, { agencyName: agency.name, inviter: input.inviter.name, link });
      await tx.audit.write({ action: 'user.invite', actorId: input.inviter.id, agencyId: agency.id, detail: { userId: user.id, email } }, now, ids.next());
      return { user, link: this.#deps.mailOn ? null : link };
    });
  }

  /**
   * Sends an invited user who has not chosen a password yet a new invitation link; the earlier links stop working.
   * NOT_FOUND for a user of another agency; CONFLICT for one who is disabled or already has a password.
   */
  async reinvite(inviter: Invitation['inviter'], userId: string): Promise<{ user: User; link: string | null }> {
    const { store, clock, ids } = this.#deps;
    return store.transaction(async (tx) => {
      const found = await tx.accounts.findUserById(userId);
      if (!found || found.agencyId !== inviter.agencyId) throw new ApiError('NOT_FOUND', `There is no user ${userId} in your agency.`);
      const { passwordHash, ...user } = found;
      if (user.disabled) throw new ApiError('CONFLICT', `${user.email} is disabled; enable the user before inviting them again.`);
      if (passwordHash !== NO_PASSWORD) throw new ApiError('CONFLICT', `${user.email} has already chosen a password (or signs in with single sign-on); "Forgot your password?" on the sign-in page sends a new one.`);
      const agency = await tx.accounts.findAgency(user.agencyId);
      if (!agency) throw new ApiError('NOT_FOUND', 'The agency was not found.');
      const now = clock.now();
      await tx.accountTokens.retireAccountTokens(user.id, 'invite', now);
      const link = await this.#newLink(tx, user.id, 'invite', null, ACCOUNT_PATHS.welcome);
      if (this.#deps.mailOn) await this.#queue(tx, 'account.invite', user.email, MAILS.invite, { agencyName: agency.name, inviter: inviter.name, link });
      await tx.audit.write({ action: 'user.invite.resend', actorId: inviter.id, agencyId: agency.id, detail: { userId: user.id, email: user.email } }, now, ids.next());
      return { user, link: this.#deps.mailOn ? null : link };
    });
  }

  /** The address an invitation link was sent to, for its page; INVALID_REQUEST when the link is not usable. */
  async checkInviteLink(token: string): Promise<string> {
    const found = token === '' ? null : await this.#deps.store.accountTokens.findAccountToken(hashToken(token));
    const user = this.#usable(found, 'invite') ? await this.#deps.store.accounts.findUserById(found.userId) : null;
    if (!user || user.disabled) throw new ApiError('INVALID_REQUEST', LINK_UNUSABLE);
    return user.email;
  }

  /** Sets the invited user's password with the invitation's link (used up by it); returns the user's address. */
  async acceptInvite(token: string, password: string): Promise<string> {
    const email = await this.checkInviteLink(token);
    const hash = await hashSecret(checkPassword(password));
    const { store, clock, ids } = this.#deps;
    await store.transaction(async (tx) => {
      const found = await this.#useToken(tx, token, 'invite');
      const now = clock.now();
      await tx.accounts.updateUser(found.userId, { passwordHash: hash }, now);
      await tx.audit.write({ action: 'account.invite.accept', actorId: found.userId, detail: { userId: found.userId } }, now, ids.next());
    });
    return email;
  }

  /** Stops the counters (before the store closes). */
  async close(): Promise<void> {
    await Promise.all([this.#deps.perAddress.close(), this.#deps.perEmail.close()]);
  }

  #usable(found: AccountToken | null, purpose: TokenPurpose): found is AccountToken {
    return found !== null && found.purpose === purpose && found.usedAt === null && found.expiresAt > this.#deps.clock.now();
  }

  async #useToken(tx: StoreWriter, token: string, purpose: TokenPurpose): Promise<AccountToken> {
    const found = token === '' ? null : await tx.accountTokens.findAccountToken(hashToken(token));
    if (!this.#usable(found, purpose) || !(await tx.accountTokens.useAccountToken(found.id, this.#deps.clock.now()))) {
      throw new ApiError('INVALID_REQUEST', LINK_UNUSABLE);
    }
    return found;
  }

  async #newLink(tx: StoreWriter, userId: string, purpose: TokenPurpose, programId: string | null, path: string): Promise<string> {
    const { token, hash } = newToken();
    const now = this.#deps.clock.now();
    const lifetime = purpose === 'confirm' ? this.#policy.confirmMs : purpose === 'reset' ? this.#policy.resetMs : this.#policy.inviteMs ?? DEFAULT_INVITE_MS;
    await tx.accountTokens.insertAccountToken({ id: this.#deps.ids.next(), userId, purpose, tokenHash: hash, programId, passwordHash: null, createdAt: now, expiresAt: now + lifetime, usedAt: null });
    return `${this.#url(path)}?${new URLSearchParams({ token }).toString()}`;
  }

  async #queue(tx: StoreWriter, kind: string, to: string, template: MailTemplate, values: Record<string, string>): Promise<void> {
    const mail = renderMail(template, values);
    await tx.mail.enqueueMail({ id: this.#deps.ids.next(), kind, eventId: null, to, ...mail, createdAt: this.#deps.clock.now() });
  }

  #url(path: string): string {
    return `${this.#deps.publicUrl}${path}`;
  }

  async #admitAddress(address: string): Promise<void> {
    const decision = await this.#deps.perAddress.hit(`account-requests:${address}`);
    if (!decision.allowed) {
      throw new ApiError('RATE_LIMITED', `Too many requests from your address; try again in ${Math.ceil(decision.resetSeconds / 60)} minutes.`, {
        headers: { 'Retry-After': String(decision.resetSeconds) },
      });
    }
  }
}
