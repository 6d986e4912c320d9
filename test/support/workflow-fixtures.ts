import type { ProgramDefinitionRows } from '../../src/model/records.ts';
import type { Store } from '../../src/store/store.ts';
import { IDS, programRows, T0 } from './fixtures.ts';

/**
 * The generated ids of the rows the workflow fixture adds to the fixture program (fixtures.ts stays as it is):
 * a final status Approved, a free-text field `notes` and a multi-value text field `tags` (both optional on the
 * application form), a text field `verdict` that is only on the staff-only form `review`, and the form `archive`
 * that is available in no status (with kw and the date field `installed`).
 */
export const WF = {
  approved: 'STATUS000003',
  notes: 'FIELD0000004',
  tags: 'FIELD0000005',
  verdict: 'FIELD0000006',
  installed: 'FIELD0000007',
  review: 'FORM00000002',
  archive: 'FORM00000003',
  reviewPhoto: 'ATTACH000002',
} as const;

/**
 * The fixture program with a richer workflow: statuses Draft (initial) → Submitted → Draft | Approved (final);
 * form `application` (every role, Draft → Submitted) now also holds the optional fields notes and tags;
 * form `review` (roles: editor; available in Submitted; leads nowhere) holds notes (required) and verdict, and one attachment;
 * form `archive` (every role; kw and installed) is available in no status; deadlines answer (10 business days),
 * internal (3 calendar days, not shown to applicants) and install (until the field installed).
 */
export function workflowProgramRows(updatedAt = T0 + 1): ProgramDefinitionRows {
  const base = programRows(updatedAt);
  const application = base.forms[0]!;
  return {
    ...base,
    // Deadlines (test/http/deadlines.test.ts): Los Angeles with California's holidays; one hidden from applicants.
    program: {
      ...base.program,
      calendar: { timeZone: 'America/Los_Angeles', workingDays: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], holidays: { country: 'US', region: 'CA' }, closures: [] },
      deadlines: [
        { customId: 'answer', name: 'Answer due', duration: { businessDays: 10 }, shownToApplicant: true },
        { customId: 'internal', name: 'Internal check', duration: { calendarDays: 3 }, shownToApplicant: false },
        { customId: 'install', name: 'Installation', duration: { untilField: WF.installed }, shownToApplicant: true },
      ],
    },
    statuses: [
      { id: IDS.draft, customId: 'draft', publicId: 'DRAFT', name: 'Draft', isInitial: true, position: 0, next: [IDS.submitted] },
      { id: IDS.submitted, customId: 'submitted', publicId: 'SUBMITTED', name: 'Submitted', isInitial: false, position: 1, next: [IDS.draft, WF.approved] },
      { id: WF.approved, customId: 'approved', publicId: 'APPROVED', name: 'Approved', isInitial: false, position: 2, next: [] },
    ],
    fields: [
      ...base.fields,
      { id: WF.notes, customId: 'notes', name: 'Notes', type: 'text', multiValue: false, sensitive: false, listId: null, group: 'Review', maxLength: 500, min: null, max: null, position: 3 },
      { id: WF.tags, customId: 'tags', name: 'Tags', type: 'text', multiValue: true, sensitive: false, listId: null, group: null, maxLength: 50, min: null, max: null, position: 4 },
      { id: WF.verdict, customId: 'verdict', name: 'Verdict', type: 'text', multiValue: false, sensitive: false, listId: null, group: 'Review', maxLength: 50, min: null, max: null, position: 5 },
      { id: WF.installed, customId: 'installed', name: 'Installed on', type: 'date', multiValue: false, sensitive: false, listId: null, group: 'Completion', maxLength: null, min: null, max: null, position: 6 },
    ],
    forms: [
      {
        ...application,
        fields: [...application.fields, { fieldId: WF.notes, required: false, position: 3 }, { fieldId: WF.tags, required: false, position: 4 }],
      },
      {
        id: WF.review, customId: 'review', name: 'Review', leadsToStatusId: null, position: 1, availableIn: [IDS.submitted], roles: ['editor'],
        fields: [{ fieldId: WF.notes, required: true, position: 0 }, { fieldId: WF.verdict, required: false, position: 1 }],
        attachments: [{
          id: WF.reviewPhoto, formId: WF.review, customId: 'inspection', name: 'Inspection report', allowedTypes: ['application/pdf'],
          maxSizeBytes: 1024, required: true, position: 0,
        }],
      },
      {
        id: WF.archive, customId: 'archive', name: 'Archive', leadsToStatusId: null, position: 2, availableIn: [], roles: null,
        fields: [{ fieldId: IDS.kw, required: false, position: 0 }, { fieldId: WF.installed, required: false, position: 1 }], attachments: [],
      },
    ],
  };
}

/** Replaces the fixture program's definition with workflowProgramRows() (the harness seeds the plain one first). */
export async function seedWorkflowProgram(store: Store): Promise<void> {
  await store.transaction((tx) => tx.programs.saveProgramDefinition(workflowProgramRows()));
}
