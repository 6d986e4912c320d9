import { DueBy } from '../components/deadline-list.tsx';
import { TableBox } from '../components/table-box.tsx';
import { Pager } from '../components/pager.tsx';
import { dashboardHref } from '../web-paths.ts';
import { BulkActionForm, BulkSelectCell, BulkSelectHeader } from '../components/bulk-action-form.tsx';
import type { BulkFormOptions } from '../../domain/queue/bulk-action-service.ts';
import type { BoundedCount, WorkQueueRowView, WorkQueueView } from '../../domain/queue/work-queue-service.ts';
import { ATTENTION_KINDS } from '../../domain/queue/queue-columns.ts';
import type { QueueViewSummary } from '../../domain/queue/queue-view-service.ts';
import { QueueViewsPanel } from '../components/queue-views-panel.tsx';
import { ErrorSummary, type FormProblem } from '../components/error-summary.tsx';
import { formatDateTime, isoDateTime } from '../format-time.ts';
import { Layout, type PageUser } from '../layout.tsx';
import { QUEUE_OPERATORS, QUEUE_ORDERS, type QueueForm, queueQuery, viewQuery } from '../queue-query.ts';

/** The path of the work queue (the commercial product's path, so bookmarks of its users keep working). */
export const QUEUE_PATH = '/Projects/ProjectList';

/** What the work-queue page shows. */
export interface WorkQueuePageProps {
  view: WorkQueueView; form: QueueForm; problems: FormProblem[]; user: PageUser; csrfToken: string; timeZone: string;
  /** The bulk actions' form (src/web/components/bulk-action-form.tsx) and the rows' checkboxes; none when left out. */
  bulk?: BulkFormOptions;
  /** The saved views the caller may open, and whether the caller may share one. */
  views: QueueViewSummary[]; mayShare: boolean;
}

/** A bounded count as text: exact, or "more than N" past the bound. */
export function countText(c: BoundedCount): string {
  return c.more ? `more than ${c.count.toLocaleString('en-US')}` : c.count.toLocaleString('en-US');
}

function Cell(p: { id: string; r: WorkQueueRowView; timeZone: string }) {
  const { r } = p;
  switch (p.id) {
    case 'applicant': return <td>{r.applicant}</td>;
    case 'status': return <td><span class="usa-tag">{r.status}</span></td>;
    case 'assignee': return <td>{r.assignee ?? 'Unassigned'}</td>;
    case 'submitted': return <td><When at={r.submittedAt} timeZone={p.timeZone} /></td>;
    case 'created': return <td><When at={r.createdAt} timeZone={p.timeZone} /></td>;
    case 'lastChange': return <td><When at={r.lastChange} timeZone={p.timeZone} /></td>;
    case 'nextDeadline':
      return <td>{r.nextDeadline ? <>{r.nextDeadline.name} <DueBy date={r.nextDeadline.dueDate} />{r.nextDeadline.overdue ? <strong class="overdue"> Overdue</strong> : null}</> : '—'}</td>;
    case 'daysInStatus': return <td>{r.daysInStatus}</td>;
    case 'lastApplicantActivity': return <td>{r.lastApplicantActivity === null ? '—' : <When at={r.lastApplicantActivity} timeZone={p.timeZone} />}</td>;
    case 'attention': return <td>{r.attention.length === 0 ? '—' : r.attention.map((k) => ATTENTION_KINDS[k]).join('; ')}</td>;
    default: return <td>{r.values[p.id] ?? ''}</td>;
  }
}

/** The review page of a project. */
export function reviewPath(programId: string, projectId: string): string {
  return `/MvcProjects/Programs/${encodeURIComponent(programId)}/Projects/${encodeURIComponent(projectId)}/Review`;
}

function When(p: { at: number | null; timeZone: string }) {
  return p.at === null ? <span class="muted">Not submitted</span> : <time datetime={isoDateTime(p.at)}>{formatDateTime(p.at, p.timeZone)}</time>;
}

function Select(p: { id: string; name: string; label: string; value: string; options: [string, string][] }) {
  return (
    <div class="usa-form-group">
      <label class="usa-label" for={p.id}>{p.label}</label>
      <select class="usa-select" id={p.id} name={p.name}>
        {p.options.map(([value, text]) => <option key={value} value={value} selected={value === p.value}>{text}</option>)}
      </select>
    </div>
  );
}

// Anyone, me, unassigned, then every staff member who may be assigned; an address typed into the URL that is none of
// them is kept as a choice of its own, so the form shows the filter that is applied.
function assigneeOptions(view: WorkQueueView, current: string): [string, string][] {
  const options: [string, string][] = [['', 'Anyone'], ['me', 'Assigned to me'], ['unassigned', 'Unassigned']];
  options.push(...view.assignees.map((a): [string, string] => [a.email, `${a.name} (${a.email})`]));
  if (current !== '' && !options.some(([value]) => value === current)) options.push([current, current]);
  return options;
}

/** The staff work queue of a program: a GET filter form (shareable URL, no script), the projects, paging and CSV. */
export function WorkQueuePage(p: WorkQueuePageProps) {
  const { view, form } = p;
  const bad = new Set(p.problems.map((x) => x.fieldId));
  // A refused filter shows the refusal and the form as it was sent, to correct: no count and no rows, which would be
  // the unfiltered queue's, and the columns ticked as they were (not the default ones the page fell back to).
  const refused = p.problems.length > 0;
  const ticked = (id: string) => (refused ? form.columns.includes(id) : view.columns.some((x) => x.id === id));
  const cls = (id: string) => (bad.has(id) ? 'usa-form-group usa-form-group--error' : 'usa-form-group');
  return (
    <Layout title="Work queue" agencyName={view.agencyName} programName={view.programName} testProgram={view.testProgram} user={p.user} csrfToken={p.csrfToken}>
      <h1>Work queue</h1>
      <p><a href={dashboardHref(view.programId)}>Dashboard of {view.programName}</a></p>
      <ErrorSummary title="The filters could not be applied" problems={p.problems} />
      <form method="get" action={QUEUE_PATH} class="filters" aria-label="Filter projects">
        <input type="hidden" name="ProgramId" value={view.programId} />
        <fieldset class="usa-fieldset" id="filter-status">
          <legend class="usa-legend">Status</legend>
          {view.statuses.map((s) => (
            <div key={s.statusId} class="usa-checkbox">
              <input class="usa-checkbox__input" type="checkbox" id={`status-${s.statusId}`} name="status" value={s.statusId} checked={form.statuses.includes(s.statusId)} />
              <label class="usa-checkbox__label" for={`status-${s.statusId}`}>{s.name}</label>
            </div>
          ))}
        </fieldset>
        <Select id="filter-assignee" name="assignee" label="Assignee" value={form.assignee} options={assigneeOptions(view, form.assignee)} />
        <div class={cls('filter-submitted-from')}>
          <label class="usa-label" for="filter-submitted-from">Submitted from</label>
          <input class="usa-input" type="date" id="filter-submitted-from" name="submittedFrom" value={form.submittedFrom} />
        </div>
        <div class={cls('filter-submitted-to')}>
          <label class="usa-label" for="filter-submitted-to">Submitted to</label>
          <input class="usa-input" type="date" id="filter-submitted-to" name="submittedTo" value={form.submittedTo} />
        </div>
        <div class="usa-form-group">
          <label class="usa-label" for="filter-number">Project number</label>
          <input class="usa-input" type="search" id="filter-number" name="number" value={form.number} />
        </div>
        <fieldset class="usa-fieldset" id="filter-data">
          <legend class="usa-legend">Data field</legend>
          <Select id="filter-field" name="field" label="Field" value={form.field}
            options={[['', 'Any (no data filter)'], ...view.fields.map((f): [string, string] => [f.customId ?? f.fieldId, f.name])]} />
          <Select id="filter-op" name="op" label="Comparison" value={form.op} options={Object.entries(QUEUE_OPERATORS)} />
          <div class={cls('filter-value')}>
            <label class="usa-label" for="filter-value">Value</label>
            <input class="usa-input" type="text" id="filter-value" name="value" value={form.value} />
          </div>
        </fieldset>
        <div class={`${cls('filter-overdue')} usa-checkbox`}>
          <input class="usa-checkbox__input" type="checkbox" id="filter-overdue" name="overdue" value="1" checked={form.overdue === '1'} />
          <label class="usa-checkbox__label" for="filter-overdue">Overdue only</label>
        </div>
        <Select id="filter-attention" name="attention" label="Needs attention" value={form.attention}
          options={[['', 'Every project'], ['any', 'Needs attention (any reason)'], ...Object.entries(ATTENTION_KINDS)]} />
        {/* Closed until asked for: a program's data fields make a long list. A details element needs no script. */}
        <details class="column-choice">
          <summary>{refused ? `Columns (${form.columns.length} chosen)` : `Columns (${view.columns.length} shown)`}</summary>
          <fieldset class="usa-fieldset" id="filter-columns">
            <legend class="usa-sr-only">Columns</legend>
            {view.columnChoices.map((c) => (
              <div key={c.id} class="usa-checkbox">
                <input class="usa-checkbox__input" type="checkbox" id={`col-${c.id}`} name="col" value={c.id} checked={ticked(c.id)} />
                <label class="usa-checkbox__label" for={`col-${c.id}`}>{c.label}<span class="usa-sr-only"> column</span></label>
              </div>
            ))}
          </fieldset>
        </details>
        <Select id="filter-order" name="order" label="Order" value={form.order} options={Object.entries(QUEUE_ORDERS)} />
        <Select id="filter-size" name="size" label="Rows per page" value={form.size} options={[['25', '25'], ['50', '50'], ['100', '100']]} />
        <div class="actions">
          <button class="usa-button" type="submit">Apply filters</button>
          <a href={`${QUEUE_PATH}?${new URLSearchParams({ ProgramId: view.programId }).toString()}`}>Clear filters</a>
        </div>
      </form>
      <QueueViewsPanel queuePath={QUEUE_PATH} programId={view.programId} views={p.views} mayShare={p.mayShare} current={form.view}
        query={viewQuery(form)} csrfToken={p.csrfToken} />
      <nav class="attention-counts" aria-label="Needs attention">
        <p>
          <a href={`${QUEUE_PATH}?${new URLSearchParams({ ProgramId: view.programId, attention: 'any' }).toString()}`}>Needs attention: <span id="attention-any">{countText(view.attentionCounts.any)}</span></a>
          {(Object.keys(ATTENTION_KINDS) as (keyof typeof ATTENTION_KINDS)[]).map((k) => (
            <span key={k}> · <a href={`${QUEUE_PATH}?${new URLSearchParams({ ProgramId: view.programId, attention: k }).toString()}`}>{ATTENTION_KINDS[k]}: <span id={`attention-${k}`}>{countText(view.attentionCounts[k])}</span></a></span>
          ))}
        </p>
      </nav>
      {refused ? null : <QueueResults {...p} />}
    </Layout>
  );
}

// The count, the download, the projects with the bulk form, and the pages: only for a filter that could be applied.
function QueueResults(p: WorkQueuePageProps) {
  const { view, form } = p;
  return (
    <>
      <p id="queue-count">{view.count.more ? `More than ${view.count.count.toLocaleString('en-US')} projects match these filters.`
        : `${view.count.count.toLocaleString('en-US')} ${view.count.count === 1 ? 'project matches' : 'projects match'} these filters.`}</p>
      <p class="actions">
        <a class="usa-button usa-button--outline" href={`${QUEUE_PATH}?${queueQuery(form, { format: 'csv' })}`}>Download these projects as CSV</a>
      </p>
      {view.rows.length === 0 ? <p>No projects match these filters.</p> : (
        <TableBox label={`Projects of ${view.programName}`}>
          <table class="usa-table">
            <caption class="usa-sr-only">Projects of {view.programName}</caption>
            <thead>
              <tr><th scope="col">Project</th>{view.columns.map((c) => <th key={c.id} scope="col">{c.label}</th>)}{p.bulk ? <BulkSelectHeader /> : null}</tr>
            </thead>
            <tbody>
              {view.rows.map((r) => (
                <tr key={r.projectId}>
                  <td><a href={reviewPath(view.programId, r.projectId)}>{r.number ?? `Unsubmitted ${r.projectId}`}</a></td>
                  {view.columns.map((c) => <Cell key={c.id} id={c.id} r={r} timeZone={p.timeZone} />)}
                  {p.bulk ? <BulkSelectCell projectId={r.projectId} label={r.number ?? `Unsubmitted ${r.projectId}`} /> : null}
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      )}
      {p.bulk && view.rows.length > 0 ? <BulkActionForm options={p.bulk} filterQuery={queueQuery(form)} csrfToken={p.csrfToken} /> : null}
      <Pager first={view.atStart ? null : `${QUEUE_PATH}?${queueQuery(form)}`}
        previous={view.previousCursor ? `${QUEUE_PATH}?${queueQuery(form, { cursor: view.previousCursor })}` : null}
        next={view.nextCursor ? `${QUEUE_PATH}?${queueQuery(form, { cursor: view.nextCursor })}` : null} />
    </>
  );
}
