import type { ProgramDefinitionRows } from '../../model/records.ts';
import type { AccessGroup, AttachmentDefinition } from '../../model/model.ts';
import { diffRoles } from './program-roles.ts';
import { diffAutomations } from '../automations/check-automations.ts';
import { namedTemplatesOf, statusMessagesOf } from '../workflow/status-reasons.ts';
import { diffDeadlines } from './program-deadlines.ts';
import { diffDocuments } from './program-documents.ts';
import { diffConnections } from './program-connections.ts';
import type { DefinitionChange, DefinitionKind } from './program-parts.ts';


/** A stored definition and which of its rows are active (the rest are retired). */
export interface StoredDefinition { rows: ProgramDefinitionRows; active: Set<string> }

interface Row { id: string; customId: string | null; name: string }

interface KindSpec<T extends Row> {
  kind: DefinitionKind;
  rows: (def: ProgramDefinitionRows) => T[];
  /** The compared properties; position is left out so that one insertion does not "update" every later part. */
  canonical: (row: T) => Record<string, unknown>;
  /** Whether `rows` come in a meaningful order (custom lists have none). */
  ordered: boolean;
}

const KINDS = [
  kind('list', (d) => d.lists, (l) => ({ customId: l.customId, name: l.name, choices: l.choices, ...(l.rows ? { rows: l.rows } : {}) }), false),
  kind('status', (d) => [...d.statuses].sort(byPosition), (s) => ({
    customId: s.customId, name: s.name, publicId: s.publicId, initial: s.isInitial, next: [...s.next].sort(),
    ...statusMessagesOf(s), withdrawal: s.withdrawal === true,
  }), true),
  // Keys a stored row carries only when set are compared as set or not, so that clearing one is a change too.
  kind('field', (d) => [...d.fields].sort(byPosition), ({ id: _id, position: _p, listId, formula, summary, ...rest }) => ({ ...rest, list: listId, formula: formula ?? null, summary: summary === true }), true),
  kind('form', (d) => [...d.forms].sort(byPosition), (f) => ({
    customId: f.customId, name: f.name, leadsTo: f.leadsToStatusId, availableIn: [...f.availableIn].sort(),
    roles: f.roles === null ? null : [...f.roles].sort(),
    fields: f.fields.map((ff) => [ff.fieldId, ff.required]),
    rules: f.fields.filter((ff) => ff.rules).map((ff) => [ff.fieldId, ff.rules]),
  }), true),
  kind('attachment', attachmentsOf, ({ id: _id, position: _p, ...rest }) => rest, true),
];

function kind<T extends Row>(
  k: DefinitionKind, rows: KindSpec<T>['rows'], canonical: KindSpec<T>['canonical'], ordered: boolean,
): KindSpec<Row> {
  return { kind: k, rows, canonical, ordered } as unknown as KindSpec<Row>;
}

function attachmentsOf(def: ProgramDefinitionRows): AttachmentDefinition[] {
  return [...def.forms].sort(byPosition).flatMap((f) => [...f.attachments].sort(byPosition));
}

function byPosition(a: { position: number }, b: { position: number }): number {
  return a.position - b.position;
}

/** Every difference between a stored definition (null for a new program) and the rows an import would write. */
export function diffDefinition(before: StoredDefinition | null, after: ProgramDefinitionRows): DefinitionChange[] {
  const changes = diffProgram(before?.rows ?? null, after);
  const refs = refLabels(before?.rows ?? null, after);
  for (const spec of KINDS) changes.push(...diffKind(spec, before, after, refs));
  changes.push(...diffRoles(before?.rows.program.roles ?? [], after.program.roles ?? []));
  changes.push(...diffAutomations(before?.rows.program.automations ?? [], after.program.automations ?? []));
  changes.push(...diffDeadlines(before?.rows.program ?? null, after.program));
  changes.push(...diffDocuments(before?.rows.program ?? null, after.program));
  changes.push(...diffConnections(before?.rows.program ?? null, after.program));
  changes.push(...diffAccessGroups(before?.rows.program.accessGroups ?? [], after.program.accessGroups ?? []));
  return changes;
}

function diffProgram(before: ProgramDefinitionRows | null, after: ProgramDefinitionRows): DefinitionChange[] {
  const ref = after.program.customId;
  if (!before) return [{ kind: 'program', action: 'created', ref, properties: [] }];
  const pick = (d: ProgramDefinitionRows) => ({
    name: d.program.name, numberPrefix: d.program.numberPrefix, numberDigits: d.program.numberDigits,
    notifications: d.program.notifications ?? null, selfSignUp: d.program.selfSignUp ?? false,
    mailTemplates: namedTemplatesOf(d.program),
    relations: d.program.relations ?? [],
  });
  const properties = changedKeys(pick(before), pick(after));
  return properties.length > 0 ? [{ kind: 'program', action: 'updated', ref, properties }] : [];
}

function diffKind(spec: KindSpec<Row>, before: StoredDefinition | null, after: ProgramDefinitionRows, refs: Map<string, string>): DefinitionChange[] {
  const old = new Map((before ? spec.rows(before.rows) : []).map((r) => [r.id, r]));
  const active = before?.active ?? new Set<string>();
  const changes: DefinitionChange[] = [];
  const ref = (r: Row) => refs.get(r.id) ?? r.customId ?? r.name;
  const next = spec.rows(after);
  for (const row of next) {
    const prior = old.get(row.id);
    const properties = prior ? changedKeys(spec.canonical(prior), spec.canonical(row)) : [];
    if (!prior) changes.push({ kind: spec.kind, action: 'created', ref: ref(row), properties });
    // A retired row lost its links (choices, transitions, form layout), so comparing with it says nothing useful.
    else if (!active.has(row.id)) changes.push({ kind: spec.kind, action: 'restored', ref: ref(row), properties: [] });
    else if (properties.length > 0) changes.push({ kind: spec.kind, action: 'updated', ref: ref(row), properties });
  }
  const kept = new Set(next.map((r) => r.id));
  for (const row of old.values()) {
    if (active.has(row.id) && !kept.has(row.id)) changes.push({ kind: spec.kind, action: 'retired', ref: ref(row), properties: [] });
  }
  if (spec.ordered && before && reordered(spec.rows(before.rows).filter((r) => active.has(r.id)), next)) {
    changes.push({ kind: spec.kind, action: 'reordered', ref: '', properties: [] });
  }
  return changes;
}

/** True when parts present both before and after appear in a different relative order (both lists in order). */
function reordered(before: Row[], after: Row[]): boolean {
  const afterIds = new Set(after.map((r) => r.id));
  const beforeIds = new Set(before.map((r) => r.id));
  const a = before.map((r) => r.id).filter((id) => afterIds.has(id));
  const b = after.map((r) => r.id).filter((id) => beforeIds.has(id));
  return a.join() !== b.join();
}

/** Attachments are named "form/attachment" so that two forms may both have a "Site plan". */
function refLabels(before: ProgramDefinitionRows | null, after: ProgramDefinitionRows): Map<string, string> {
  const labels = new Map<string, string>();
  for (const def of [before, after]) {
    for (const f of def?.forms ?? []) {
      for (const a of f.attachments) labels.set(a.id, `${f.customId ?? f.name}/${a.customId ?? a.name}`);
    }
  }
  return labels;
}

function changedKeys(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return Object.keys(b).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

/** One change as a line of text, e.g. `updated field CustomerName (name, maxLength)`. */
export function describeChange(c: DefinitionChange): string {
  if (c.action === 'reordered') return `reordered ${c.kind === 'status' ? 'statuses' : `${c.kind}s`}`;
  const detail = c.properties.length > 0 ? ` (${c.properties.join(', ')})` : '';
  return `${c.action} ${c.kind} ${c.ref}${detail}`;
}

/** What an import does to the access groups, by customId (updated: which properties). */
function diffAccessGroups(before: AccessGroup[], after: AccessGroup[]): DefinitionChange[] {
  const changes: DefinitionChange[] = [];
  for (const g of after) {
    const prior = before.find((x) => x.customId === g.customId);
    if (!prior) changes.push({ kind: 'access group', action: 'created', ref: g.customId, properties: [] });
    else {
      const properties = (['name', 'if'] as const).filter((k) => prior[k] !== g[k]);
      if (properties.length > 0) changes.push({ kind: 'access group', action: 'updated', ref: g.customId, properties });
    }
  }
  for (const g of before) if (!after.some((x) => x.customId === g.customId)) changes.push({ kind: 'access group', action: 'removed', ref: g.customId, properties: [] });
  return changes;
}
