import type { QueueViewSummary } from '../../domain/queue/queue-view-service.ts';

/** The address of the work queue's saved-view operations (POST). */
export const QUEUE_VIEWS_PATH = '/Projects/ProjectList/Views';

/** What the saved-views panel shows: the views, the one open, and the query the save form keeps. */
export interface QueueViewsPanelProps {
  queuePath: string; programId: string; views: QueueViewSummary[]; mayShare: boolean; current: string; query: string; csrfToken: string;
}

function viewHref(p: QueueViewsPanelProps, v: QueueViewSummary): string {
  const q = new URLSearchParams(v.query);
  q.set('ProgramId', p.programId);
  q.set('view', v.viewId);
  return `${p.queuePath}?${q.toString()}`;
}

/** The saved views of the queue (open, delete one's own) and a form that saves the filters and columns shown as a view. */
export function QueueViewsPanel(p: QueueViewsPanelProps) {
  const open = p.views.find((v) => v.viewId === p.current && v.mine);
  return (
    <section class="queue-views" aria-labelledby="views-heading">
      <h2 id="views-heading">Saved views</h2>
      {p.views.length === 0 ? <p>No saved views yet.</p> : (
        <ul class="usa-list">
          {p.views.map((v) => (
            <li key={v.viewId}>
              <a href={viewHref(p, v)} aria-current={v.viewId === p.current ? 'page' : undefined}>{v.name}</a>
              {v.shared ? <span class="muted"> (shared)</span> : null}{' '}
              {v.mine ? (
                <form method="post" action={`${QUEUE_VIEWS_PATH}/Delete`} class="inline">
                  <input type="hidden" name="_csrf" value={p.csrfToken} />
                  <input type="hidden" name="ProgramId" value={p.programId} />
                  <input type="hidden" name="viewId" value={v.viewId} />
                  <button type="submit" class="usa-button usa-button--unstyled" aria-label={`Delete view ${v.name}`}>Delete</button>
                </form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <form method="post" action={QUEUE_VIEWS_PATH} aria-label="Save this view">
        <input type="hidden" name="_csrf" value={p.csrfToken} />
        <input type="hidden" name="ProgramId" value={p.programId} />
        <input type="hidden" name="query" value={p.query} />
        <div class="usa-form-group">
          <label class="usa-label" for="view-name">View name</label>
          <input class="usa-input" type="text" id="view-name" name="name" maxLength={100} required value={open?.name ?? ''} />
        </div>
        {p.mayShare ? (
          <div class="usa-checkbox">
            <input class="usa-checkbox__input" type="checkbox" id="view-shared" name="shared" value="1" checked={open?.shared ?? false} />
            <label class="usa-checkbox__label" for="view-shared">Share with the program's staff</label>
          </div>
        ) : null}
        <div class="actions">
          <button class="usa-button" type="submit">Save as a new view</button>
          {open ? <button type="submit" name="viewId" value={open.viewId} class="usa-button usa-button--outline">Update “{open.name}”</button> : null}
        </div>
      </form>
    </section>
  );
}
