import { Fragment } from 'preact';
import type { BulkFormOptions } from '../../domain/queue/bulk-action-service.ts';

/** Where the queue's bulk form posts; the result of an action is shown below it (`/<id>?ProgramId=…`). */
export const BULK_PATH = '/Projects/ProjectList/Bulk';

/** The id of the bulk form, which the queue's row checkboxes name in their `form` attribute (they sit in the table). */
export const BULK_FORM_ID = 'bulk-form';

/** The header cell of the queue table's selection column. */
export function BulkSelectHeader() {
  return <th scope="col">Select</th>;
}

/** A queue row's checkbox: part of the bulk form although it sits in the table, labelled with the project. */
export function BulkSelectCell(p: { projectId: string; label: string }) {
  const id = `select-${p.projectId}`;
  return (
    <td>
      <input type="checkbox" id={id} form={BULK_FORM_ID} name="ProjectId" value={p.projectId} />
      <label class="usa-sr-only" for={id}>Select {p.label}</label>
    </td>
  );
}

/** What the bulk form needs besides its options: the queue's current filter (its query string) and the page's CSRF token. */
export interface BulkActionFormProps { options: BulkFormOptions; filterQuery: string; csrfToken: string }

/**
 * The queue's bulk actions as one form that works without script: which projects (the ticked rows, or every project the
 * filter matches, at most `maxProjects`), and one fieldset per action, each with its own submit button. The form's key
 * makes a repeated post (a reload, a double click) show the first one's result instead of acting twice.
 */
export function BulkActionForm(p: BulkActionFormProps) {
  const o = p.options;
  const max = o.maxProjects.toLocaleString('en-US');
  return (
    <form method="post" action={BULK_PATH} id={BULK_FORM_ID} class="action-form bulk-form" aria-labelledby="bulk-title">
      <h2 id="bulk-title">Bulk actions</h2>
      <p class="usa-hint" id="bulk-hint">
        Tick projects in the table, or choose all projects matching the filters. A bulk action takes at most {max} projects.
        Each project is changed on its own, exactly as the single action would change it; the result lists what was done and what was refused, and why.
      </p>
      <input type="hidden" name="_csrf" value={p.csrfToken} />
      <input type="hidden" name="ProgramId" value={o.programId} />
      <input type="hidden" name="BulkKey" value={o.key} />
      <input type="hidden" name="Filter" value={p.filterQuery} />
      <fieldset class="usa-fieldset">
        <legend class="usa-legend">Which projects</legend>
        <div class="usa-radio">
          <input class="usa-radio__input" type="radio" id="bulk-scope-selected" name="Scope" value="selected" checked />
          <label class="usa-radio__label" for="bulk-scope-selected">The projects ticked in the table</label>
        </div>
        <div class="usa-radio">
          <input class="usa-radio__input" type="radio" id="bulk-scope-filter" name="Scope" value="filter" />
          <label class="usa-radio__label" for="bulk-scope-filter">All projects matching the filters (at most {max})</label>
        </div>
      </fieldset>
      {o.may.assign ? (
        <fieldset class="usa-fieldset">
          <legend class="usa-legend">Assign</legend>
          <div class="usa-form-group">
            <label class="usa-label" for="bulk-assignee">Assign to</label>
            <select class="usa-select" id="bulk-assignee" name="Email">
              <option value="">Nobody (unassign)</option>
              {o.assignees.map((a) => <option key={a.email} value={a.email}>{a.name} ({a.email}){a.onlyGroups ? ` — only ${a.onlyGroups.join(', ')}` : ''}</option>)}
            </select>
          </div>
          <button class="usa-button" type="submit" name="Action" value="assign">Assign the projects</button>
        </fieldset>
      ) : null}
      {o.may.status ? (
        <fieldset class="usa-fieldset">
          <legend class="usa-legend">Move status</legend>
          <div class="usa-form-group">
            <label class="usa-label" for="bulk-status">Move to status</label>
            <select class="usa-select" id="bulk-status" name="StatusId">
              {/* No status is chosen until the person chooses one: a default would move projects where nobody meant to. */}
              <option value="">Choose a status</option>
              {o.statuses.map((s) => <option key={s.statusId} value={s.statusId}>{s.name}</option>)}
            </select>
          </div>
          <div class="usa-form-group">
            <label class="usa-label" for="bulk-reason">Reason</label>
            <p class="usa-hint" id="bulk-reason-hint">Some moves require a reason of the status moved to; a project whose move is not allowed is left as it is and listed as refused.</p>
            <select class="usa-select" id="bulk-reason" name="ReasonId" aria-describedby="bulk-reason-hint">
              <option value="">No reason</option>
              {o.statuses.filter((s) => s.reasons.length > 0).map((s) => (
                <optgroup key={s.statusId} label={s.name}>
                  {s.reasons.map((r) => <option key={r.reasonId} value={r.reasonId}>{r.name}</option>)}
                </optgroup>
              ))}
            </select>
          </div>
          <div class="usa-form-group">
            <label class="usa-label" for="bulk-message">Message (optional)</label>
            <textarea class="usa-textarea" id="bulk-message" name="Message" rows={3} />
          </div>
          <button class="usa-button" type="submit" name="Action" value="status">Move the projects</button>
        </fieldset>
      ) : null}
      {o.may.mail && o.templates.length > 0 ? (
        <fieldset class="usa-fieldset">
          <legend class="usa-legend">Send a message</legend>
          <div class="usa-form-group">
            <label class="usa-label" for="bulk-template">Mail template, sent to each project's owner</label>
            <select class="usa-select" id="bulk-template" name="Template">
              {o.templates.map((t) => <option key={t.templateId} value={t.templateId}>{t.subject} ({t.templateId})</option>)}
            </select>
          </div>
          <details>
            <summary>What each template says</summary>
            <dl class="mail-templates">
              {o.templates.map((t) => (
                <Fragment key={t.templateId}>
                  <dt>{t.subject} ({t.templateId})</dt>
                  <dd class="note-text">{t.text}</dd>
                </Fragment>
              ))}
            </dl>
          </details>
          <button class="usa-button" type="submit" name="Action" value="mail">Send the message</button>
        </fieldset>
      ) : null}
      <fieldset class="usa-fieldset">
        <legend class="usa-legend">Export</legend>
        <button type="submit" name="Action" value="export" class="usa-button usa-button--outline">Download the projects as CSV</button>
      </fieldset>
    </form>
  );
}
