import { USWDS_SPRITE_PATH } from '../page-assets.ts';

/** One of the pager's links: where it leads, or null when there is no such page. */
export interface PagerLinks { first?: string | null; previous?: string | null; next?: string | null }

/** An icon of the design system's sprite (same origin, so the CSP's img-src 'self' allows it); decorative. */
export function Icon(p: { name: string }) {
  return <svg class="usa-icon" aria-hidden="true" focusable="false" role="img"><use href={`${USWDS_SPRITE_PATH}#${p.name}`} /></svg>;
}

/** Paging by cursor in the design system's pagination pattern: first, previous and next page, each only where there is one. */
export function Pager(p: PagerLinks) {
  return (
    <nav class="usa-pagination" aria-label="Pages">
      <ul class="usa-pagination__list">
        {p.first ? (
          <li class="usa-pagination__item usa-pagination__page-no">
            <a class="usa-pagination__button" href={p.first}>First page</a>
          </li>
        ) : null}
        {p.previous ? (
          <li class="usa-pagination__item usa-pagination__arrow">
            <a href={p.previous} rel="prev" class="usa-pagination__link usa-pagination__previous-page"><Icon name="navigate_before" /><span class="usa-pagination__link-text">Previous page</span></a>
          </li>
        ) : null}
        {p.next ? (
          <li class="usa-pagination__item usa-pagination__arrow">
            <a href={p.next} rel="next" class="usa-pagination__link usa-pagination__next-page"><span class="usa-pagination__link-text">Next page</span><Icon name="navigate_next" /></a>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
