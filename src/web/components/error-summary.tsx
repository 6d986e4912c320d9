/** One problem of a form: what is wrong, and the id of the control to fix it in. */
export interface FormProblem { message: string; fieldId: string }

/**
 * The box at the top of a form that failed, as the design system's error alert: announced to screen readers as an
 * alert, each problem a link that moves the focus to its control (GOV.UK's error summary pattern).
 */
export function ErrorSummary(p: { title: string; problems: FormProblem[] }) {
  if (p.problems.length === 0) return null;
  return (
    <div class="usa-alert usa-alert--error" role="alert" aria-labelledby="error-summary-title" tabIndex={-1}>
      <div class="usa-alert__body">
        <h2 class="usa-alert__heading" id="error-summary-title">{p.title}</h2>
        <ul class="usa-list">{p.problems.map((x) => <li key={x.fieldId + x.message}><a href={`#${x.fieldId}`}>{x.message}</a></li>)}</ul>
      </div>
    </div>
  );
}
