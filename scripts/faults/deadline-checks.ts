import pg from 'pg';
import type { DatabaseConfig } from '../../src/config.ts';
import { SqliteBinding } from '../../src/store/sqlite-binding.ts';
import { openSqlReader } from './sql-reader.ts';

/**
 * Deadlines under kill -9: each cycle plants running deadlines on existing projects, due within the next moments,
 * straight into the database (as StartProjectDeadline would leave them, minus its audit row), so that the server's
 * poller (APAS_DEADLINE_INTERVAL_MS, short in the crash run) fires them while the load runs and the kill comes.
 */
export async function plantDeadlines(config: DatabaseConfig, cycle: number, random: () => number, count = 4): Promise<number> {
  const reader = await openSqlReader(config);
  let projects: { id: string; program_id: string }[];
  try {
    projects = await reader.all('select id, program_id from projects order by id');
  } finally {
    await reader.close();
  }
  const chosen = projects.sort(() => random() - 0.5).slice(0, count);
  const now = Date.now();
  const rows = chosen.map((p, i) => {
    const dueAt = now + Math.round(random() * 2500);
    return [`CRASHDL${cycle}x${i}`, p.id, p.program_id, `Crash${cycle}x${i}`, 'running', now, new Date(dueAt).toISOString().slice(0, 10), dueAt];
  });
  const insert = 'insert into project_deadlines (id, project_id, program_id, deadline_id, state, started_at, due_date, due_at) values (?, ?, ?, ?, ?, ?, ?, ?)';
  if (config.kind === 'sqlite') {
    const db = new SqliteBinding(config.file, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 10000');
      const statement = db.prepare(insert);
      for (const row of rows) statement.run(...row);
    } finally {
      db.close();
    }
  } else {
    const client = new pg.Client({ connectionString: config.url });
    client.on('error', () => {});
    await client.connect();
    try {
      for (const row of rows) await client.query(insert.replace(/\?/g, (() => { let n = 0; return () => `$${++n}`; })()), row);
    } finally {
      await client.end();
    }
  }
  return rows.length;
}

/** What the deadlines of the database say: how many there are, how many passed, and every problem. */
export interface DeadlineVerification { deadlines: number; passed: number; problems: string[] }

/**
 * Checks that no deadline fired twice and none is half-fired: a passed deadline has exactly one audit row
 * `project.deadline.pass` and one event `deadline.passed`, a running one none. With `firedBefore`, a running
 * deadline due before that time is reported as lost (the server ran long enough since to fire it).
 */
export async function verifyDeadlines(config: DatabaseConfig, firedBefore?: number): Promise<DeadlineVerification> {
  const reader = await openSqlReader(config);
  try {
    const rows = await reader.all<{ project_id: string; deadline_id: string; state: string; due_at: number | string }>(
      `select project_id, deadline_id, state, due_at from project_deadlines where deadline_id like 'Crash%'`,
    );
    const audits = await reader.all<{ project_id: string; detail: string }>(`select project_id, detail from audit_log where action = 'project.deadline.pass'`);
    const events = await reader.all<{ project_id: string; data: string }>(`select project_id, data from events where type = 'deadline.passed'`);
    const count = (list: { project_id: string }[], json: (x: never) => string, r: { project_id: string; deadline_id: string }) =>
      list.filter((x) => x.project_id === r.project_id && (JSON.parse(json(x as never)) as { deadlineId?: string }).deadlineId === r.deadline_id).length;
    const problems: string[] = [];
    for (const r of rows) {
      const fired = count(audits, (x: { detail: string }) => x.detail, r);
      const told = count(events, (x: { data: string }) => x.data, r);
      const name = `deadline ${r.deadline_id} of project ${r.project_id}`;
      if (fired > 1 || told > 1) problems.push(`${name} fired ${fired} times (${told} deadline.passed events)`);
      if (r.state === 'passed' && (fired !== 1 || told !== 1)) problems.push(`${name} is passed with ${fired} audit rows and ${told} events`);
      if (r.state === 'running' && (fired !== 0 || told !== 0)) problems.push(`${name} is running but fired ${fired} times`);
      if (r.state === 'running' && firedBefore !== undefined && Number(r.due_at) < firedBefore) problems.push(`${name} was due ${firedBefore - Number(r.due_at)} ms before the check and never fired (lost)`);
    }
    return { deadlines: rows.length, passed: rows.filter((r) => r.state === 'passed').length, problems };
  } finally {
    await reader.close();
  }
}
