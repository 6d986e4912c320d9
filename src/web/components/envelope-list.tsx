import type { EnvelopeView } from '../../domain/signing/signing-service.ts';
import { TableBox } from './table-box.tsx';
import { SIGNING_PATH } from '../../domain/signing/signing-links.ts';
import type { Envelope, EnvelopeSigner } from '../../model/document.ts';
import { formatDateTime, isoDateTime } from '../format-time.ts';

/** How the pages name a signer's state. */
export const SIGNER_STATE: Record<EnvelopeSigner['state'], string> = {
  waiting: 'Waiting for the signers before', notified: 'Asked to sign', viewed: 'Opened the document',
  consented: 'Agreed to sign electronically', signed: 'Signed', declined: 'Declined',
};

/** How the pages name an envelope's state. */
export function envelopeStateText(e: Envelope): string {
  if (e.state === 'sent') return e.allSignedAt === null ? 'Out for signature' : 'Signed by everyone; the signed PDF is being made';
  return { completed: 'Completed: signed by everyone', declined: 'Declined by a signer', voided: 'Voided' }[e.state];
}

/** The signing page of an envelope for a signed-in user. */
export function signingPagePath(envelopeId: string): string {
  return `${SIGNING_PATH}?${new URLSearchParams({ EnvelopeId: envelopeId }).toString()}`;
}

/** Staff's void and resend forms: where they post (the review page's actions) and the CSRF token. */
export interface EnvelopeActions { path: string; csrfToken: string }

function When(p: { at: number; timeZone: string }) {
  return <time datetime={isoDateTime(p.at)}>{formatDateTime(p.at, p.timeZone)}</time>;
}

/**
 * A project's documents out for signature (the project and review pages): each envelope's state and signers, a link
 * to its signing page, and for staff with generateDocuments the Void and Resend forms (plain POSTs).
 */
export function EnvelopeList(p: { envelopes: EnvelopeView[]; timeZone: string; actions?: EnvelopeActions | null }) {
  if (p.envelopes.length === 0) return null;
  return (
    <section aria-labelledby="envelopes-title">
      <h2 id="envelopes-title">Documents to sign</h2>
      {p.envelopes.map(({ envelope: e, signers }) => {
        const open = e.state === 'sent' && e.allSignedAt === null;
        return (
          <article class="envelope" key={e.id} aria-labelledby={`envelope-${e.id}`}>
            <h3 id={`envelope-${e.id}`}>{e.title}</h3>
            <p><span class="usa-tag">{envelopeStateText(e)}</span> · sent <When at={e.createdAt} timeZone={p.timeZone} />{e.order === 'sequential' ? ' · signed in order' : ' · signed in any order'}</p>
            <TableBox label={`Signers of ${e.title}`}>
              <table class="usa-table">
                <caption class="usa-sr-only">Signers of {e.title}</caption>
                <thead><tr><th scope="col">Signer</th><th scope="col">Name</th><th scope="col">State</th><th scope="col">Signed</th>{p.actions && open ? <th scope="col">Link</th> : null}</tr></thead>
                <tbody>
                  {signers.map((s) => (
                    <tr key={s.id}>
                      <td>{s.label}</td>
                      <td>{s.name}</td>
                      <td>{SIGNER_STATE[s.state]}{s.declineReason ? `: ${s.declineReason}` : ''}</td>
                      <td>{s.signedAt === null ? '—' : <When at={s.signedAt} timeZone={p.timeZone} />}</td>
                      {p.actions && open ? (
                        <td>
                          {s.state === 'notified' || s.state === 'viewed' || s.state === 'consented' ? (
                            <form method="post" action={`${p.actions.path}/EnvelopeResend`} class="action-form">
                              <input type="hidden" name="_csrf" value={p.actions.csrfToken} />
                              <input type="hidden" name="EnvelopeId" value={e.id} />
                              <input type="hidden" name="SignerId" value={s.signerId} />
                              <button class="usa-button usa-button--outline" type="submit" aria-label={`Resend the link to ${s.label}`}>Resend</button>
                            </form>
                          ) : '—'}
                        </td>
                      ) : null}
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableBox>
            <p><a href={signingPagePath(e.id)}>Open the signing page of {e.title}</a></p>
            {p.actions && open ? (
              <form method="post" action={`${p.actions.path}/EnvelopeVoid`} class="action-form">
                <input type="hidden" name="_csrf" value={p.actions.csrfToken} />
                <input type="hidden" name="EnvelopeId" value={e.id} />
                <div class="usa-form-group">
                  <label class="usa-label" for={`void-${e.id}`}>Reason for voiding (optional)</label>
                  <input class="usa-input" id={`void-${e.id}`} name="Reason" maxLength={2000} />
                </div>
                <button class="usa-button usa-button--secondary" type="submit">Void {e.title}</button>
              </form>
            ) : null}
          </article>
        );
      })}
    </section>
  );
}
