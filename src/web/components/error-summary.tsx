/** One problem of a form: what is wrong, and the id of the control it is about. */
export interface FormProblem { control: string; message: string }

/** The box above a form listing its problems, each a link to its control; nothing when there are none. */
export function ErrorSummary(p: { title: string; problems: FormProblem[] }) {
  if (p.problems.length === 0) return null;
  return (
    <div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabIndex={-1}>
      <h2 id="error-summary-title">{p.title}</h2>
      <ul>{p.problems.map((x) => <li key={x.control + x.message}><a href={`#${x.control}`}>{x.message}</a></li>)}</ul>
    </div>
  );
}
