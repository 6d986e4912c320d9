import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/api-error.ts';
import { SIGNING_DOCUMENT_PATH, SIGNING_PATH } from '../domain/signing/signing-links.ts';
import type { SignerProof, SigningPage as SigningView } from '../domain/signing/signing-service.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import { idParam } from '../http/query-params.ts';
import { visitOf } from '../http/routes/envelope-routes.ts';
import { csrfToken } from './csrf.ts';
import { sendPageFile } from './file-response.ts';
import { type SigningAddress, SigningPage } from './pages/signing-page.tsx';
import { renderPage } from './render-page.ts';
import type { WebAppDeps } from './web-app-deps.ts';
import { pageUser, webCaller } from './web-session-request.ts';

type Form = Record<string, unknown>;

function field(source: unknown, name: string): string {
  const value = (source as Form | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

// What the page says after a signer acted; the redirect names only the key.
const NOTICES = {
  signed: 'Thank you: you signed the document. You will get the signed PDF once everyone has signed.',
  declined: 'You declined to sign; the agency has been told.',
} as const;

// Refusals the page explains above its forms (nothing was changed); a dead link, a stranger and a missing envelope go
// to the error pages.
const PAGE_REFUSALS = new Set(['INVALID_REQUEST', 'CONFLICT']);

/**
 * The signing page (docs/web.md, "Signing"): opened by a mailed link (`?token=`, no sign-in needed; the token is
 * redacted from the request log) or signed in (`?EnvelopeId=`); its document shown inline; Sign and Decline as plain
 * POSTs with the CSRF token, the token or envelope in the body. Every page answer is kept from caches and referrers.
 */
export function signingRoutes(web: FastifyInstance, deps: WebAppDeps): void {
  const { services, publicUrl, timeZone } = deps;
  const signing = services.signing;

  // The token or, for a signed-in visitor, the envelope, from the query (GET) or the form (POST).
  const address = async (request: FastifyRequest, reply: FastifyReply, source: unknown): Promise<{ proof: SignerProof; address: SigningAddress; envelopeId: string | null }> => {
    const token = field(source, 'token');
    if (token !== '') return { proof: { token }, address: { token }, envelopeId: null };
    const envelopeId = idParam(field(source, 'EnvelopeId'), 'EnvelopeId');
    return { proof: { caller: await webCaller(request, reply, services, publicUrl) }, address: { envelopeId }, envelopeId };
  };
  const page = async (reply: FastifyReply, proof: SignerProof, view: SigningView, at: SigningAddress, status: number, notice: string | null, refusal: string | null) => {
    const user = 'caller' in proof ? await pageUser(services, proof.caller) : null;
    const html = renderPage(SigningPage({ page: view, address: at, user, csrfToken: csrfToken(reply), timeZone, notice, refusal }));
    return reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').send(html);
  };

  web.get(SIGNING_PATH, async (request, reply) => {
    const a = await address(request, reply, request.query);
    const key = field(request.query, 'notice');
    const notice = Object.hasOwn(NOTICES, key) ? NOTICES[key as keyof typeof NOTICES] : null;
    return page(reply, a.proof, await signing.open(a.proof, a.envelopeId, visitOf(request)), a.address, 200, notice, null);
  });

  web.post(SIGNING_PATH, { preHandler: web.csrfProtection }, async (request, reply) => {
    const a = await address(request, reply, request.body);
    const action = field(request.body, 'Action');
    const visit = visitOf(request);
    let view: SigningView;
    try {
      if (action === 'Sign') {
        view = await signing.sign(a.proof, a.envelopeId, { typedName: field(request.body, 'TypedName'), consent: field(request.body, 'Consent') === 'true' }, visit);
      } else if (action === 'Decline') {
        view = await signing.decline(a.proof, a.envelopeId, field(request.body, 'Reason'), visit);
      } else {
        throw new ApiError('INVALID_REQUEST', 'Choose Sign or Decline.');
      }
    } catch (error) {
      if (!(error instanceof ApiError) || !PAGE_REFUSALS.has(error.code)) throw error;
      return page(reply, a.proof, await signing.show(a.proof, a.envelopeId), a.address, error.status, null, error.message);
    }
    const done = action === 'Sign' ? 'signed' : 'declined';
    // A used link opens nothing any more: its holder is shown the outcome here, the signed-in signer is sent to the page.
    if ('token' in a.address) return page(reply, a.proof, view, a.address, 200, NOTICES[done], null);
    return reply.redirect(`${SIGNING_PATH}?${new URLSearchParams({ EnvelopeId: a.address.envelopeId, notice: done }).toString()}`, 303);
  });

  web.get(SIGNING_DOCUMENT_PATH, async (request, reply) => {
    const a = await address(request, reply, request.query);
    const file = await signing.document(a.proof, a.envelopeId);
    // The document apas generated, a PDF: shown inline in the signing page's frame (and no other site's); anything else
    // is a download, as every stored file is.
    const pdf = file.contentType === 'application/pdf';
    const headers: Record<string, string> = {
      'Content-Type': file.contentType, 'Content-Disposition': contentDisposition(file.fileName, pdf ? 'inline' : 'attachment'),
      'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer',
    };
    if (pdf) Object.assign(headers, { 'Content-Security-Policy': "default-src 'none'; frame-ancestors 'self'", 'X-Frame-Options': 'SAMEORIGIN' });
    // A browser's PDF viewer may fetch it in parts, and a broken download resumes (file-response.ts).
    return sendPageFile(request, reply, file, headers);
  });
}
