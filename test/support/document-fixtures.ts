import type { DocumentRenderer, DocumentTemplate, RenderedDocument } from '../../src/model/document.ts';
import type { Automation } from '../../src/model/automation.ts';
import type { ProgramModel } from '../../src/model/model.ts';
import type { ProgramDefinitionRows } from '../../src/model/records.ts';
import type { Store } from '../../src/store/store.ts';
import { IDS, programRows, T0 } from './fixtures.ts';

// Until the program file's `documents:` lands (issue 32, §1), the tests put templates on the program model with a
// store that adds them to every model it loads, and render with a fake renderer that makes a small valid PDF.

/** The attachment definitions the fixture documents' files are versions of (on a form of their own). */
export const DOC_IDS = { form: 'FORM00000002', letter: 'ATTACH000002', memo: 'ATTACH000003' } as const;

/** A template whose files are versions of `attachmentId`. */
export function template(customId: string, attachmentId: string, visibleToApplicant: boolean): DocumentTemplate {
  return {
    customId, name: `${customId} document`, title: customId, language: 'en', body: `# ${customId}`, header: null, footer: null,
    visibleToApplicant, attachmentId, signers: [], order: 'sequential', disclosure: null, version: `v-${customId}`,
  };
}

/** An approval letter the applicant sees, and an internal memo kept from applicants. */
export const TEMPLATES: readonly DocumentTemplate[] = [template('ApprovalLetter', DOC_IDS.letter, true), template('InternalMemo', DOC_IDS.memo, false)];

/**
 * The store, with `templates` (TEMPLATES by default; a function of the model to name its attachment definitions) on
 * the model of the fixture program (of every program when `programId` is null) wherever it is loaded.
 */
export function withDocuments(
  store: Store, templates: readonly DocumentTemplate[] | ((model: ProgramModel) => readonly DocumentTemplate[]) = TEMPLATES, programId: string | null = IDS.program,
): Store {
  const programs = {
    ...store.programs,
    loadProgramModel: async (program: Parameters<Store['programs']['loadProgramModel']>[0]) => {
      const model = await store.programs.loadProgramModel(program);
      if (programId !== null && program.id !== programId) return model;
      const documents = typeof templates === 'function' ? templates(model) : templates;
      return { ...model, program: { ...model.program, documents } };
    },
  };
  return new Proxy(store, { get: (target, key, receiver) => (key === 'programs' ? programs : Reflect.get(target, key, receiver)) });
}

/** The fixture program with a staff form holding the documents' attachment definitions, and the given automations. */
export function documentProgramRows(automations: Automation[] = [], updatedAt = T0 + 10): ProgramDefinitionRows {
  const rows = programRows(updatedAt);
  const def = (id: string, customId: string, name: string, position: number) => ({
    id, formId: DOC_IDS.form, customId, name, allowedTypes: ['application/pdf'], maxSizeBytes: 10 * 1024 * 1024, required: false, position,
  });
  return {
    ...rows,
    program: { ...rows.program, automations },
    forms: [...rows.forms, {
      id: DOC_IDS.form, customId: 'letters', name: 'Letters', leadsToStatusId: null, position: 1, availableIn: [], roles: null, fields: [],
      attachments: [def(DOC_IDS.letter, 'ApprovalLetter', 'Approval letter', 0), def(DOC_IDS.memo, 'InternalMemo', 'Internal memo', 1)],
    }],
  };
}

/** A small valid PDF naming the project and template (what the real renderer of §1 makes is a real document). */
export function tinyDocument(projectId: string, templateId: string): Uint8Array {
  const text = `${templateId} for ${projectId}`;
  const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

/** A fake of the DocumentRenderer seam: counts its calls; `fail` calls throw, `hold` makes the next call wait for `release`. */
export class FakeRenderer implements DocumentRenderer {
  calls = 0;
  fail = 0;
  #holdNext = false;

  /** The next render waits until `release()` is called (a worker that hangs or died mid-render). */
  holdNext(): { release: () => void; started: Promise<void> } {
    this.#holdNext = true;
    let started!: () => void;
    const startedP = new Promise<void>((r) => { started = r; });
    let release!: () => void;
    const released = new Promise<void>((r) => { release = r; });
    this.#waiting = { started, released };
    return { release: () => release(), started: startedP };
  }

  #waiting: { started: () => void; released: Promise<void> } | null = null;

  async renderForProject(input: { programId: string; templateId: string; projectId: string; now: number }): Promise<RenderedDocument> {
    this.calls++;
    if (this.#holdNext && this.#waiting) {
      this.#holdNext = false;
      const w = this.#waiting;
      this.#waiting = null;
      w.started();
      await w.released;
    }
    if (this.fail > 0) {
      this.fail--;
      throw new Error('the renderer fell over');
    }
    return { pdf: tinyDocument(input.projectId, input.templateId), templateVersion: `v-${input.templateId}`, title: input.templateId };
  }
}
