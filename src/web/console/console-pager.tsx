/** The links between the pages of a console list kept newest first: back to the newest, and on to older rows. */
export interface ConsolePagerProps {
  /** The navigation's name, e.g. "Audit trail pages". */
  label: string;
  /** What the list holds, e.g. "changes": the links read "Newest changes" and "Older changes". */
  noun: string;
  /** The first page's address, shown on a later page; null on the first. */
  newest: string | null;
  /** The next (older) page's address; null on the last. */
  older: string | null;
}

/** A console list's pagination (USWDS), plain links that work without script. */
export function ConsolePager(p: ConsolePagerProps) {
  return (
    <nav aria-label={p.label} class="usa-pagination">
      <ul class="usa-pagination__list">
        {p.newest ? <li class="usa-pagination__item"><a class="usa-pagination__link" href={p.newest}>Newest {p.noun}</a></li> : null}
        {p.older ? <li class="usa-pagination__item"><a class="usa-pagination__link" href={p.older}>Older {p.noun}</a></li> : null}
      </ul>
    </nav>
  );
}
