import type { Liquid, Template } from 'liquidjs';

/** What a project gives a template under `project`. */
export const PROJECT_KEYS = ['number', 'status', 'statusDate', 'reason', 'message', 'createdDate', 'submittedDate'] as const;
/** What the program gives under `program`, and the owner under `owner`. */
export const PROGRAM_KEYS = ['name'] as const;
export const OWNER_KEYS = ['name', 'email'] as const;

/** What every list and text value answers in Liquid besides its items. */
const LIST_PROPERTIES = ['size', 'first', 'last'];

/** A field a template may name under `fields`: by its customId (or its name when it has none). */
export interface TemplateField { key: string; sensitive: boolean; columns: string[] | null }

/** The variables a template may use: the program's fields and deadlines, and whether it is a page header or footer. */
export interface TemplateVocabulary {
  fields: TemplateField[]; deadlines: string[];
  /** The customIds of sensitive fields the template lists (`sensitiveFields`); the others are refused. */
  sensitiveAllowed: Set<string>;
  /** A header or footer also has `page` and `pages`. */
  pageNumbers: boolean;
}

/** One problem of a template's variables, at its line and column within the template's text. */
export interface VariableProblem { line: number; column: number; message: string }

/**
 * Checks every variable a parsed template reads from outside itself (Liquid's static analysis) against the
 * vocabulary: unknown roots, fields, deadlines and properties are refused, and so are sensitive fields not listed.
 */
export function variableProblems(liquid: Liquid, templates: Template[], vocabulary: TemplateVocabulary): VariableProblem[] {
  const { globals } = liquid.analyzeSync(templates, { partials: false });
  const problems: VariableProblem[] = [];
  for (const uses of Object.values(globals)) {
    for (const v of uses) {
      const message = segmentProblem(v.toArray(), vocabulary);
      if (message !== null) problems.push({ line: v.location.row, column: v.location.col, message });
    }
  }
  return problems.sort((a, b) => a.line - b.line || a.column - b.column);
}


function segmentProblem(segments: (string | number | unknown[])[], vocabulary: TemplateVocabulary): string | null {
  const [root, key, ...rest] = segments;
  const name = pathText(segments);
  const scalar = (allowed: readonly string[], what: string) => {
    if (typeof key !== 'string' || !allowed.includes(key)) return `unknown variable "${name}": ${what} has ${allowed.map((k) => `${String(root)}.${k}`).join(', ')}`;
    return deeper(rest, name);
  };
  switch (root) {
    case 'project': return scalar(PROJECT_KEYS, 'a project');
    case 'program': return scalar(PROGRAM_KEYS, 'the program');
    case 'owner': return scalar(OWNER_KEYS, 'the owner');
    case 'today': return key === undefined ? null : deeper([key, ...rest], name);
    case 'page':
    case 'pages': return vocabulary.pageNumbers ? (key === undefined ? null : deeper([key, ...rest], name)) : `unknown variable "${name}": page numbers are for a header or footer`;
    case 'deadlines': {
      if (typeof key !== 'string') return `"${name}": name a deadline, as deadlines.CUSTOMID`;
      if (!vocabulary.deadlines.includes(key)) return `unknown variable "${name}": no deadline has the customId "${key}"`;
      return deeper(rest, name);
    }
    case 'fields': {
      if (typeof key !== 'string') return `"${name}": name a field, as fields.CUSTOMID`;
      const field = vocabulary.fields.find((f) => f.key === key);
      if (!field) return `unknown variable "${name}": no field has the customId "${key}"`;
      if (field.sensitive && !vocabulary.sensitiveAllowed.has(key)) return `"${name}": field "${key}" is sensitive; list it under sensitiveFields to show it`;
      return field.columns === null ? deeper(rest, name) : rowProblem(rest, field.columns, name);
    }
    default: return `unknown variable "${name}": a template has project, fields, deadlines, program, owner, today${vocabulary.pageNumbers ? ', page, pages' : ''}`;
  }
}

// A table field is a list of rows: an index (or first, last) then a column's customId.
function rowProblem(rest: unknown[], columns: string[], name: string): string | null {
  if (rest.length === 0 || (rest.length === 1 && LIST_PROPERTIES.includes(String(rest[0])))) return null;
  const [, column, ...more] = rest;
  if (column === undefined) return null;
  if (typeof column !== 'string' || !columns.includes(column)) return `unknown variable "${name}": the table has the columns ${columns.join(', ')}`;
  return deeper(more, name);
}

function deeper(rest: unknown[], name: string): string | null {
  if (rest.length === 0) return null;
  if (rest.length === 1 && LIST_PROPERTIES.includes(String(rest[0]))) return null;
  return `unknown variable "${name}"`;
}

function pathText(segments: unknown[]): string {
  return segments.map((s, i) => (typeof s === 'number' ? `[${s}]` : Array.isArray(s) ? `[${pathText(s)}]` : i === 0 ? String(s) : `.${String(s)}`)).join('');
}
