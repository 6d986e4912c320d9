import type { JSX } from 'preact';
import type { FormFieldView } from '../../domain/projects/application-service.ts';

/** What the control shows: the saved value, or what the user typed when the page comes back with errors. */
export type Shown = string | string[] | null;

/** The id of a field's control (the first radio or checkbox of a group): what the error summary links to. */
export function controlId(fieldId: string): string {
  return `field-${fieldId}`;
}

/** The name of the search box of a field choosing from a long list; its Search button posts `action=search:<fieldId>`. */
export function listSearchName(fieldId: string): string {
  return `_search_${fieldId}`;
}

/** The help text of a field, from the program's rules for it. */
export function fieldHint(f: FormFieldView): string | null {
  const parts: string[] = [];
  const range = f.min !== null && f.max !== null ? ` from ${f.min} to ${f.max}` : f.min !== null ? ` of at least ${f.min}` : f.max !== null ? ` of at most ${f.max}` : '';
  if (f.type === 'number') parts.push(`A number${range}, such as 7.5.`);
  if (f.type === 'integer') parts.push(`A whole number${range}.`);
  if (f.type === 'date') parts.push('A date.');
  if (f.type === 'text' && f.multiValue) parts.push('One value per line.');
  if (f.type === 'text' && f.maxLength !== null) parts.push(`At most ${f.maxLength} characters${f.multiValue ? ' each' : ''}.`);
  if (f.type === 'choice' && f.multiValue) parts.push('Choose all that apply.');
  if (f.sensitive) parts.push('Sensitive: once saved it is shown as ******** ; leave that as it is to keep the saved value.');
  // What the agency's system said of the saved value (a connection's lookup): verified, unknown, or not verified and why.
  if (f.lookup) parts.push(f.lookup.message);
  return parts.length > 0 ? parts.join(' ') : null;
}

function texts(shown: Shown): string[] {
  if (shown === null) return [];
  return Array.isArray(shown) ? shown : [shown];
}

function Label(p: { f: FormFieldView }) {
  return <>{p.f.name}{p.f.required ? <span class="usa-hint usa-hint--required"> (required)</span> : null}</>;
}

/**
 * One data field as a labelled control of its type: text, number and integer inputs (text with a numeric keyboard,
 * so the server sees exactly what was typed), a date input, Yes/No radios, a select or checkboxes for a list, a
 * textarea for multi-value text; its help text and its error beside it, both tied to the control.
 */
export function FieldControl(p: { f: FormFieldView; shown: Shown; error: string | null }) {
  const { f } = p;
  const id = controlId(f.fieldId);
  const hint = fieldHint(f);
  const describedBy = [hint ? `${id}-hint` : null, p.error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  const help = (
    <>
      {hint ? <p class="usa-hint" id={`${id}-hint`}>{hint}</p> : null}
      {p.error ? <p class="usa-error-message" id={`${id}-error`}><span class="usa-sr-only">Error: </span>{p.error}</p> : null}
    </>
  );
  const cls = `usa-form-group${p.error ? ' usa-form-group--error' : ''}`;
  // No control, so the post leaves the field out and it keeps its value (a calculated one is the service's to set).
  if (f.readOnly) {
    const shownText = texts(p.shown).join(', ');
    return (
      <div class={`${cls} read-only`} id={id}>
        <p class="label"><strong>{f.name}</strong>{f.calculated ? ' (calculated)' : ' (cannot be changed now)'}</p>
        <p class="value">{shownText === '' ? '—' : shownText}</p>
        {/* No hint on how to type it: nobody types it here. */}
        {p.error ? <p class="usa-error-message" id={`${id}-error`}><span class="usa-sr-only">Error: </span>{p.error}</p> : null}
      </div>
    );
  }
  const invalid = p.error ? true : undefined;
  const values = texts(p.shown);
  const one = values[0] ?? '';

  if (f.type === 'boolean' && !f.multiValue) {
    const options = [['true', 'Yes'], ['false', 'No'], ...(f.required ? [] : [['', 'Not answered']])] as const;
    return (
      <div class={cls}>
        <fieldset class="usa-fieldset" aria-describedby={describedBy}>
          <legend class="usa-legend"><Label f={f} /></legend>
          {help}
          {options.map(([value, label], i) => (
            <div class="usa-radio" key={value}>
              <input class="usa-radio__input" type="radio" id={i === 0 ? id : `${id}-${i}`} name={f.fieldId} value={value} checked={p.shown !== null && one === value} aria-invalid={invalid} />
              <label class="usa-radio__label" for={i === 0 ? id : `${id}-${i}`}>{label}</label>
            </div>
          ))}
        </fieldset>
      </div>
    );
  }
  if (f.type === 'choice' && f.multiValue) {
    return (
      <div class={cls}>
        <fieldset class="usa-fieldset" aria-describedby={describedBy}>
          <legend class="usa-legend"><Label f={f} /></legend>
          {help}
          {/* An empty value keeps the field in the post when no box is ticked, so unticking them all clears it. */}
          <input type="hidden" name={f.fieldId} value="" />
          {(f.choices ?? []).map((c, i) => (
            <div class="usa-checkbox" key={c.value}>
              <input class="usa-checkbox__input" type="checkbox" id={i === 0 ? id : `${id}-${i}`} name={f.fieldId} value={c.value} checked={values.includes(c.value)} aria-invalid={invalid} />
              <label class="usa-checkbox__label" for={i === 0 ? id : `${id}-${i}`}>{c.label}</label>
            </div>
          ))}
        </fieldset>
      </div>
    );
  }
  if (f.type === 'choice' && f.longList) return <LongListControl f={f} one={one} id={id} cls={cls} help={help} describedBy={describedBy} invalid={invalid} />;
  let control: JSX.Element;
  if (f.type === 'choice') {
    const known = (f.choices ?? []).some((c) => c.value === one);
    control = (
      <select class="usa-select" id={id} name={f.fieldId} aria-describedby={describedBy} aria-invalid={invalid} required={f.required}>
        <option value="">Choose…</option>
        {(f.choices ?? []).map((c) => <option key={c.value} value={c.value} selected={c.value === one}>{c.label}</option>)}
        {/* A saved value the list no longer has stays visible, so saving the page does not silently drop it. */}
        {one !== '' && !known ? <option value={one} selected>{one}</option> : null}
      </select>
    );
  } else if (f.multiValue) {
    control = <textarea class="usa-textarea" id={id} name={f.fieldId} rows={5} aria-describedby={describedBy} aria-invalid={invalid} required={f.required} value={values.join('\n')} />;
  } else {
    const inputMode = f.type === 'number' ? 'decimal' : f.type === 'integer' ? 'numeric' : undefined;
    const common = { id, name: f.fieldId, value: one, 'aria-describedby': describedBy, 'aria-invalid': invalid, required: f.required };
    control = f.type === 'date'
      ? <input class="usa-input" type="date" {...common} />
      : <input class="usa-input" type="text" {...common} inputMode={inputMode} autocomplete={f.sensitive ? 'off' : undefined} />;
  }
  return (
    <div class={cls}>
      <label class="usa-label" for={id}>{f.name}{f.required ? <span class="usa-hint usa-hint--required"> (required)</span> : null}</label>
      {help}
      {control}
    </div>
  );
}

/**
 * A field choosing from a long list (thousands of rows loaded from CSV): a search box whose Search button posts the
 * page back (nothing saved, everything typed kept) to offer the first matches in the select below it, with the value
 * chosen so far. It works without script: the server searches.
 */
function LongListControl(p: { f: FormFieldView; one: string; id: string; cls: string; help: JSX.Element; describedBy: string | undefined; invalid: true | undefined }) {
  const { f, id } = p;
  const list = f.longList!;
  const choices = f.choices ?? [];
  const searchId = `${id}-search`;
  const found = choices.filter((c) => c.value !== p.one).length;
  const result = list.query === null ? null
    : found === 0 ? `No row of ${list.name} matches "${list.query}".`
    : list.more ? `The first ${found} rows matching "${list.query}" are offered below; type more words to narrow the search.`
    : `${found} ${found === 1 ? 'row matches' : 'rows match'} "${list.query}"; choose below.`;
  return (
    <div class={p.cls}>
      <fieldset class="usa-fieldset long-list" aria-describedby={p.describedBy}>
        <legend class="usa-legend"><Label f={f} /></legend>
        {p.help}
        <label class="usa-label" for={searchId}>Search {list.name} ({list.rows} rows)</label>
        <p class="usa-hint" id={`${searchId}-hint`}>Type words of the model or maker, such as "SE7600" or "sunny boy 7.7", and press Search.</p>
        <div class="long-list__search">
          <input class="usa-input" type="search" id={searchId} name={listSearchName(f.fieldId)} value={list.query ?? ''} aria-describedby={`${searchId}-hint`} maxLength={200} />
          <button class="usa-button usa-button--outline" type="submit" name="action" value={`search:${f.fieldId}`} formNoValidate>Search</button>
        </div>
        {result ? <output class="usa-hint display-block">{result}</output> : null}
        <label class="usa-label" for={id}>{f.name}</label>
        <select class="usa-select" id={id} name={f.fieldId} aria-invalid={p.invalid} required={f.required}>
          <option value="">{choices.length === 0 ? 'Search the list first' : 'Choose…'}</option>
          {choices.map((c) => <option key={c.value} value={c.value} selected={c.value === p.one}>{c.label}</option>)}
        </select>
      </fieldset>
    </div>
  );
}
