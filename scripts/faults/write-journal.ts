/** The writes a fault run records. `attach` is an attachment upload; `status` is SetProjectStatus. */
export type WriteKind = 'create' | 'draft' | 'attach' | 'submit' | 'status';

/**
 * What became of a write: `acked` (a 2xx answer: it happened), `refused` (a 4xx/5xx answer: it must have left
 * no trace), `lost` (no answer, e.g. the server was killed: it may or may not have happened).
 */
export type WriteOutcome = 'acked' | 'refused' | 'lost';

/** One write as the client saw it. */
export interface WriteRecord {
  /** Order of recording; writes to one project are recorded in the order they were made. */
  seq: number;
  kind: WriteKind;
  /** Empty for a create whose answer was lost (its id is unknown). */
  projectId: string;
  outcome: WriteOutcome;
  status?: number;
  /** The ErrorResponse Code of a refused write. */
  code?: string;
  /** Draft values sent, by field custom id. */
  values?: Record<string, string>;
  /** The project number a submission (or a numbering status change) answered with. */
  number?: string;
  /** SetProjectStatus: the status custom id asked for; an upload: the attachment definition's custom id. */
  target?: string;
  /** Which server (origin) took it. */
  via: string;
}

/** Every write of a run, kept in memory for verification after a crash. */
export class WriteJournal {
  readonly #records: WriteRecord[] = [];

  /** Records one write and returns it with its sequence number. */
  add(record: Omit<WriteRecord, 'seq'>): WriteRecord {
    const full = { ...record, seq: this.#records.length + 1 };
    this.#records.push(full);
    return full;
  }

  /** All records, in order. */
  all(): readonly WriteRecord[] {
    return this.#records;
  }

  /** The records of each known project, in order. */
  byProject(): Map<string, WriteRecord[]> {
    const out = new Map<string, WriteRecord[]>();
    for (const r of this.#records) {
      if (r.projectId === '') continue;
      const list = out.get(r.projectId) ?? [];
      list.push(r);
      out.set(r.projectId, list);
    }
    return out;
  }

  /** How many records have this kind and outcome. */
  count(kind: WriteKind, outcome: WriteOutcome): number {
    return this.#records.filter((r) => r.kind === kind && r.outcome === outcome).length;
  }
}
