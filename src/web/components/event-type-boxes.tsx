import { EVENT_TYPES } from '../../model/event.ts';

/** The kinds of event a webhook subscription is sent, as ticked checkboxes named EventType (none ticked: every kind). */
export function EventTypeBoxes(p: { idPrefix: string; chosen: readonly string[] }) {
  return (
    <fieldset class="usa-fieldset">
      <legend class="usa-legend">Event types (none ticked: every type)</legend>
      {EVENT_TYPES.map((t) => (
        <div class="usa-checkbox" key={t}>
          <input class="usa-checkbox__input" type="checkbox" id={`${p.idPrefix}-${t}`} name="EventType" value={t} checked={p.chosen.includes(t)} />
          <label class="usa-checkbox__label" for={`${p.idPrefix}-${t}`}>{t}</label>
        </div>
      ))}
    </fieldset>
  );
}
