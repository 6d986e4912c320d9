import { type ApiClient, ConnectionLost } from './api-client.ts';
import { type AttachmentNeeds, applicationDrafts, createProject, type StepResult, submitApplication, writeDraft } from './demo-steps.ts';
import type { WriteJournal } from './write-journal.ts';

/** How a write load runs. */
export interface WriteLoadOptions {
  /** One client per server (all as the demo applicant); each worker spreads its requests over them in turn. */
  clients: ApiClient[];
  workers: number;
  journal: WriteJournal;
  needs: AttachmentNeeds;
  /** No new project is started after this time (epoch ms); a started one is finished. */
  until: number;
  /** At most this many projects per worker. */
  maxProjectsPerWorker?: number;
  /** Share of projects that are submitted after their two draft writes (the rest stay drafts). Default 0.8. */
  submitShare?: number;
  /** Random numbers in [0, 1). */
  random: () => number;
  /** Makes the run's values unique (tokens are `${tokenPrefix}${worker}x${n}`). */
  tokenPrefix: string;
  /** Called once, on the first acknowledged submission: a kill timer starts there, so kills hit a load in full swing. */
  onFirstSubmission?: () => void;
}

/** What a write load did. */
export interface WriteLoadResult {
  projects: number;
  submitted: number;
  /** Requests that got no answer (the worker stopped there). */
  lost: number;
  /** Answers other than the expected ones: status and code, with the step. */
  unexpected: string[];
}

/**
 * Runs `workers` concurrent clients, each creating a project, writing its Application draft twice and (mostly)
 * submitting it, over and over until `until`. A worker whose request gets no answer stops (its server is gone).
 * Every write goes into the journal with its outcome.
 */
export async function runWriteLoad(options: WriteLoadOptions): Promise<WriteLoadResult> {
  const result: WriteLoadResult = { projects: 0, submitted: 0, lost: 0, unexpected: [] };
  let submitted = false;
  const expect = (r: StepResult, what: string): boolean => {
    if (r.record.outcome === 'acked' && r.record.kind === 'submit' && !submitted) {
      submitted = true;
      options.onFirstSubmission?.();
    }
    if (r.record.outcome === 'acked') return true;
    result.unexpected.push(`${what} ${r.record.projectId}: ${r.answer.status} ${r.record.code ?? ''} ${r.answer.body.slice(0, 200)}`);
    return false;
  };
  const worker = async (w: number) => {
    let turn = w;
    const next = () => options.clients[turn++ % options.clients.length]!;
    for (let n = 0; Date.now() < options.until && n < (options.maxProjectsPerWorker ?? Number.POSITIVE_INFINITY); n++) {
      try {
        const created = await createProject(next(), options.journal);
        if (!expect(created.result, 'create') || !created.projectId) continue;
        result.projects++;
        const projectId = created.projectId;
        const [first, second] = applicationDrafts(`${options.tokenPrefix}${w}x${n}`, 1 + Math.floor(options.random() * 500));
        if (!expect(await writeDraft(next(), options.journal, projectId, first), 'draft')) continue;
        if (!expect(await writeDraft(next(), options.journal, projectId, second), 'draft')) continue;
        if (options.random() >= (options.submitShare ?? 0.8)) continue;
        if (expect(await submitApplication(next(), options.journal, projectId, options.needs), 'submit')) result.submitted++;
      } catch (error) {
        if (!(error instanceof ConnectionLost)) throw error;
        result.lost++;
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: options.workers }, (_, w) => worker(w)));
  return result;
}
