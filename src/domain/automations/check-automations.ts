import type { Automation, AutomationAction, TriggerKind } from '../../model/automation.ts';
import type { Program, ProgramModel } from '../../model/model.ts';
import { PLACEHOLDERS } from '../mail-template.ts';
import type { PartResolvers, ProgramChecker, ResolvedProgram } from '../programs/program-parts.ts';
import type { ProgramFile } from '../programs/program-file.ts';
import { atLine, placeInText } from '../programs/program-lines.ts';
import { BUILT_IN_ROLE_NAMES } from '../roles/privileges.ts';
import { compileRule } from '../rules/compile-rule.ts';
import { located } from '../rules/rule-problems.ts';
import { AUTOMATION_PROJECT_TYPE, ruleShapes, ruleVariables } from '../rules/rule-scope.ts';
import { fieldType, T, type RuleType } from '../rules/rule-types.ts';
import type { ActionSpec, AutomationSpec } from './automation-file.ts';

/** An automation with its references resolved to positions in the file (attachments as form and attachment index). */
export interface ResolvedAutomation {
  form: number | null; status: number | null; field: number | null; attachment: [number, number] | null;
  /** Per action: the status (moveStatus) or field (setField) it names, else null. */
  targets: (number | null)[];
}

/** The filters each trigger takes; any other filter is refused. */
const FILTERS: Record<TriggerKind, readonly string[]> = {
  'project.created': [],
  'form.saved': ['form'],
  'form.submitted': ['form'],
  'status.entered': ['status'],
  'status.left': ['status'],
  'field.changed': ['field'],
  'attachment.uploaded': ['attachment'],
  'attachment.reviewed': ['attachment', 'approval'],
  'inquiry.note_added': ['by', 'visibleToApplicant'],
  'deadline.started': ['deadline'],
  'deadline.passed': ['deadline'],
  'deadline.satisfied': ['deadline'],
  'deadline.cancelled': ['deadline'],
  // Every day at `at` over the program's projects (in `status`, when it is given) that the `if` condition selects.
  schedule: ['at', 'status'],
  // A document's e-signature envelope (src/domain/signing) reached its final state.
  'envelope.completed': [],
  'envelope.declined': [],
  'envelope.voided': [],
  // A callConnection's call failed after its retries (src/domain/connections).
  'connection.failed': ['connection'],
};

/** The keys each action takes besides `do` (the first ones listed are required). */
const ACTION_KEYS: Record<ActionSpec['do'], { required: (keyof ActionSpec)[]; optional: (keyof ActionSpec)[] }> = {
  moveStatus: { required: ['to'], optional: ['reason', 'message'] },
  setField: { required: ['field', 'value'], optional: [] },
  assign: { required: [], optional: ['user', 'role', 'pick'] },
  openInquiry: { required: ['subject', 'text'], optional: ['visibleToApplicant'] },
  sendMail: { required: ['to'], optional: ['role', 'subject', 'text', 'template', 'attach'] },
  emitEvent: { required: ['name'], optional: [] },
  startDeadline: { required: ['deadline'], optional: [] },
  satisfyDeadline: { required: ['deadline'], optional: [] },
  cancelDeadline: { required: ['deadline'], optional: [] },
  generateDocument: { required: ['document'], optional: [] },
  createRelatedProject: { required: ['relation'], optional: [] },

  callConnection: { required: ['connection'], optional: [] },
};

/** What the checks need to find the file's parts by reference. */
export type AutomationResolvers = PartResolvers;

/** The automations' part of checking a program file at import; what it resolves, planAutomations reads back. */
export const automationsChecker: ProgramChecker = { part: 'automations', check: checkAutomations };

/**
 * Checks the file's automations: unique customIds, the filters their triggers take and the parts they name, each
 * action's keys and targets (a status no status can move to, a field value of the wrong type, an unknown role or
 * placeholder), and compiles every condition and value with the field rules' compiler. Each problem names the YAML line.
 */
export function checkAutomations(file: ProgramFile, resolve: AutomationResolvers, problems: string[]): ResolvedAutomation[] {
  const vars = ruleVariables(file.fields, AUTOMATION_PROJECT_TYPE, file.customLists, file.relations ?? []);
  const shapes = ruleShapes(file.fields, file.customLists);
  const roles = [...BUILT_IN_ROLE_NAMES, ...file.roles.map((r) => r.customId)];
  return file.automations.map((a, i) => {
    const where = `automation "${a.customId}"${atLine(file, ['automations', i])}`;
    if (file.automations.slice(0, i).some((b) => b.customId === a.customId)) problems.push(`${where}: another automation has the customId "${a.customId}"`);
    const compile = (source: string, want: RuleType, path: (string | number)[], what: string) => {
      const result = compileRule(source, vars, want, { shapes });
      if ('problems' in result) {
        for (const p of result.problems) problems.push(`automation "${a.customId}": ${what} ${located(file.locate?.(path) ?? null, p)}: ${p.message}`);
      }
    };
    const resolved = checkWhen(file, a, i, resolve, problems);
    if (a.if !== null) compile(a.if, T.bool, ['automations', i, 'if'], 'if');
    resolved.targets = a.actions.map((action, k) => checkAction(file, action, ['automations', i, 'then', k], `automation "${a.customId}"${atLine(file, ['automations', i, 'then', k])}: then[${k}] (${action.do})`, resolve, roles, compile, problems));
    return resolved;
  });
}

function checkWhen(file: ProgramFile, a: AutomationSpec, i: number, resolve: AutomationResolvers, problems: string[]): ResolvedAutomation {
  const where = `automation "${a.customId}"${atLine(file, ['automations', i, 'when'])}: when`;
  const allowed = FILTERS[a.when.trigger];
  for (const key of ['form', 'status', 'field', 'attachment', 'approval', 'by', 'visibleToApplicant', 'deadline', 'at', 'connection'] as const) {
    if (a.when[key] !== null && a.when[key] !== undefined && !allowed.includes(key)) {
      problems.push(`${where}: the trigger ${a.when.trigger} takes ${allowed.length > 0 ? `only ${allowed.join(', ')}` : 'no filter'}, not ${key}`);
    }
  }
  if (a.when.trigger === 'schedule' && a.when.at === null) problems.push(`${where}: the trigger schedule needs at, the local time of day it runs (HH:MM)`);
  const out: ResolvedAutomation = { form: null, status: null, field: null, attachment: null, targets: [] };
  if (a.when.form !== null) out.form = resolve.forms(a.when.form, `${where}: form`);
  if (a.when.status !== null) out.status = resolve.statuses(a.when.status, `${where}: status`);
  if (a.when.field !== null) out.field = resolve.fields(a.when.field, `${where}: field`);
  if (a.when.deadline !== null) checkDeadlineRef(file, a.when.deadline, `${where}: deadline`, problems);
  if (a.when.connection !== undefined && a.when.connection !== null) checkConnectionRef(file, a.when.connection, `${where}: connection`, problems);
  if (a.when.attachment !== null) {
    const ref = a.when.attachment;
    const found = file.forms.flatMap((f, fi) => f.attachments.map((x, ai) => ({ f, x, fi, ai })))
      .filter(({ f, x }) => x.customId === ref || x.name === ref || `${f.customId ?? f.name}/${x.customId ?? x.name}` === ref);
    if (found.length === 1) out.attachment = [found[0]!.fi, found[0]!.ai];
    else if (found.length === 0) problems.push(`${where}: attachment: no form has an attachment with the customId or name "${ref}"`);
    else problems.push(`${where}: attachment: "${ref}" names attachments of several forms; write it as form/attachment`);
  }
  return out;
}

function checkAction(
  file: ProgramFile, action: ActionSpec, path: (string | number)[], where: string, resolve: AutomationResolvers, roles: string[],
  compile: (source: string, want: RuleType, path: (string | number)[], what: string) => void, problems: string[],
): number | null {
  const keys = ACTION_KEYS[action.do];
  for (const key of keys.required) if (action[key] === undefined) problems.push(`${where}: missing ${key}`);
  for (const key of Object.keys(action) as (keyof ActionSpec)[]) {
    if (key !== 'do' && !keys.required.includes(key) && !keys.optional.includes(key)) problems.push(`${where}: ${action.do} takes no ${key}`);
  }
  // A placeholder is placed at its own line and column, so the action's place is left out of its message.
  const label = where.replace(atLine(file, path), '');
  const placeholders = (key: 'subject' | 'text') => {
    const text = action[key] ?? '';
    for (const m of text.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)) {
      if (!(PLACEHOLDERS as readonly string[]).includes(m[1] ?? '')) {
        const at = atLine(file, [...path, key], placeInText(text, m.index));
        problems.push(`${label}: ${key}${at}: unknown placeholder "{{${m[1]}}}"; use ${PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}`);
      }
    }
  };
  switch (action.do) {
    case 'moveStatus': {
      if (action.to === undefined) return null;
      const target = resolve.statuses(action.to, `${where}: to`);
      if (target === null) return null;
      const reachable = file.statuses.some((s) => s.next.some((ref) => ref === action.to || ref === file.statuses[target]!.customId || ref === file.statuses[target]!.name));
      if (!reachable) problems.push(`${where}: no status can move to "${action.to}" (no status lists it in next), so this move could never be made`);
      checkReason(file.statuses[target]!, action, where, problems);
      return target;
    }
    case 'setField': {
      if (action.field === undefined) return null;
      const index = resolve.fields(action.field, `${where}: field`);
      if (index === null) return null;
      const field = file.fields[index]!;
      if (field.formula !== null) problems.push(`${where}: "${action.field}" is a calculated field; its formula sets it`);
      else if (field.type === 'table') problems.push(`${where}: "${action.field}" is a table field, which an automation cannot set`);
      else if (action.value !== undefined) compile(action.value, fieldType(field), [...path, 'value'], `then setField ${action.field}: value`);
      return index;
    }
    case 'assign':
      if ((action.user === undefined) === (action.role === undefined)) problems.push(`${where}: name either a user (an e-mail address) or a role (with pick)`);
      if (action.role !== undefined && !roles.includes(action.role)) problems.push(`${where}: no role is named "${action.role}"; the roles are ${roles.join(', ')}`);
      if (action.role !== undefined && action.pick === undefined) problems.push(`${where}: say how to pick among the role's holders: pick: roundRobin or leastLoaded`);
      if (action.user !== undefined && action.pick !== undefined) problems.push(`${where}: pick applies to a role, not to a named user`);
      return null;
    case 'sendMail':
      if (action.to !== undefined && !['owner', 'assignee', 'role'].includes(action.to)) problems.push(`${where}: to must be owner, assignee or role, not "${action.to}"`);
      if ((action.to === 'role') !== (action.role !== undefined)) problems.push(`${where}: a mail to a role names the role (to: role, role: …), and only such a mail`);
      if (action.role !== undefined && !roles.includes(action.role)) problems.push(`${where}: no role is named "${action.role}"; the roles are ${roles.join(', ')}`);
      if (action.template !== undefined) {
        if (action.subject !== undefined || action.text !== undefined) problems.push(`${where}: a mail is a named template or a subject and text, not both`);
        else if (!file.mailTemplates.some((t) => t.customId === action.template)) {
          const named = file.mailTemplates.map((t) => t.customId);
          problems.push(`${where}: template: mailTemplates has no "${action.template}"${named.length > 0 ? `; it has ${named.join(', ')}` : ''}`);
        }
      } else if (action.subject === undefined || action.text === undefined) problems.push(`${where}: a mail needs a subject and a text, or a named template`);
      placeholders('subject');
      placeholders('text');
      for (const ref of action.attach ?? []) checkDocumentRef(file, ref, `${where}: attach`, problems);
      return null;
    case 'generateDocument':
      if (action.document !== undefined) checkDocumentRef(file, action.document, `${where}: document`, problems);
      return null;
    case 'createRelatedProject': {
      const all = (file.relations ?? []).map((r) => r.customId);
      if (action.relation !== undefined && !all.includes(action.relation)) {
        problems.push(`${where}: relation: the program has no relation "${action.relation}"${all.length > 0 ? `; its relations are ${all.join(', ')}` : ' (relations: is empty)'}`);
      } else if ((file.relations ?? []).some((r) => r.customId === action.relation && (r.kind === 'parent' || r.kind === 'predecessor'))) {
        problems.push(`${where}: relation: "${action.relation}" names the project this one was made from; it creates no project`);
      }
      return null;
    }

    case 'callConnection':
      if (action.connection !== undefined) checkConnectionRef(file, action.connection, `${where}: connection`, problems);
      return null;
    case 'openInquiry':
      placeholders('subject');
      placeholders('text');
      return null;
    case 'emitEvent': return null;
    case 'startDeadline':
    case 'satisfyDeadline':
    case 'cancelDeadline':
      if (action.deadline !== undefined) checkDeadlineRef(file, action.deadline, `${where}: deadline`, problems);
      return null;
  }
}

/** A deadline named by customId must be one of the file's `deadlines:`. */
function checkDeadlineRef(file: ProgramFile, ref: string, where: string, problems: string[]): void {
  const all = file.deadlines ?? [];
  if (!all.some((d) => d.customId === ref)) {
    problems.push(`${where}: the program has no deadline "${ref}"${all.length > 0 ? `; its deadlines are ${all.map((d) => d.customId).join(', ')}` : ' (deadlines: is empty)'}`);
  }
}

/**
 * The customIds of the file's documents (`documents:`, issue 32 §1, which resolves and checks the templates
 * themselves); read here alone, so that the automations follow wherever the file keeps them.
 */
function fileDocumentIds(file: ProgramFile): string[] {
  return ((file as { documents?: readonly { customId: string }[] }).documents ?? []).map((d) => d.customId);
}

/** A document named by customId must be one of the file's `documents:`. */
function checkDocumentRef(file: ProgramFile, ref: string, where: string, problems: string[]): void {
  const all = fileDocumentIds(file);
  if (!all.includes(ref)) problems.push(`${where}: the program has no document "${ref}"${all.length > 0 ? `; its documents are ${all.join(', ')}` : ' (documents: is empty)'}`);
}

/** A connection named by customId must be one of the file's `connections:` (src/domain/connections checks them). */
function checkConnectionRef(file: ProgramFile, ref: string, where: string, problems: string[]): void {
  const all = (file.connections ?? []).map((c) => c.customId);
  if (!all.includes(ref)) problems.push(`${where}: the program has no connection "${ref}"${all.length > 0 ? `; its connections are ${all.join(', ')}` : ' (connections: is empty)'}`);
}

/**
 * A move's reason against its target status: one the status lists, and one given wherever every move into the status
 * needs it (a status that needs one only from some statuses is checked when the automation runs).
 */
function checkReason(status: ProgramFile['statuses'][number], action: ActionSpec, where: string, problems: string[]): void {
  const reasons = status.reasons ?? [];
  const label = status.customId ?? status.name;
  if (action.reason !== undefined && !reasons.some((r) => r.customId === action.reason)) {
    problems.push(`${where}: reason: status "${label}" has no reason "${action.reason}"; ${reasons.length > 0 ? `its reasons are ${reasons.map((r) => r.customId).join(', ')}` : 'it lists no reasons'}`);
  }
  if (action.reason === undefined && status.reasonRequired === true) {
    // With no reasons listed, the status's own problem (reasonRequired needs a list of reasons) says what to fix.
    problems.push(reasons.length > 0
      ? `${where}: a move to "${label}" needs a reason (reason: one of ${reasons.map((r) => r.customId).join(', ')})`
      : `${where}: a move to "${label}" needs a reason, but the status lists no reasons to give; give it reasons: or drop its reasonRequired`);
  }
}

/** The automations to store with the program: parts by the ids the import gives them. */
export function planAutomations(
  resolvedFile: ResolvedProgram, ids: { statusIds: string[]; fieldIds: string[]; formIds: string[]; attachmentIds: string[][] },
): Automation[] {
  const { file } = resolvedFile;
  const resolved = resolvedFile.parts[automationsChecker.part] as ResolvedAutomation[];
  return file.automations.map((a, i) => {
    const r = resolved[i]!;
    return {
      customId: a.customId, name: a.name, if: a.if,
      when: {
        trigger: a.when.trigger, approval: a.when.approval, by: a.when.by, visibleToApplicant: a.when.visibleToApplicant, deadlineId: a.when.deadline,
        ...(a.when.at === null ? {} : { at: a.when.at }),
        ...(a.when.connection === undefined || a.when.connection === null ? {} : { connectionId: a.when.connection }),
        formId: r.form === null ? null : ids.formIds[r.form]!,
        statusId: r.status === null ? null : ids.statusIds[r.status]!,
        fieldId: r.field === null ? null : ids.fieldIds[r.field]!,
        attachmentId: r.attachment === null ? null : ids.attachmentIds[r.attachment[0]]![r.attachment[1]]!,
      },
      actions: a.actions.map((x, k): AutomationAction => {
        const target = r.targets[k] ?? null;
        switch (x.do) {
          case 'moveStatus': return { do: 'moveStatus', statusId: ids.statusIds[target!]!, reasonId: x.reason ?? null, message: x.message ?? null };
          case 'setField': return { do: 'setField', fieldId: ids.fieldIds[target!]!, value: x.value! };
          case 'assign': return { do: 'assign', user: x.user ?? null, role: x.role ?? null, pick: x.pick ?? null };
          case 'openInquiry': return { do: 'openInquiry', subject: x.subject!, text: x.text!, visibleToApplicant: x.visibleToApplicant ?? false };
          case 'sendMail': return {
            do: 'sendMail', to: x.to as 'owner' | 'assignee' | 'role', role: x.role ?? null, subject: x.subject ?? '', text: x.text ?? '', template: x.template ?? null,
            ...(x.attach && x.attach.length > 0 ? { attach: [...x.attach] } : {}),
          };
          case 'generateDocument': return { do: 'generateDocument', documentId: x.document! };
          case 'createRelatedProject': return { do: 'createRelatedProject', relation: x.relation! };

          case 'callConnection': return { do: 'callConnection', connectionId: x.connection! };
          case 'emitEvent': return { do: 'emitEvent', name: x.name! };
          case 'startDeadline':
          case 'satisfyDeadline':
          case 'cancelDeadline': return { do: x.do, deadlineId: x.deadline! };
          default: throw new Error(`unknown action ${String((x as { do: unknown }).do)}`);
        }
      }),
    };
  });
}

/** A program's stored automations as the program file writes them; `refOf` turns an id into its reference. */
export function automationSpecsOf(program: Program, model: Pick<ProgramModel, 'forms'>, refOf: (id: string) => string): AutomationSpec[] {
  const attachmentRef = (id: string) => {
    for (const f of model.forms) {
      const a = f.attachments.find((x) => x.id === id);
      if (a) return `${f.customId ?? f.name}/${a.customId ?? a.name}`;
    }
    return id;
  };
  const formRef = (id: string) => {
    const f = model.forms.find((x) => x.id === id);
    return f ? f.customId ?? f.name : id;
  };
  return (program.automations ?? []).map((a) => ({
    customId: a.customId, name: a.name, if: a.if,
    when: {
      trigger: a.when.trigger, approval: a.when.approval, by: a.when.by, visibleToApplicant: a.when.visibleToApplicant ?? null, deadline: a.when.deadlineId ?? null,
      at: a.when.at ?? null,
      ...(a.when.connectionId ? { connection: a.when.connectionId } : {}),
      form: a.when.formId === null ? null : formRef(a.when.formId),
      status: a.when.statusId === null ? null : refOf(a.when.statusId),
      field: a.when.fieldId === null ? null : refOf(a.when.fieldId),
      attachment: a.when.attachmentId === null ? null : attachmentRef(a.when.attachmentId),
    },
    actions: a.actions.map((x): ActionSpec => {
      switch (x.do) {
        case 'moveStatus': return prune({ do: 'moveStatus', to: refOf(x.statusId), reason: x.reasonId ?? null, message: x.message ?? null });
        case 'setField': return { do: 'setField', field: refOf(x.fieldId), value: x.value };
        case 'assign': return prune({ do: 'assign', user: x.user, role: x.role, pick: x.pick });
        case 'openInquiry': return { do: 'openInquiry', subject: x.subject, text: x.text, ...(x.visibleToApplicant ? { visibleToApplicant: true } : {}) };
        case 'sendMail': {
          const attach = x.attach && x.attach.length > 0 ? { attach: [...x.attach] } : {};
          return prune(x.template ? { do: 'sendMail', to: x.to, role: x.role, template: x.template, ...attach } : { do: 'sendMail', to: x.to, role: x.role, subject: x.subject, text: x.text, ...attach });
        }
        case 'generateDocument': return { do: 'generateDocument', document: x.documentId };
        case 'createRelatedProject': return { do: 'createRelatedProject', relation: x.relation };

        case 'callConnection': return { do: 'callConnection', connection: x.connectionId };
        case 'emitEvent': return { do: 'emitEvent', name: x.name };
        case 'startDeadline':
        case 'satisfyDeadline':
        case 'cancelDeadline': return { do: x.do, deadline: x.deadlineId };
        default: throw new Error(`unknown action ${String((x as { do: unknown }).do)}`);
      }
    }),
  }));
}

function prune(action: Record<string, unknown>): ActionSpec {
  return Object.fromEntries(Object.entries(action).filter(([, v]) => v !== null)) as unknown as ActionSpec;
}

/** What an import does to the program's automations, by customId: created, removed, updated (when, if, then, name) or reordered. */
export function diffAutomations(before: Automation[], after: Automation[]): { kind: 'automation'; action: 'created' | 'updated' | 'removed' | 'reordered'; ref: string; properties: string[] }[] {
  const changes: ReturnType<typeof diffAutomations> = [];
  for (const a of after) {
    const prior = before.find((b) => b.customId === a.customId);
    if (!prior) {
      changes.push({ kind: 'automation', action: 'created', ref: a.customId, properties: [] });
      continue;
    }
    const properties = (['name', 'when', 'if', 'actions'] as const).filter((k) => JSON.stringify(prior[k]) !== JSON.stringify(a[k])).map((k) => (k === 'actions' ? 'then' : k));
    if (properties.length > 0) changes.push({ kind: 'automation', action: 'updated', ref: a.customId, properties });
  }
  for (const b of before) if (!after.some((a) => a.customId === b.customId)) changes.push({ kind: 'automation', action: 'removed', ref: b.customId, properties: [] });
  const kept = (list: Automation[], other: Automation[]) => list.map((x) => x.customId).filter((id) => other.some((o) => o.customId === id)).join();
  // Automations run in file order, so a new order is a change of behaviour worth reporting.
  if (kept(before, after) !== kept(after, before)) changes.push({ kind: 'automation', action: 'reordered', ref: '', properties: [] });
  return changes;
}
