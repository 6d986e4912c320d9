import type { DocumentTemplate } from '../../model/document.ts';
import { localDateOf } from '../../model/local-date.ts';
import type { DataField, FieldValue, HistoryEntry, ProgramModel, TableColumn } from '../../model/model.ts';
import { shownValue } from '../projects/shown-value.ts';
import { tableRows as storedRows } from '../projects/table-values.ts';
import { tableRows } from './markdown-escape.ts';

/** What a template is rendered over: one project's data as it is now, read by the caller. */
export interface TemplateInput {
  model: ProgramModel; template: DocumentTemplate;
  project: { number: string | null; statusId: string; statusAt: number; createdAt: number };
  history: HistoryEntry[]; values: FieldValue[];
  /** The project's deadlines (any state), by the program deadline's customId. */
  deadlines: { deadlineId: string; dueDate: string; startedAt: number }[];
  owner: { name: string; email: string } | null;
  /** The time the document is made at, and the zone its dates are in (the program calendar's). */
  now: number; timeZone: string;
}

/**
 * The variables a template sees (docs/programs.md, "Documents and signatures"): the project, every field by customId
 * (or name) as people read it — choices by label, yes/no as Yes or No, a list for a multi-value field, rows for a
 * table — with sensitive fields only when the template lists them, the deadlines' due dates, the program, the owner
 * and today, every date a YYYY-MM-DD day in the program's time zone.
 */
export function templateData(input: TemplateInput): Record<string, unknown> {
  const { model, project, timeZone } = input;
  const day = (at: number) => localDateOf(at, timeZone);
  const last = [...input.history].sort((a, b) => b.changedAt - a.changedAt)[0];
  const status = model.statuses.find((s) => s.id === project.statusId) ?? model.retired.statuses.find((s) => s.id === project.statusId);
  const initial = model.statuses.find((s) => s.isInitial)?.id;
  const submitted = [...input.history].sort((a, b) => a.changedAt - b.changedAt).find((h) => h.statusId !== initial);
  const reason = last?.reasonId ? (status?.reasons ?? []).find((r) => r.customId === last.reasonId)?.name ?? last.reasonId : null;
  return {
    project: {
      number: project.number ?? '', status: status?.name ?? '', statusDate: day(project.statusAt), reason, message: last?.message ?? null,
      createdDate: day(project.createdAt), submittedDate: submitted ? day(submitted.changedAt) : null,
    },
    fields: fieldValues(input),
    deadlines: Object.fromEntries((model.program.deadlines ?? []).map((d) => {
      const latest = input.deadlines.filter((x) => x.deadlineId === d.customId).sort((a, b) => b.startedAt - a.startedAt)[0];
      return [d.customId, latest?.dueDate ?? null];
    })),
    program: { name: model.program.name },
    owner: input.owner ?? { name: '', email: '' },
    today: day(input.now),
  };
}

function fieldValues(input: TemplateInput): Record<string, unknown> {
  const allowed = new Set(input.template.sensitiveFields ?? []);
  const byField = new Map(input.values.map((v) => [v.fieldId, v]));
  const out: Record<string, unknown> = {};
  for (const f of input.model.fields) {
    if (f.sensitive && !allowed.has(f.id)) continue;
    out[f.customId ?? f.name] = fieldValue(input.model, f, byField.get(f.id));
  }
  return out;
}

function fieldValue(model: ProgramModel, f: DataField, v: FieldValue | undefined): unknown {
  if (f.type === 'table') {
    const columns = f.table?.columns ?? [];
    // A choice column's cell as people read it, by its label, like a choice field's value.
    const shown = (c: TableColumn, cell: string | undefined) => (cell === undefined ? null
      : (model.lists.find((l) => l.id === c.listId)?.choices.find((choice) => choice.value === cell)?.label ?? cell));
    const rows = storedRows(f, v?.value ?? null).map((r) => Object.fromEntries(columns.map((c) => [c.customId, shown(c, r[c.customId])])));
    return tableRows(rows, columns.map((c) => ({ customId: c.customId, name: c.name })));
  }
  if (f.multiValue) return (v?.values ?? []).map((t) => shownValue(model, f, t, true));
  return v?.value === null || v?.value === undefined ? null : shownValue(model, f, v.value, true);
}
