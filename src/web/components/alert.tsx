import type { ComponentChildren } from 'preact';

/** What an alert says it is: the design system's alert kinds. */
export type AlertKind = 'success' | 'info' | 'warning' | 'error';

/**
 * A notice in the design system's alert pattern. `live` makes it an output element, which screen readers announce
 * (what the last action did); `heading` adds a heading of the given level above the text.
 */
export function Alert(p: { kind: AlertKind; heading?: string; headingLevel?: 2 | 3; live?: boolean; slim?: boolean; role?: 'alert'; children: ComponentChildren }) {
  const cls = `usa-alert usa-alert--${p.kind}${p.slim ? ' usa-alert--slim' : ''}`;
  const Heading = p.headingLevel === 3 ? 'h3' : 'h2';
  const body = (
    <div class="usa-alert__body">
      {p.heading ? <Heading class="usa-alert__heading">{p.heading}</Heading> : null}
      <div class="usa-alert__text">{p.children}</div>
    </div>
  );
  return p.live ? <output class={`${cls} display-block`}>{body}</output> : <div class={cls} role={p.role}>{body}</div>;
}
