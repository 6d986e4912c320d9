import { normaliseRelations, type RawRelation, type RelationSpec } from './relation-file.ts';
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { parse as parseJsonTree, type AnyNode } from '@humanwhocodes/momoa';
import { type Document, isMap, isNode, isScalar, LineCounter, parseDocument, type Scalar } from 'yaml';
import { ApiError } from '../api-error.ts';
import type { AccessGroup, DeadlineDefinition, FieldRules, FieldType, ListColumn, ListRowSource, NamedMailTemplate, ProgramCalendar, ProgramRole, StatusReason } from '../../model/model.ts';
import { type MailTemplate, NOTIFICATION_KINDS, type NotificationTemplates } from '../../model/notification.ts';
import { normaliseTable, type RawTableProps, type TableFileSpec } from './program-table.ts';
import { type AutomationSpec, normaliseAutomations, type RawAutomation } from '../automations/automation-file.ts';
import { normaliseCalendar, normaliseDeadlines, type RawCalendar, type RawDeadline } from './deadline-file.ts';
import { type DocumentSpec, normaliseDocuments, type RawDocument } from './document-file.ts';
import { type ConnectionSpec, normaliseConnections, type RawConnection } from './connection-file.ts';

/** One choice of a custom list. */
export interface ChoiceSpec { value: string; label: string }

/** A custom list as a program file defines it; `rows` when its rows come from a CSV file (choices then empty). */
export interface ListSpec { customId: string | null; name: string; choices: ChoiceSpec[]; rows?: ListRowSource }

/** A data field as a program file defines it; `list` is a reference (customId or name). */
export interface FieldSpec {
  customId: string | null; name: string; type: FieldType; multiValue: boolean; sensitive: boolean;
  list: string | null; group: string | null; maxLength: number | null; min: number | null; max: number | null;
  /** A calculated field's CEL formula, null for others; `type` is then the file's `resultType`. */
  formula: string | null;
  /** The columns and row limits of a table field (program-table.ts); null for other fields. */
  table: TableFileSpec | null;
  /** A summary field: a column of the applicant's My projects, searched there (absent: no). */
  summary?: boolean;
}

/** A workflow status; `next` holds references to other statuses. */
export interface StatusSpec {
  customId: string | null; name: string; publicId: string | null; initial: boolean; next: string[];
  /** The reasons a move into the status may give, whether it must, and its own status-changed mail (src/domain/workflow). */
  reasons: StatusReason[]; reasonRequired: boolean | string[]; mailTemplate: MailTemplate | null;
  /** The applicant's withdrawal: owners may move their submitted project here along `next` (absent: no). */
  withdrawal?: boolean;
}

/** A data field placed on a form, with its rules there (null: none). */
export interface FormFieldSpec { field: string; required: boolean; rules: FieldRules | null }

/** An attachment definition of a form. */
export interface AttachmentSpec { customId: string | null; name: string; allowedTypes: string[]; maxSizeBytes: number; required: boolean }

/** A form; `availableIn`, `leadsTo` and `fields[].field` are references. */
export interface FormSpec {
  customId: string | null; name: string; availableIn: string[]; leadsTo: string | null;
  /** The program roles (built-in or the program's own) that may use the form (admins always may); null for every role. */
  roles: ProgramRole[] | null;
  fields: FormFieldSpec[]; attachments: AttachmentSpec[];
}

/** A role of the program's own: privileges by name; `transitions` (status references) limit moveStatus, null for none. */
export interface RoleSpec { customId: string; name: string; privileges: string[]; transitions: { from: string; to: string[] }[] | null }

/** A whole program file after validation, with every default filled in. */
export interface ProgramFile {
  customId: string; name: string; numberPrefix: string; numberDigits: number;
  customLists: ListSpec[]; fields: FieldSpec[]; statuses: StatusSpec[]; forms: FormSpec[];
  /** The program's own notification mail templates; null for the defaults. */
  notifications: NotificationTemplates | null;
  /** Self-service on the web pages: whether applicants may sign up for the program. */
  selfService: { signUp: boolean };
  /** Where a part of the file was written, for messages (absent when the file came as data, not text). */
  locate?: SourceLocator;
  /** The program's own roles (`roles:`), beyond the built-in ones. */
  roles: RoleSpec[];
  /** The program's automations (`automations:`), in file order. */
  automations: AutomationSpec[];
  /** Named mail templates (`mailTemplates:`) that automations send by customId. */
  mailTemplates: NamedMailTemplate[];
  /** The agency calendar (`calendar:`, program-deadlines.ts); null or absent for the default. */
  calendar?: ProgramCalendar | null;
  /** The program's deadlines (`deadlines:`); untilField holds a field reference. */
  deadlines?: DeadlineDefinition[];
  /** The program's document templates (`documents:`, src/domain/documents); absent or empty for none. */
  documents?: DocumentSpec[];
  /** The program's relations (`relations:`, src/domain/relations); absent or empty for none. */
  relations?: RelationSpec[];

  /** The program's connections to the agency's own systems (`connections:`, src/domain/connections); absent or empty for none. */
  connections?: ConnectionSpec[];

  /** The program's access groups (`accessGroups:`, src/domain/access-groups); absent or empty for none. */
  accessGroups?: AccessGroup[];
}

/**
 * The line and column (1-based) where the value at a path of the file starts, and how its text is written; a block
 * text (`|`) also gives the indentation of its lines, which start on the line after its indicator.
 */
export interface SourcePosition { line: number; column: number; style: 'plain' | 'quoted' | 'block' | 'other'; indent?: number }

/**
 * Finds where the value at a path (e.g. `['forms', 0, 'fields', 3, 'visibleIf']`) was written; with `at`, where its key
 * was written (`'key'`) or a place inside its text (line and column of the value, 1-based). Null when unknown.
 */
export type SourceLocator = (path: (string | number)[], at?: 'key' | TextPlace) => SourcePosition | null;

/** A place in a text value: its line and column (1-based) within the value itself. */
export interface TextPlace { line: number; column: number }

/** The text formats a program file may be written in. */
export type ProgramFileFormat = 'yaml' | 'json';

/** The default size limit of an attachment when a file leaves it out (10 MiB). */
export const DEFAULT_ATTACHMENT_BYTES = 10 * 1024 * 1024;

/** Where the published JSON Schema of program files lives. */
export const PROGRAM_SCHEMA_URL = new URL('../../../schemas/program.schema.json', import.meta.url);

// Compiled once per process, when the first program file is read: the compile costs a fifth to half a second of CPU,
// which a process that never reads one (a server without --demo, most commands, most test files) need not pay at start.
// The schema is data shipped with the code, not configuration.
let compiled: ValidateFunction | undefined;

function validateSchema(): ValidateFunction {
  compiled ??= new Ajv2020({ allErrors: true, strict: true }).compile(JSON.parse(readFileSync(PROGRAM_SCHEMA_URL, 'utf8')) as object);
  return compiled;
}

const PATTERN_HINTS: Record<string, string> = {
  '^[A-Za-z0-9_.~-]{1,64}$': 'must be 1 to 64 characters of A-Z, a-z, 0-9, "_", ".", "~" or "-"',
  '^[A-Z0-9]{1,16}$': 'must be 1 to 16 upper-case letters or digits',
  '\\S': 'must not be blank',
  '^[A-Za-z_][A-Za-z0-9_]{0,63}$': 'must be a name of 1 to 64 letters, digits or "_", not starting with a digit',
  '^[A-Za-z0-9!#$&^_.+-]+/[A-Za-z0-9!#$&^_.+*-]+$': 'must be a MIME type such as application/pdf',
};

/** The format a file name implies: `.json` is JSON, anything else YAML. */
export function formatOfPath(path: string): ProgramFileFormat {
  return /\.json$/i.test(path) ? 'json' : 'yaml';
}

/** Parses, validates and normalises a program file; throws ApiError INVALID_REQUEST listing every problem. */
export function parseProgramFile(text: string, format: ProgramFileFormat = 'yaml', source = 'program file'): ProgramFile {
  const { data, locate } = parseText(text, format, source);
  return { ...validateProgramFile(data, source, locate), locate };
}

/** Validates already-parsed data against the schema and fills in defaults; `locate` places each problem in the text. */
export function validateProgramFile(data: unknown, source = 'program file', locate?: SourceLocator): ProgramFile {
  const validate = validateSchema();
  if (!validate(data)) {
    const problems = [...new Set((validate.errors ?? []).map((e) => describeError(e, data, locate)).filter((m) => m !== null))];
    throw invalidFile(source, problems);
  }
  return normalise(data as RawProgram);
}

/** The ApiError for a program file with problems: one line per problem. */
export function invalidFile(source: string, problems: string[]): ApiError {
  const noun = problems.length === 1 ? 'problem' : 'problems';
  return new ApiError('INVALID_REQUEST', `${source} is not a valid program (${problems.length} ${noun}):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
}

function parseText(text: string, format: ProgramFileFormat, source: string): { data: unknown; locate: SourceLocator } {
  if (format === 'json') {
    try {
      return { data: JSON.parse(text) as unknown, locate: jsonLocator(text) };
    } catch (error) {
      throw invalidFile(source, [`not valid JSON${jsonErrorPlace(text)}: ${(error as Error).message}`]);
    }
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true, lineCounter });
  // prettyErrors appends a code excerpt after the first line; the first line already names line and column.
  if (doc.errors.length > 0) throw invalidFile(source, doc.errors.map((e) => `not valid YAML: ${e.message.split('\n')[0]!.replace(/:$/, '')}`));
  return { data: doc.toJS({ maxAliasCount: 100 }) as unknown, locate: yamlLocator(doc, lineCounter, text) };
}

const YAML_STYLES: Record<string, SourcePosition['style']> = {
  PLAIN: 'plain', QUOTE_DOUBLE: 'quoted', QUOTE_SINGLE: 'quoted', BLOCK_LITERAL: 'block', BLOCK_FOLDED: 'other',
};

function yamlLocator(doc: Document, lines: LineCounter, text: string): SourceLocator {
  return (path, at) => {
    const node = at === 'key' ? keyNode(doc, path) : doc.getIn(path, true);
    if (!isNode(node) || !node.range) return null;
    const { line, col } = lines.linePos(node.range[0]);
    const style = YAML_STYLES[(node as Scalar).type ?? ''] ?? 'other';
    const start = { line, column: col, style };
    if (at === 'key') return start;
    if (style === 'block') {
      const place = inBlock(text, line, at ?? { line: 1, column: 1 });
      if (place === null) return start;
      return at === undefined ? { ...start, indent: place.column - 1 } : place;
    }
    if (at === undefined) return start;
    const end = lines.linePos(node.range[1]);
    // Only a value written on one line maps column for column; a folded one keeps its start.
    if (at.line !== 1 || end.line !== line || style === 'other') return start;
    return { ...start, column: col + rawOffset(text.slice(node.range[0], node.range[1]), at.column - 1) };
  };
}

// The key node of the last step of `path` (a map's pair), for a problem about the key itself, such as an unknown one.
function keyNode(doc: Document, path: (string | number)[]): unknown {
  const parent = path.length > 1 ? doc.getIn(path.slice(0, -1), true) : doc.contents;
  if (!isMap(parent)) return null;
  const pair = parent.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === path[path.length - 1]);
  return pair?.key ?? null;
}

// A block scalar's text starts on the line after its indicator, each line indented as much as its first non-blank one.
function inBlock(text: string, indicatorLine: number, at: TextPlace): SourcePosition | null {
  const after = text.split('\n').slice(indicatorLine);
  const first = after.find((l) => l.trim() !== '');
  if (first === undefined) return null;
  const indent = first.length - first.trimStart().length;
  return { line: indicatorLine + at.line, column: indent + at.column, style: 'block' };
}

/**
 * How many characters of a quoted or plain value's source (`raw`, quotes included) come before the value's
 * character at `offset`: escapes ("\\u00e9", "''") take more source than value.
 */
function rawOffset(raw: string, offset: number): number {
  const quote = raw[0] === '"' || raw[0] === "'" ? raw[0] : null;
  let i = quote === null ? 0 : 1;
  for (let n = 0; n < offset && i < raw.length; n++) {
    if (quote === '"' && raw[i] === '\\') i += ({ x: 4, u: 6, U: 10 } as Record<string, number>)[raw[i + 1] ?? ''] ?? 2;
    else if (quote === "'" && raw[i] === "'" && raw[i + 1] === "'") i += 2;
    else i += 1;
  }
  return i;
}

function jsonLocator(text: string): SourceLocator {
  let tree: AnyNode | null = null;
  return (path, at) => {
    tree ??= parseJsonTree(text, { mode: 'json' }).body;
    let node: AnyNode | undefined = tree;
    let key: AnyNode | undefined;
    for (const step of path) {
      key = undefined;
      if (node?.type === 'Object') {
        const member: { name: AnyNode; value: AnyNode } | undefined = node.members.find((m) => m.name.type === 'String' && m.name.value === step);
        key = member?.name;
        node = member?.value;
      } else if (node?.type === 'Array' && typeof step === 'number') node = node.elements[step]?.value;
      else node = undefined;
    }
    if (at === 'key') node = key;
    if (!node) return null;
    const start = { line: node.loc.start.line, column: node.loc.start.column, style: node.type === 'String' ? 'quoted' as const : 'other' as const };
    if (at === undefined || at === 'key' || node.type !== 'String') return start;
    // A JSON string is one line of the file, its line breaks written "\n": a place in its text is a column there.
    const offset = node.value.split('\n').slice(0, at.line - 1).reduce((n, l) => n + l.length + 1, 0) + at.column - 1;
    return { ...start, column: start.column + rawOffset(text.slice(node.loc.start.offset, node.loc.end.offset), offset) };
  };
}

// JSON.parse names no line; the JSON tree parser does.
function jsonErrorPlace(text: string): string {
  try {
    parseJsonTree(text, { mode: 'json' });
  } catch (error) {
    const { line, column } = error as { line?: number; column?: number };
    if (typeof line === 'number' && typeof column === 'number') return ` (line ${line}, column ${column})`;
  }
  return '';
}

function describeError(e: ErrorObject, data: unknown, locate?: SourceLocator): string | null {
  // if/then/else only selects a branch; the branch's own errors say what is wrong.
  if (e.keyword === 'if') return null;
  const params = e.params as Record<string, unknown>;
  const path = pathOf(data, e.instancePath);
  // An unknown property is placed at its key; a missing one at the object that lacks it; anything else at its value.
  const place = e.keyword === 'additionalProperties' ? locate?.([...path, String(params.additionalProperty)], 'key') : locate?.(path);
  const where = `${describePath(data, e.instancePath)}${place ? ` (line ${place.line}, column ${place.column})` : ''}`;
  switch (e.keyword) {
    case 'additionalProperties': return `${where}: unknown property "${String(params.additionalProperty)}"`;
    case 'required': return `${where}: missing required property "${String(params.missingProperty)}"`;
    case 'false schema': return `${where}: only calculated fields have this property`;
    case 'enum': return `${where}: must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'pattern': return `${where}: ${PATTERN_HINTS[String(params.pattern)] ?? e.message}`;
    case 'type':
      // The else branch of a string-or-object item (or of a status's reasonRequired, true or a list): neither shape fits.
      if (e.schemaPath.endsWith('/else/type')) return `${where}: ${params.type === 'array' ? 'must be true, false or a list of statuses' : 'must be a string or an object'}`;
      return `${where}: ${e.message}`;
    default: return `${where}: ${e.message ?? e.keyword}`;
  }
}

/** Turns `/fields/3/type` into `['fields', 3, 'type']` (a number where the data holds a list). */
function pathOf(data: unknown, pointer: string): (string | number)[] {
  const path: (string | number)[] = [];
  let node: unknown = data;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path.push(Array.isArray(node) && /^\d+$/.test(key) ? Number(key) : key);
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  return path;
}

/** Turns `/fields/3/type` into `fields[3].type ("Customer name")`, naming the innermost item that has a name. */
function describePath(data: unknown, pointer: string): string {
  if (pointer === '') return '(top level)';
  let node: unknown = data;
  let path = '';
  let label: string | null = null;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(key) && Array.isArray(node) ? `[${key}]` : path === '' ? key : `.${key}`;
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    if (Array.isArray(node) || node === null || typeof node !== 'object') continue;
    const item = node as Record<string, unknown>;
    const name = item.customId ?? item.name;
    if (typeof name === 'string') label = name;
  }
  return label === null ? path : `${path} ("${label}")`;
}

type RawChoice = string | { value: string; label?: string };
type RawFormField = string | {
  field: string; required?: boolean; visibleIf?: string; requiredIf?: string; readOnlyIf?: string;
  validations?: { rule: string; message: string }[];
};
type RawField = Omit<Partial<FieldSpec>, 'name' | 'type' | 'formula' | 'table'> & RawTableProps & {
  name: string; type: FieldType | 'calculated'; formula?: string; resultType?: FieldType;
};
interface RawProgram {
  customId: string; name: string; numberPrefix: string; numberDigits?: number;
  customLists?: {
    customId?: string; name: string; choices?: RawChoice[];
    rows?: 'csv'; key?: string; label?: string; columns?: { name: string; type?: ListColumn['type'] }[];
  }[];
  fields?: RawField[];
  statuses: {
    customId?: string; name: string; publicId?: string; initial?: boolean; next?: string[]; withdrawal?: boolean;
    reasons?: StatusReason[]; reasonRequired?: boolean | string[]; mailTemplate?: MailTemplate;
  }[];
  mailTemplates?: NamedMailTemplate[];
  forms?: {
    customId?: string; name: string; availableIn: string[]; leadsTo?: string; roles?: ProgramRole[]; fields?: RawFormField[];
    attachments?: { customId?: string; name: string; allowedTypes: string[]; maxSizeBytes?: number; required?: boolean }[];
  }[];
  notifications?: NotificationTemplates;
  selfService?: { signUp?: boolean };
  roles?: { customId: string; name: string; privileges: string[]; transitions?: { from: string; to: string[] }[] }[];
  automations?: RawAutomation[];
  calendar?: RawCalendar;
  deadlines?: RawDeadline[];
  documents?: RawDocument[];
  relations?: RawRelation[];

  connections?: RawConnection[];

  accessGroups?: AccessGroup[];
}

function normalise(raw: RawProgram): ProgramFile {
  return {
    customId: raw.customId, name: raw.name, numberPrefix: raw.numberPrefix, numberDigits: raw.numberDigits ?? 5,
    customLists: (raw.customLists ?? []).map((l) => ({
      customId: l.customId ?? null, name: l.name,
      choices: (l.choices ?? []).map((c) => (typeof c === 'string' ? { value: c, label: c } : { value: c.value, label: c.label ?? c.value })),
      ...rowSourceOf(l),
    })),
    fields: (raw.fields ?? []).map((f) => ({
      // A calculated field is stored as a field of its result type with a formula (program-check names a missing one).
      customId: f.customId ?? null, name: f.name, type: f.type === 'calculated' ? (f.resultType ?? 'text') : f.type,
      multiValue: f.multiValue ?? false, sensitive: f.sensitive ?? false, list: f.list ?? null, group: f.group ?? null,
      maxLength: f.maxLength ?? null, min: f.min ?? null, max: f.max ?? null,
      formula: f.type === 'calculated' ? (f.formula ?? '') : (f.formula ?? null),
      table: normaliseTable(f),
      ...(f.summary ? { summary: true } : {}),
    })),
    statuses: raw.statuses.map((s) => ({
      customId: s.customId ?? null, name: s.name, publicId: s.publicId ?? null, initial: s.initial ?? false, next: s.next ?? [],
      reasons: (s.reasons ?? []).map((r) => ({ customId: r.customId, name: r.name })), reasonRequired: Array.isArray(s.reasonRequired) ? [...s.reasonRequired] : (s.reasonRequired ?? false),
      mailTemplate: s.mailTemplate ? { subject: s.mailTemplate.subject, text: s.mailTemplate.text } : null,
      ...(s.withdrawal ? { withdrawal: true } : {}),
    })),
    forms: (raw.forms ?? []).map((f) => ({
      customId: f.customId ?? null, name: f.name, availableIn: f.availableIn, leadsTo: f.leadsTo ?? null,
      roles: f.roles ? [...new Set(f.roles)] : null,
      fields: (f.fields ?? []).map((ff) => (typeof ff === 'string'
        ? { field: ff, required: false, rules: null }
        : { field: ff.field, required: ff.required ?? false, rules: rulesOf(ff) })),
      attachments: (f.attachments ?? []).map((a) => ({
        customId: a.customId ?? null, name: a.name, allowedTypes: a.allowedTypes,
        maxSizeBytes: a.maxSizeBytes ?? DEFAULT_ATTACHMENT_BYTES, required: a.required ?? false,
      })),
    })),
    notifications: canonicalTemplates(raw.notifications),
    selfService: { signUp: raw.selfService?.signUp ?? false },
    roles: (raw.roles ?? []).map((r) => ({
      customId: r.customId, name: r.name, privileges: [...new Set(r.privileges)],
      transitions: r.transitions ? r.transitions.map((t) => ({ from: t.from, to: t.to })) : null,
    })),
    automations: normaliseAutomations(raw.automations),
    mailTemplates: (raw.mailTemplates ?? []).map((t) => ({ customId: t.customId, subject: t.subject, text: t.text })),
    calendar: normaliseCalendar(raw.calendar),
    deadlines: normaliseDeadlines(raw.deadlines),
    documents: normaliseDocuments(raw.documents),
    relations: normaliseRelations(raw.relations),

    connections: normaliseConnections(raw.connections),

    accessGroups: (raw.accessGroups ?? []).map((g) => ({ customId: g.customId, name: g.name, if: g.if })),
  };
}

// A list of `rows: csv` (program-check names a missing key or columns); the label is the key when left out.
function rowSourceOf(l: NonNullable<RawProgram['customLists']>[number]): { rows?: ListRowSource } {
  if (l.rows !== 'csv') return {};
  const key = l.key ?? '';
  return { rows: { key, label: l.label ?? key, columns: (l.columns ?? []).map((c) => ({ name: c.name, type: c.type ?? 'text' })) } };
}

/** A form field's rules, or null when it has none (so that a file without rules compares equal to a stored one). */
export function rulesOf(ff: Partial<FieldRules>): FieldRules | null {
  const rules: FieldRules = {
    visibleIf: ff.visibleIf ?? null, requiredIf: ff.requiredIf ?? null, readOnlyIf: ff.readOnlyIf ?? null,
    validations: (ff.validations ?? []).map((v) => ({ rule: v.rule, message: v.message })),
  };
  const none = rules.visibleIf === null && rules.requiredIf === null && rules.readOnlyIf === null && rules.validations.length === 0;
  return none ? null : rules;
}

/** The templates in one order (kinds, then subject and text), so that a stored copy compares equal to the file's. */
function canonicalTemplates(raw: NotificationTemplates | undefined): NotificationTemplates | null {
  if (!raw) return null;
  const out: NotificationTemplates = {};
  for (const kind of NOTIFICATION_KINDS) {
    const t = raw[kind];
    if (t) out[kind] = { subject: t.subject, text: t.text };
  }
  return Object.keys(out).length > 0 ? out : null;
}
