import type { ComponentChildren } from 'preact';

/**
 * A table's scroll box (the design system's scrollable table container): on a narrow screen the table scrolls sideways
 * in it, not the page. A region with a name that takes focus, so a keyboard can scroll it (axe: scrollable-region-focusable).
 */
export function TableBox(p: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so a keyboard can scroll it
    <section class="usa-table-container--scrollable" aria-label={p.label} tabIndex={0}>
      {p.children}
    </section>
  );
}
