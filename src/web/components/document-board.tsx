import type { ComponentChildren } from 'preact';
import type { ProjectDocumentsView } from '../../domain/documents/generation-service.ts';
import { formatDateTime, isoDateTime } from '../format-time.ts';

type Row = ProjectDocumentsView['documents'][number];

function When(p: { at: number; timeZone: string }) {
  return <time datetime={isoDateTime(p.at)}>{formatDateTime(p.at, p.timeZone)}</time>;
}

/** What became of a document's newest request, in words. */
function State(p: { row: Row; timeZone: string; fileHref: string }) {
  const r = p.row.latest;
  if (!r) return <>Not generated</>;
  if (r.state === 'queued') return <>Being generated (asked <When at={r.requestedAt} timeZone={p.timeZone} />{r.attempts > 0 ? `; ${r.attempts} failed attempt${r.attempts === 1 ? '' : 's'} so far` : ''})</>;
  if (r.state === 'failed') return <><strong class="overdue">Failed</strong>{r.error ? <>: {r.error}</> : null}</>;
  return <>Generated <When at={r.finishedAt ?? r.requestedAt} timeZone={p.timeZone} /> (<a href={p.fileHref}>version {r.attachmentVersion}</a>)</>;
}

/** The review page's documents, and whether the caller is an admin of the program, who may preview them. */
export type DocumentBoardView = ProjectDocumentsView & { mayPreview?: boolean };

/**
 * The review page's documents: each of the program's documents with the state of its newest request (being generated,
 * failed with its reason, or generated with a link to its file), for staff with generateDocuments a form that asks
 * for it to be generated (a plain POST: the page works without script), and for the program's admins a link that
 * shows it rendered over the project as it is now, in the browser.
 */
export function DocumentBoard(p: { documents: DocumentBoardView; timeZone: string; path: string; form: (documentId: string, name: string) => ComponentChildren }) {
  if (p.documents.documents.length === 0) return null;
  const { canGenerate, mayPreview } = p.documents;
  return (
    <section aria-labelledby="documents-title">
      <h2 id="documents-title">Documents</h2>
      <table class="documents">
        <thead><tr><th scope="col">Document</th><th scope="col">State</th>{canGenerate || mayPreview ? <th scope="col">Actions</th> : null}</tr></thead>
        <tbody>
          {p.documents.documents.map((d) => (
            <tr key={d.documentId} id={`document-${d.documentId}`}>
              <th scope="row">{d.name}</th>
              <td><State row={d} timeZone={p.timeZone} fileHref={`${p.path}/Attachments/${d.attachmentId}`} /></td>
              {canGenerate || mayPreview ? (
                <td>
                  {mayPreview ? <a href={`${p.path}/Documents/${encodeURIComponent(d.documentId)}/Preview`} aria-label={`Preview ${d.name} in the browser`}>Preview</a> : null}
                  {canGenerate ? p.form(d.documentId, d.name) : null}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
