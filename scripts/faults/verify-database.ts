import type { DatabaseConfig } from '../../src/config.ts';
import { eventsOfChange } from '../../src/domain/events/project-events.ts';
import { roleNamed } from '../../src/domain/roles/access.ts';
import { APPLICATION } from './demo-steps.ts';
import { serverSecretBox } from './server-process.ts';
import { openSqlReader, type SqlReader } from './sql-reader.ts';
import { fieldValueContext } from '../../src/store/sealed-field-values.ts';
import type { SecretBox } from '../../src/store/secret-box.ts';
import type { WriteJournal, WriteRecord } from './write-journal.ts';

/** What a verification found: `problems` is empty when the database is consistent with the journal. */
export interface Verification {
  problems: string[];
  projects: number;
  /** Projects with a number; the numbers are exactly 1..numbered. */
  numbered: number;
  ackedSubmissions: number;
  /** Submissions whose answer was lost, and how many of them had happened. */
  lostSubmissions: number;
  lostSubmissionsApplied: number;
  /** Acknowledged draft writes whose values were checked. */
  ackedDrafts: number;
}

interface ProjectRow extends Record<string, unknown> { id: string; number: string | null; status_id: string; version: number | string }
interface AuditRow extends Record<string, unknown> { project_id: string; action: string; detail: string }

// Actions that change a project row (and bump its version) in the loads of the fault runs.
const VERSIONED_ACTIONS = new Set(['project.draft.set', 'project.submit', 'project.status.set', 'project.attachment.upload']);

function group<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}

function parseDetail(detail: string): Record<string, unknown> {
  try {
    return JSON.parse(detail) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/**
 * Reads the demo program's projects straight from the database and checks them against itself and the
 * journal. Structure: numbers are 1..N without gap or duplicate and `next_number` is N+1; every project has
 * one create audit, a history starting at the initial status and ending at its current one, one history
 * entry and one audit row per status move, one audit row per submission, a version equal to its audited
 * changes, a number exactly when it left the initial status, and submitted values only with a submission.
 * Journal: every acknowledged create exists; every draft field holds the value of its last acknowledged write
 * (or of a later write whose answer was lost); every acknowledged submission is there with the number it was
 * answered with, its status and the submitted values; a lost one either happened completely or not at all;
 * refused writes left nothing.
 */
export async function verifyDatabase(config: DatabaseConfig, journal: WriteJournal): Promise<Verification> {
  const reader = await openSqlReader(config);
  try {
    return await verify(openingSealed(reader, serverSecretBox(config)), journal);
  } finally {
    await reader.close();
  }
}

/**
 * The reader with the sealed values of sensitive fields opened (secrets at rest): rows of the value tables that have a
 * project, a field and a value come back with the value in clear, as the service itself would read it.
 */
function openingSealed(reader: SqlReader, secrets: SecretBox): SqlReader {
  return {
    ...reader,
    all: async <T extends Record<string, unknown>>(statement: string, params?: unknown[]) => (await reader.all<T>(statement, params)).map((row) => {
      const r = row as { project_id?: string; field_id?: string; value?: string | null };
      if (typeof r.value !== 'string' || r.project_id === undefined || r.field_id === undefined) return row;
      return { ...row, value: secrets.open(r.value, fieldValueContext(r.project_id, r.field_id)) } as T;
    }),
  };
}

async function verify(sql: SqlReader, journal: WriteJournal): Promise<Verification> {
  const problems: string[] = [];
  const out: Verification = { problems, projects: 0, numbered: 0, ackedSubmissions: 0, lostSubmissions: 0, lostSubmissionsApplied: 0, ackedDrafts: 0 };
  const [program] = await sql.all<{ id: string; number_prefix: string; number_digits: number; next_number: number | string }>(
    `select id, number_prefix, number_digits, next_number from programs where custom_id = 'RES-SOLAR'`,
  );
  if (!program) {
    problems.push('the demo program RES-SOLAR is missing');
    return out;
  }
  const statuses = await sql.all<{ id: string; custom_id: string; is_initial: number }>('select id, custom_id, is_initial from statuses where program_id = ?', [program.id]);
  const statusCustom = new Map(statuses.map((s) => [s.id, s.custom_id]));
  const initial = statuses.find((s) => Number(s.is_initial) === 1)?.id;
  const fields = await sql.all<{ id: string; custom_id: string; formula: string | null }>('select id, custom_id, formula from data_fields where program_id = ?', [program.id]);
  const fieldCustom = new Map(fields.map((f) => [f.id, f.custom_id]));
  // Calculated fields are the service's to write (docs/programs.md), from the values the journal checks: not journaled.
  const calculated = new Set(fields.filter((f) => f.formula !== null).map((f) => f.id));
  const [form] = await sql.all<{ id: string }>('select id from forms where program_id = ? and custom_id = ?', [program.id, APPLICATION.form]);
  const projects = await sql.all<ProjectRow>('select id, number, status_id, version from projects where program_id = ?', [program.id]);
  const inProgram = 'project_id in (select id from projects where program_id = ?)';
  const drafts = group(await sql.all<{ project_id: string; form_id: string; field_id: string; value: string | null }>(
    `select project_id, form_id, field_id, value from project_drafts where ${inProgram}`, [program.id]), (r) => r.project_id);
  const values = group(await sql.all<{ project_id: string; form_id: string; field_id: string; value: string | null }>(
    `select project_id, form_id, field_id, value from project_values where ${inProgram}`, [program.id]), (r) => r.project_id);
  const submissions = group(await sql.all<{ project_id: string; form_id: string }>(`select project_id, form_id from form_submissions where ${inProgram}`, [program.id]), (r) => r.project_id);
  const history = group(await sql.all<{ project_id: string; status_id: string; seq: number | string }>(
    `select project_id, status_id, seq from status_history where ${inProgram} order by project_id, seq`, [program.id]), (r) => r.project_id);
  const audits = group(await sql.all<AuditRow>(`select project_id, action, detail from audit_log where ${inProgram}`, [program.id]), (r) => r.project_id);
  const events = group(await sql.all<{ project_id: string; type: string }>(`select project_id, type from events where ${inProgram} order by seq`, [program.id]), (r) => r.project_id);

  out.projects = projects.length;
  const byId = new Map(projects.map((p) => [p.id, p]));
  // The demo's sample applications (programs/demo-projects.csv) are imported with their status and submitted data,
  // as `apas import projects` makes them (test/imports/project-import.test.ts checks that path): the structure below is
  // what the API's own changes leave, and no client journaled them, so they are left out of both (their numbers are
  // still checked).
  const imported = new Set((await sql.all<{ project_id: string }>('select project_id from project_external_ids where program_id = ?', [program.id])).map((r) => r.project_id));
  for (const p of projects) {
    if (imported.has(p.id)) continue;
    checkStructure(p, {
      initial, statusCustom, prefix: program.number_prefix, digits: Number(program.number_digits),
      drafts: drafts.get(p.id) ?? [], values: values.get(p.id) ?? [], submissions: submissions.get(p.id) ?? [],
      history: history.get(p.id) ?? [], audits: audits.get(p.id) ?? [],
    }, problems);
    checkEvents(p.id, audits.get(p.id) ?? [], events.get(p.id) ?? [], problems);
  }
  out.numbered = checkNumbers(projects, program.number_prefix, Number(program.next_number), problems);

  const journaled = journal.byProject();
  for (const [projectId, records] of journaled) {
    const row = byId.get(projectId);
    const created = records.find((r) => r.kind === 'create');
    if (!row) {
      if (created?.outcome === 'acked') problems.push(`project ${projectId}: its creation was acknowledged but it is missing`);
      continue;
    }
    const valueRows = (values.get(projectId) ?? []).filter((v) => !calculated.has(v.field_id));
    const valueNow = new Map(valueRows.map((v) => [fieldCustom.get(v.field_id) ?? v.field_id, v.value]));
    // The draft as it stands (docs/interface.md, Data fields shared by forms): its changes over the submitted values;
    // a submission settles the changes it wrote, so a submitted project's draft reads as its submitted values.
    const draftRows = (drafts.get(projectId) ?? []).filter((d) => d.form_id === form?.id && !calculated.has(d.field_id));
    const draftNow = new Map([...valueNow, ...draftRows.map((d) => [fieldCustom.get(d.field_id) ?? d.field_id, d.value] as const)]);
    out.ackedDrafts += checkDrafts(projectId, records, draftNow, problems);
    const s = checkSubmission(projectId, records, row, {
      draftNow, valueNow, submitted: (submissions.get(projectId) ?? []).filter((x) => x.form_id === form?.id).length,
      status: statusCustom.get(row.status_id) ?? row.status_id,
    }, problems);
    out.ackedSubmissions += s.acked;
    out.lostSubmissions += s.lost;
    out.lostSubmissionsApplied += s.lostApplied;
  }
  problems.push(...(await checkUploads(sql, program.id, journal)));
  // A create whose answer was lost may have made a project nobody heard of; it must be untouched.
  const lostCreates = journal.all().filter((r) => r.kind === 'create' && r.outcome === 'lost').length;
  const strangers = projects.filter((p) => !journaled.has(p.id) && !imported.has(p.id));
  if (strangers.length > lostCreates) problems.push(`${strangers.length} projects are in no journal, but only ${lostCreates} creations lost their answer`);
  // The service's own changes may touch one: a deadline the crash run planted on it passing (deadline-checks.ts), and
  // the demo's automation on project.created (ApplicationStarted: its emitEvent is a change of the project, audited
  // automation.event), which runs for a project whose creation committed though its answer was lost.
  const passes = new Map<string, number>();
  for (const r of await sql.all<{ project_id: string }>(`select project_id from audit_log where action in ('project.deadline.pass', 'automation.event')`)) {
    passes.set(r.project_id, (passes.get(r.project_id) ?? 0) + 1);
  }
  for (const p of strangers) {
    if (p.number !== null || Number(p.version) !== (passes.get(p.id) ?? 0) || (drafts.get(p.id) ?? []).length > 0) {
      const actions = (audits.get(p.id) ?? []).map((a) => a.action).join(', ');
      problems.push(`project ${p.id}: unknown to the clients (lost create) yet changed: number ${p.number}, version ${p.version}, audited: ${actions}`);
    }
  }
  return out;
}

/** Every acknowledged upload has its attachment row (once uploads exist: before, there is no table to look in). */
async function checkUploads(sql: SqlReader, programId: string, journal: WriteJournal): Promise<string[]> {
  const acked = journal.all().filter((r) => r.kind === 'attach' && r.outcome === 'acked');
  if (acked.length === 0) return [];
  const rows = await sql.all<{ project_id: string; custom_id: string | null; definition_id: string }>(
    'select a.project_id, d.custom_id, a.definition_id from attachments a join attachment_definitions d on d.id = a.definition_id where d.program_id = ?', [programId]);
  const have = new Set(rows.flatMap((r) => [`${r.project_id} ${r.custom_id}`, `${r.project_id} ${r.definition_id}`]));
  return acked.filter((r) => !have.has(`${r.projectId} ${r.target}`)).map((r) => `project ${r.projectId}: the upload of ${r.target} was acknowledged but it is missing`);
}

interface Related {
  initial: string | undefined;
  statusCustom: Map<string, string>;
  prefix: string;
  digits: number;
  drafts: { form_id: string }[];
  values: { form_id: string }[];
  submissions: { form_id: string }[];
  history: { status_id: string; seq: number | string }[];
  audits: AuditRow[];
}

function checkStructure(p: ProjectRow, r: Related, problems: string[]): void {
  const say = (what: string) => problems.push(`project ${p.id}: ${what}`);
  const count = (action: string) => r.audits.filter((a) => a.action === action).length;
  if (count('project.create') !== 1) say(`${count('project.create')} creation audit rows`);
  const seqs = r.history.map((h) => Number(h.seq));
  if (seqs.length === 0) say('no status history');
  else {
    if (seqs.some((s, i) => s !== i + 1)) say(`history sequence ${seqs.join(',')} is not 1..${seqs.length}`);
    if (r.history[0]!.status_id !== r.initial) say('history does not start at the initial status');
    if (r.history.at(-1)!.status_id !== p.status_id) say(`current status ${r.statusCustom.get(p.status_id)} is not the last history entry's`);
  }
  const submits = r.audits.filter((a) => a.action === 'project.submit').map((a) => parseDetail(a.detail));
  const moves = submits.filter((d) => d.fromStatus !== d.toStatus).length + count('project.status.set');
  if (seqs.length !== 1 + moves) say(`${seqs.length} history entries for ${moves} audited status moves`);
  if (r.submissions.length !== submits.length) say(`${r.submissions.length} submissions but ${submits.length} submission audit rows`);
  if (r.values.length > 0 && r.submissions.length === 0) say('submitted values without a submission');
  if (r.drafts.length > 0 && count('project.draft.set') === 0) say('draft values without an audited draft write');
  const numbered = p.number !== null;
  if (numbered !== (p.status_id !== r.initial)) say(`number ${p.number} in status ${r.statusCustom.get(p.status_id)}`);
  if (numbered) {
    const pattern = new RegExp(`^${r.prefix}-\\d{${r.digits},}$`);
    if (!pattern.test(p.number!)) say(`number ${p.number} is not shaped ${r.prefix}-${'0'.repeat(r.digits)}`);
    const named = r.audits.some((a) => (a.action === 'project.submit' || a.action === 'project.status.set') && parseDetail(a.detail).number === p.number);
    if (!named) say(`number ${p.number} was given by no audited submission or status move`);
  }
  if (r.audits.every((a) => a.action === 'project.create' || VERSIONED_ACTIONS.has(a.action))) {
    const changes = r.audits.length - count('project.create');
    if (Number(p.version) !== changes) say(`version ${p.version} after ${changes} audited changes`);
  }
}

/**
 * The outbox holds exactly the events of the project's audited changes: one written with each committed change (in
 * its transaction), none of a change that rolled back.
 */
function checkEvents(projectId: string, audits: AuditRow[], events: { type: string }[], problems: string[]): void {
  const expected = audits.flatMap((a) => eventsOfChange(a.action, parseDetail(a.detail), roleNamed({}, 'admin')!).map((e) => e.type)).sort();
  const actual = events.map((e) => e.type).sort();
  if (expected.join() !== actual.join()) problems.push(`project ${projectId}: events [${actual.join(', ')}] for audited changes that make [${expected.join(', ')}]`);
}

function checkNumbers(projects: ProjectRow[], prefix: string, nextNumber: number, problems: string[]): number {
  const numbers = projects.filter((p) => p.number !== null).map((p) => Number(p.number!.slice(prefix.length + 1))).sort((a, b) => a - b);
  const duplicates = numbers.filter((n, i) => i > 0 && numbers[i - 1] === n);
  if (duplicates.length > 0) problems.push(`duplicate numbers: ${[...new Set(duplicates)].join(', ')}`);
  const gaps: number[] = [];
  const have = new Set(numbers);
  for (let n = 1; n <= numbers.length; n++) if (!have.has(n)) gaps.push(n);
  if (gaps.length > 0) problems.push(`numbers are not 1..${numbers.length}: missing ${gaps.slice(0, 20).join(', ')}${gaps.length > 20 ? ', …' : ''}`);
  if (nextNumber !== numbers.length + 1) problems.push(`programs.next_number is ${nextNumber} with ${numbers.length} numbered projects`);
  return numbers.length;
}

/** Checks the draft against the journal; returns how many acknowledged draft writes it covered. */
function checkDrafts(projectId: string, records: WriteRecord[], now: Map<string, string | null>, problems: string[]): number {
  // Per field, the values it may hold: the last acknowledged write's, plus those of later writes whose answer was lost.
  const allowed = new Map<string, Set<string | null>>();
  let acked = 0;
  for (const r of records) {
    if (r.kind !== 'draft' || !r.values || r.outcome === 'refused') continue;
    if (r.outcome === 'acked') acked++;
    for (const [field, value] of Object.entries(r.values)) {
      const set = r.outcome === 'acked' ? new Set<string | null>() : (allowed.get(field) ?? new Set<string | null>([null]));
      set.add(value);
      allowed.set(field, set);
    }
  }
  for (const [field, set] of allowed) {
    const value = now.has(field) ? now.get(field)! : null;
    if (!set.has(value)) problems.push(`project ${projectId}: draft ${field} is ${JSON.stringify(value)}, expected one of ${JSON.stringify([...set])}`);
  }
  for (const field of now.keys()) if (!allowed.has(field)) problems.push(`project ${projectId}: draft ${field} was never written`);
  return acked;
}

function checkSubmission(
  projectId: string, records: WriteRecord[], row: ProjectRow,
  now: { draftNow: Map<string, string | null>; valueNow: Map<string, string | null>; submitted: number; status: string },
  problems: string[],
): { acked: number; lost: number; lostApplied: number } {
  const say = (what: string) => problems.push(`project ${projectId}: ${what}`);
  const submits = records.filter((r) => r.kind === 'submit');
  const acked = submits.filter((r) => r.outcome === 'acked');
  const lost = submits.filter((r) => r.outcome === 'lost');
  const moved = records.some((r) => r.kind === 'status' && r.outcome !== 'refused');
  const happened = now.submitted > 0;
  if (acked.length > 1) say(`${acked.length} submissions were acknowledged`);
  if (acked.length > 0 && !happened) say('its submission was acknowledged but there is none');
  if (acked.length === 0 && lost.length === 0 && happened) say('it was submitted although no submission was acknowledged or lost');
  if (now.submitted > 1) say(`${now.submitted} Application submissions`);
  const answered = acked.find((r) => r.number)?.number;
  if (answered && row.number !== answered) say(`submission answered number ${answered}, database has ${row.number}`);
  if (happened) {
    if (row.number === null) say('submitted without a number');
    if (!moved && now.status !== APPLICATION.leadsTo) say(`submitted but in status ${now.status}`);
    // The submission copied the draft as it was; no draft write follows a submission in these loads.
    for (const [field, value] of now.draftNow) {
      if ((now.valueNow.get(field) ?? null) !== value) say(`submitted ${field} is ${JSON.stringify(now.valueNow.get(field) ?? null)}, the draft had ${JSON.stringify(value)}`);
    }
  } else {
    if (now.valueNow.size > 0) say('submitted values without a submission');
    if (!moved && (row.number !== null || now.status !== APPLICATION.initial)) say(`not submitted yet numbered ${row.number} in status ${now.status}`);
  }
  return { acked: acked.length, lost: lost.length, lostApplied: lost.length > 0 && acked.length === 0 && happened ? 1 : 0 };
}
