import type { Agency, FieldValue, Program, Project, User } from '../../src/model/model.ts';
import type { ProgramDefinitionRows } from '../../src/model/records.ts';
import type { Store } from '../../src/store/store.ts';

/** A fixed moment the fixtures are stamped with (2026-01-01T00:00:00Z). */
export const T0 = Date.UTC(2026, 0, 1);

/** The generated ids of the fixture rows, readable so that failures are easy to follow. */
export const IDS = {
  agency: 'AGENCY000001',
  admin: 'USER00000001',
  applicant: 'USER00000002',
  program: 'PROGRAM00001',
  draft: 'STATUS000001',
  submitted: 'STATUS000002',
  sizes: 'LIST00000001',
  name: 'FIELD0000001',
  size: 'FIELD0000002',
  kw: 'FIELD0000003',
  form: 'FORM00000001',
  photo: 'ATTACH000001',
} as const;

/** The fixture agency. */
export function agency(): Agency {
  return { id: IDS.agency, customId: 'acme', name: 'Acme Energy Agency' };
}

/** A user of the fixture agency: the agency admin by default. */
export function user(id: string = IDS.admin, overrides: Partial<User> = {}): User {
  return { id, agencyId: IDS.agency, email: `${id.toLowerCase()}@example.org`, name: `User ${id}`, agencyAdmin: id === IDS.admin, disabled: false, ...overrides };
}

/**
 * A program definition built by hand: statuses Draft → Submitted, list "sizes", fields name (text),
 * size (choice from sizes) and kw (number), and one form laying out all three with one attachment.
 */
export function programRows(updatedAt = T0): ProgramDefinitionRows {
  return {
    program: {
      id: IDS.program, agencyId: IDS.agency, customId: 'solar', name: 'Solar Interconnection',
      numberPrefix: 'SOL-', numberDigits: 5, updatedAt, createdAt: T0,
    },
    lists: [{
      id: IDS.sizes, customId: 'sizes', name: 'System sizes',
      choices: [{ value: 'S', label: 'Small' }, { value: 'M', label: 'Medium' }, { value: 'L', label: 'Large' }],
    }],
    statuses: [
      { id: IDS.draft, customId: 'draft', publicId: 'DRAFT', name: 'Draft', isInitial: true, position: 0, next: [IDS.submitted] },
      { id: IDS.submitted, customId: 'submitted', publicId: 'SUBMITTED', name: 'Submitted', isInitial: false, position: 1, next: [IDS.draft] },
    ],
    fields: [
      { id: IDS.name, customId: 'name', name: 'Applicant name', type: 'text', multiValue: false, sensitive: true, listId: null, group: 'Applicant', maxLength: 100, min: null, max: null, position: 0 },
      { id: IDS.size, customId: 'size', name: 'System size', type: 'choice', multiValue: true, sensitive: false, listId: IDS.sizes, group: null, maxLength: null, min: null, max: null, position: 1 },
      { id: IDS.kw, customId: 'kw', name: 'Capacity (kW)', type: 'number', multiValue: false, sensitive: false, listId: null, group: 'System', maxLength: null, min: 0.5, max: 1000.25, position: 2 },
    ],
    forms: [{
      id: IDS.form, customId: 'application', name: 'Application', leadsToStatusId: IDS.submitted, position: 0,
      availableIn: [IDS.draft], roles: null,
      fields: [
        { fieldId: IDS.name, required: true, position: 0 },
        { fieldId: IDS.size, required: false, position: 1 },
        { fieldId: IDS.kw, required: true, position: 2 },
      ],
      attachments: [{
        id: IDS.photo, formId: IDS.form, customId: 'photo', name: 'Site photo', allowedTypes: ['image/jpeg', 'image/png'],
        maxSizeBytes: 5 * 1024 * 1024, required: false, position: 0,
      }],
    }],
  };
}

/** Stores the fixture agency, its admin and applicant, and the fixture program; returns the stored program. */
export async function seedProgram(store: Store): Promise<Program> {
  await store.transaction(async (tx) => {
    await tx.accounts.insertAgency(agency(), T0);
    await tx.accounts.insertUser(user(IDS.admin), 'hash-admin', T0);
    await tx.accounts.insertUser(user(IDS.applicant), 'hash-applicant', T0);
    await tx.programs.saveProgramDefinition(programRows());
  });
  const program = await store.programs.findProgram(IDS.program);
  if (!program) throw new Error('the fixture program was not stored');
  return program;
}

/** A new project of the fixture program in status Draft, owned by the applicant. */
export function project(id: string, overrides: Partial<Project> = {}): Project {
  return {
    id, programId: IDS.program, number: null, statusId: IDS.draft, statusAt: T0, createdAt: T0, createdBy: IDS.applicant,
    updatedAt: T0, updatedBy: IDS.applicant, ownerId: IDS.applicant, assigneeId: null, version: 0, ...overrides,
  };
}

/** A single value (or, given an array, a multi-value) of a field, stamped at `at`. */
export function value(fieldId: string, v: string | string[], at = T0, by: string = IDS.applicant): FieldValue {
  return Array.isArray(v)
    ? { fieldId, value: null, values: v, updatedAt: at, updatedBy: by }
    : { fieldId, value: v, values: null, updatedAt: at, updatedBy: by };
}
