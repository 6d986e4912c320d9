import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import type { HttpHarness } from '../support/http-harness.ts';
import { sharedHarness } from './http-helpers.ts';
import { webGet, webPost } from './web-page-helpers.ts';

// An organization's members and invitations on its page, through app.inject: the last admin's removal is refused on
// the page itself (not as a concurrent change), pending invitations are listed and can be sent again or revoked, and
// with mail off the inviting admin is shown the link (never with mail on). Every refusal changes nothing.

const ORGS = '/MvcProjects/Organizations';
const INVITED = 'newcomer@example.org';

const htmlText = (s: string) => s.replaceAll('&amp;', '&');

/** Creates an organization as the harness's applicant (its admin); returns its page's path. */
async function createOrganization(h: HttpHarness, name: string): Promise<string> {
  const res = await webPost(h, ORGS, 'applicant', { Name: name });
  assert.equal(res.statusCode, 303, res.body.slice(0, 300));
  return String(res.headers.location).split('?')[0]!;
}

/** The invitation link shown on a page (with mail off), or null. */
function shownLink(html: string): string | null {
  const m = /id="invitation-link" readonly="" value="([^"]+)"/.exec(html) ?? /id="invitation-link"[^>]*value="([^"]+)"/.exec(html);
  return m ? htmlText(m[1]!) : null;
}

/** The pending invitations' ids, as the page's Send again and Revoke forms carry them. */
function pendingIds(html: string): string[] {
  return [...new Set([...html.matchAll(/name="InvitationId" value="([^"]+)"/g)].map((m) => m[1]!))];
}

async function state(h: HttpHarness, path: string) {
  const id = path.split('/').pop()!;
  return {
    members: await h.store.organizations.listMembers(id),
    invitations: await h.store.organizations.listPendingInvitations(id, 0),
    mails: (await h.store.mail.listMail()).length,
  };
}

forEachDialect('Organization members and invitations (web)', ({ dialect }) => {
  describe('with mail off', () => {
    const harness = sharedHarness(dialect);

    it('refuses to remove the last admin on the page, naming why, and changes nothing', async () => {
      const h = harness();
      const path = await createOrganization(h, 'Solo Solar');
      const before = await state(h, path);
      const res = await webPost(h, `${path}/Remove`, 'applicant', { Email: h.who.applicant.email });
      assert.equal(res.statusCode, 400, res.body.slice(0, 300));
      assert.match(res.body, /is the last admin of Solo Solar and cannot be removed; an organization keeps at least one admin\./);
      assert.match(res.body, /Nothing was changed\./);
      assert.doesNotMatch(res.body, /Someone else changed this/);
      assert.match(res.body, /<h1>Solo Solar<\/h1>/, 'the organization page, with its forms');
      assert.deepEqual(await state(h, path), before);
    });

    it('shows the inviting admin the link, lists the invitation, sends it again with a new link and revokes it', async () => {
      const h = harness();
      const path = await createOrganization(h, 'Link Solar');
      const invited = await webPost(h, `${path}/Invite`, 'applicant', { Email: INVITED });
      assert.equal(invited.statusCode, 200, invited.body.slice(0, 300));
      assert.match(invited.body, /Mail is off on this service, so no invitation mail was sent\./);
      const link = shownLink(invited.body);
      assert.ok(link !== null, invited.body.slice(0, 2000));
      assert.ok(link.startsWith('http://'), link);
      const accept = link.slice(link.indexOf('/MvcProjects/'));
      assert.equal((await h.store.mail.listMail()).filter((m) => m.kind === 'organization.invite').length, 0, 'no mail queued with a link no mail will carry');
      assert.equal((await webGet(h, accept, 'otherApplicant')).statusCode, 200, 'the link works');
      // Only then: the page shows it no more, but lists the invitation.
      const page = (await webGet(h, path, 'applicant')).body;
      assert.equal(shownLink(page), null);
      assert.match(page, /Invitations waiting to be accepted/);
      assert.match(page, new RegExp(`<td>${INVITED}</td><td>User ${h.who.applicant.id}</td>`));
      const [invitationId] = pendingIds(page);
      assert.ok(invitationId);

      const resent = await webPost(h, `${path}/Invitations/Resend`, 'applicant', { InvitationId: invitationId });
      assert.equal(resent.statusCode, 200, resent.body.slice(0, 300));
      const again = shownLink(resent.body);
      assert.ok(again && again !== link);
      assert.equal((await webGet(h, accept, 'otherApplicant')).statusCode, 400, 'the earlier link no longer works');
      assert.equal((await webGet(h, again.slice(again.indexOf('/MvcProjects/')), 'otherApplicant')).statusCode, 200);

      const revoked = await webPost(h, `${path}/Invitations/Revoke`, 'applicant', { InvitationId: invitationId });
      assert.equal(revoked.statusCode, 303);
      assert.match(String(revoked.headers.location), /notice=revoked/);
      assert.equal((await webGet(h, again.slice(again.indexOf('/MvcProjects/')), 'otherApplicant')).statusCode, 400, 'a revoked link works no more');
      const after = (await webGet(h, path, 'applicant')).body;
      assert.deepEqual(pendingIds(after), []);
      assert.match(after, /No invitations are waiting to be accepted\./);
      const audit = (await h.store.audit.list({})).filter((a) => a.action.startsWith('organization.invite')).map((a) => a.action);
      assert.deepEqual(audit.slice(-3).sort(), ['organization.invite', 'organization.invite.resend', 'organization.invite.revoke']);
      // Revoked (or accepted, or expired): neither can be done again, and nothing changes.
      const before = await state(h, path);
      const late = await webPost(h, `${path}/Invitations/Resend`, 'applicant', { InvitationId: invitationId });
      assert.equal(late.statusCode, 404);
      assert.match(late.body, /no longer pending/);
      assert.deepEqual(await state(h, path), before);
    });

    it('refuses an invitation of a member on the page; a member who is no admin sees no invitations and cannot revoke', async () => {
      const h = harness();
      const path = await createOrganization(h, 'Member Solar');
      const link = shownLink((await webPost(h, `${path}/Invite`, 'applicant', { Email: h.who.otherApplicant.email })).body)!;
      const accepted = await webPost(h, '/MvcProjects/Organizations/Accept', 'otherApplicant', { token: new URL(link).searchParams.get('token')! });
      assert.equal(accepted.statusCode, 303, accepted.body.slice(0, 300));
      const open = shownLink((await webPost(h, `${path}/Invite`, 'applicant', { Email: INVITED })).body);
      assert.ok(open);
      const before = await state(h, path);
      const member = await webPost(h, `${path}/Invite`, 'applicant', { Email: h.who.otherApplicant.email });
      assert.equal(member.statusCode, 400);
      assert.match(member.body, /is already a member of Member Solar\./);
      assert.deepEqual(await state(h, path), before);
      const seen = (await webGet(h, path, 'otherApplicant')).body;
      assert.doesNotMatch(seen, new RegExp(INVITED));
      const [invitationId] = pendingIds((await webGet(h, path, 'applicant')).body);
      assert.equal((await webPost(h, `${path}/Invitations/Revoke`, 'otherApplicant', { InvitationId: invitationId! })).statusCode, 403);
      assert.deepEqual(await state(h, path), before);
    });
  });

  describe('with mail on', () => {
    const harness = sharedHarness(dialect, { APAS_SMTP_URL: 'smtp://127.0.0.1:1', APAS_MAIL_FROM: 'apas@apas.test' });

    it('mails the link and never shows it on the page; sending again mails a new one', async () => {
      const h = harness();
      const path = await createOrganization(h, 'Mail Solar');
      const invited = await webPost(h, `${path}/Invite`, 'applicant', { Email: INVITED });
      assert.equal(invited.statusCode, 303);
      const page = (await webGet(h, `${path}?notice=invited`, 'applicant')).body;
      assert.match(page, /The invitation was sent\./);
      assert.equal(shownLink(page), null);
      assert.doesNotMatch(page, /token=/);
      const [invitationId] = pendingIds(page);
      h.clock.advance();
      const resent = await webPost(h, `${path}/Invitations/Resend`, 'applicant', { InvitationId: invitationId! });
      assert.equal(resent.statusCode, 303);
      const mails = (await h.store.mail.listMail()).filter((m) => m.kind === 'organization.invite' && m.to === INVITED);
      assert.equal(mails.length, 2);
      const [first, second] = mails.map((m) => /token=([\w-]+)/.exec(m.text)![1]);
      assert.notEqual(first, second);
      assert.equal((await webGet(h, `/MvcProjects/Organizations/Accept?token=${first}`, 'otherApplicant')).statusCode, 400);
      assert.equal((await webGet(h, `/MvcProjects/Organizations/Accept?token=${second}`, 'otherApplicant')).statusCode, 200);
    });
  });
});
