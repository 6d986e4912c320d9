import type { SigningPage as SigningView } from '../../domain/signing/signing-service.ts';
import { TableBox } from '../components/table-box.tsx';
import { Alert } from '../components/alert.tsx';
import { SIGNING_DOCUMENT_PATH, SIGNING_PATH } from '../../domain/signing/signing-links.ts';
import { envelopeStateText, SIGNER_STATE } from '../components/envelope-list.tsx';
import { formatDateTime, isoDateTime } from '../format-time.ts';
import { Layout, type PageUser } from '../layout.tsx';
import { isTestProgram } from '../../domain/test-program.ts';

/** How the page and its forms name the envelope: the mailed link's token, or the envelope for a signed-in signer. */
export type SigningAddress = { token: string } | { envelopeId: string };

/** What the signing page shows. */
export interface SigningPageProps {
  page: SigningView; address: SigningAddress; user: PageUser | null; csrfToken: string; timeZone: string;
  /** What just happened (signed, declined), or a refusal to show above the forms (nothing was changed). */
  notice: string | null; refusal: string | null;
}

function hidden(address: SigningAddress) {
  return 'token' in address ? <input type="hidden" name="token" value={address.token} /> : <input type="hidden" name="EnvelopeId" value={address.envelopeId} />;
}

/** The address of the document shown on the page (the same token or envelope as the page). */
export function documentHref(address: SigningAddress): string {
  const query: Record<string, string> = 'token' in address ? { token: address.token } : { EnvelopeId: address.envelopeId };
  return `${SIGNING_DOCUMENT_PATH}?${new URLSearchParams(query).toString()}`;
}

/**
 * The signing page: the document inline (and as a link), the signers and where the envelope stands; for the signer
 * whose turn it is, the consent disclosure with its checkbox, the typed name and Sign, and Decline with a reason.
 * Plain forms, no script.
 */
export function SigningPage(p: SigningPageProps) {
  const { envelope: e, signers, me, project, program } = p.page;
  const title = `Sign: ${e.title}`;
  const when = (at: number) => <time datetime={isoDateTime(at)}>{formatDateTime(at, p.timeZone)}</time>;
  return (
    <Layout title={title} programName={program.name} testProgram={isTestProgram(program)} user={p.user} csrfToken={p.csrfToken}>
      <h1>{e.title}</h1>
      <p>Project {project.number ?? project.id} · <span class="usa-tag">{envelopeStateText(e)}</span></p>
      {p.notice ? <Alert kind="success" slim live>{p.notice}</Alert> : null}
      {p.refusal ? <Alert kind="error" role="alert" heading="That was not done"><p>{p.refusal}</p></Alert> : null}
      <section aria-labelledby="document-title">
        <h2 id="document-title">The document</h2>
        <iframe class="document" src={documentHref(p.address)} title={`The document to sign: ${e.title}`} width="100%" height="600" />
        <p><a href={documentHref(p.address)}>Open the document (PDF)</a></p>
      </section>
      <section aria-labelledby="signers-title">
        <h2 id="signers-title">Signers</h2>
        <TableBox label="Signers">
          <table class="usa-table">
            <caption class="usa-sr-only">Who signs, {e.order === 'sequential' ? 'in this order' : 'in any order'}</caption>
            <thead><tr><th scope="col">Signer</th><th scope="col">Name</th><th scope="col">State</th></tr></thead>
            <tbody>
              {signers.map((s) => (
                <tr key={s.id}><td>{s.label}{me?.id === s.id ? ' (you)' : ''}</td><td>{s.name}</td><td>{SIGNER_STATE[s.state]}{s.signedAt === null ? null : <> {when(s.signedAt)}</>}</td></tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      </section>
      {p.page.mayAct && me ? (
        <>
          <section aria-labelledby="sign-title">
            <h2 id="sign-title">Sign as {me.label}</h2>
            <form method="post" action={SIGNING_PATH}>
              <input type="hidden" name="_csrf" value={p.csrfToken} />
              {hidden(p.address)}
              <input type="hidden" name="Action" value="Sign" />
              <h3 id="disclosure-title">Consent to sign electronically</h3>
              <div class="disclosure" id="disclosure">
                {e.disclosure.split(/\n\s*\n/).map((para, i) => <p key={i}>{para}</p>)}
              </div>
              {me.consentedAt === null ? (
                <div class="usa-checkbox">
                  <input class="usa-checkbox__input" type="checkbox" id="consent" name="Consent" value="true" required aria-describedby="disclosure" />
                  <label class="usa-checkbox__label" for="consent">I have read the disclosure and agree to sign electronically</label>
                </div>
              ) : <p>You agreed to sign electronically {when(me.consentedAt)}.</p>}
              <div class="usa-form-group">
                <label class="usa-label" for="typed-name">Type your full name as your signature</label>
                <input class="usa-input" type="text" id="typed-name" name="TypedName" required maxLength={200} autocomplete="name" />
              </div>
              <button class="usa-button" type="submit">Sign</button>
            </form>
          </section>
          <section aria-labelledby="decline-title">
            <h2 id="decline-title">Decline to sign</h2>
            <form method="post" action={SIGNING_PATH}>
              <input type="hidden" name="_csrf" value={p.csrfToken} />
              {hidden(p.address)}
              <input type="hidden" name="Action" value="Decline" />
              <div class="usa-form-group">
                <label class="usa-label" for="decline-reason">Why you decline (the agency reads it)</label>
                <textarea class="usa-textarea" id="decline-reason" name="Reason" rows={3} maxLength={2000} required />
              </div>
              <button class="usa-button usa-button--secondary" type="submit">Decline</button>
            </form>
          </section>
        </>
      ) : me?.state === 'waiting' && e.state === 'sent' ? (
        <p>The signers before you sign first; you will get a mail when it is your turn.</p>
      ) : me?.state === 'signed' && me.signedAt !== null ? (
        <p>You signed this document {when(me.signedAt)} as “{me.typedName}”.</p>
      ) : null}
    </Layout>
  );
}
