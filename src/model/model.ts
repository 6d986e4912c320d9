import type { Automation } from './automation.ts';
import type { DocumentTemplate } from './document.ts';
import type { ConnectionDefinition } from './connection.ts';
import type { MailTemplate, NotificationTemplates } from './notification.ts';

/** The kinds of value a data field holds; every value travels as a string. */
export const FIELD_TYPES = ['text', 'number', 'integer', 'boolean', 'date', 'choice', 'table'] as const;
/** One of FIELD_TYPES. */
export type FieldType = (typeof FIELD_TYPES)[number];

/** The kinds of value a column of a table field holds: every field type but table. */
export const COLUMN_TYPES = ['text', 'number', 'integer', 'boolean', 'date', 'choice'] as const;
/** One of COLUMN_TYPES. */
export type ColumnType = (typeof COLUMN_TYPES)[number];

/** A column of a table field; rows key their cells by the column's customId. */
export interface TableColumn {
  customId: string; name: string; type: ColumnType; listId: string | null; required: boolean;
  maxLength: number | null; min: number | null; max: number | null;
}

/** What a table field's rows are made of: typed columns and limits on the number of rows (null: no limit). */
export interface TableSpec { columns: TableColumn[]; minRows: number | null; maxRows: number | null }

/** The built-in roles of every program, from least to most (src/domain/roles/privileges.ts says what each may do). */
export const PROGRAM_ROLES = ['applicant', 'reader', 'editor', 'admin'] as const;
/** A role in a program: one of PROGRAM_ROLES, or the customId of one of the program's own roles. */
export type ProgramRole = string;

/**
 * A role a program file defines: a set of privilege names; with `transitions`, moveStatus only along those
 * (status ids: from one status to any of `to`).
 */
export interface CustomRole { customId: string; name: string; privileges: string[]; transitions: { from: string; to: string[] }[] | null }

/** A day of the week as program files write it. */
export type Weekday = 'Mon' | 'Tue' | 'Wed' | 'Thu' | 'Fri' | 'Sat' | 'Sun';

/** A program's calendar (`calendar:`, src/domain/calendar): days begin at local midnight in `timeZone`. */
export interface ProgramCalendar {
  timeZone: string; workingDays: Weekday[];
  /** Public holidays of date-holidays for a country (and region); null for none. */
  holidays: { country: string; region: string | null } | null;
  closures: { date: string; name: string | null }[];
}

/** How long a deadline runs: working days or calendar days after its start, or until a date field's value (its id when stored, its reference in a file). */
export type DeadlineDuration = { businessDays: number } | { calendarDays: number } | { untilField: string };

/** A deadline a program defines (`deadlines:`, src/domain/deadlines). */
export interface DeadlineDefinition { customId: string; name: string; duration: DeadlineDuration; shownToApplicant: boolean }

/** An agency. */
export interface Agency { id: string; customId: string | null; name: string }

/** A user account as the domain sees it (no secrets). */
export interface User { id: string; agencyId: string; email: string; name: string; agencyAdmin: boolean; disabled: boolean }

/** A user's grant in one program. */
export interface ProgramGrant {
  userId: string; programId: string; role: ProgramRole; sensitive: boolean;
  /** The access groups (customIds) the grant is limited to: only their projects are read and changed. Absent or null: every project. */
  accessGroups?: string[] | null;
}

/**
 * A named group of a program's projects (program file `accessGroups:`): the projects its CEL condition `if` holds for.
 * A grant limited to groups reads and changes only their projects (src/domain/access-groups).
 */
export interface AccessGroup { customId: string; name: string; if: string }

/** A program row without its definition. */
export interface Program {
  id: string; agencyId: string; customId: string; name: string;
  numberPrefix: string; numberDigits: number; updatedAt: number;
  /** The program file's notification templates (null or absent: the defaults). */
  notifications?: NotificationTemplates | null;
  /** Applicants may sign up for the program themselves on the web pages (the program file's `selfService.signUp`). */
  selfSignUp?: boolean;
  /** The program file's own roles (`roles:`); absent or empty for none. */
  roles?: CustomRole[];
  /** The program file's automations (`automations:`), in file order; absent or empty for none. */
  automations?: Automation[];
  /** The program file's named mail templates (`mailTemplates:`), for automations to send; absent or empty for none. */
  mailTemplates?: NamedMailTemplate[];
  /** The program's calendar (`calendar:`); null or absent for the default (UTC, Monday to Friday, no holidays). */
  calendar?: ProgramCalendar | null;
  /** The program's deadlines (`deadlines:`); absent or empty for none. */
  deadlines?: DeadlineDefinition[];
  /** The program's document templates (`documents:`, src/domain/documents); absent or empty for none. */
  documents?: DocumentTemplate[];
  /** The program file's relations (`relations:`, src/domain/relations): the related projects staff and automations create; absent or empty for none. */
  relations?: ProgramRelation[];

  /** The program's connections to the agency's own systems (`connections:`, src/domain/connections); absent or empty for none. */
  connections?: ConnectionDefinition[];
  /** The id of the live program this program is a test copy of (src/domain/administration/test-program-service.ts); absent for a live program. */
  testOf?: string;
  /** The program file's access groups (`accessGroups:`); absent or empty for none. */
  accessGroups?: AccessGroup[];
}

/** How one project relates to another: the other is its child, its successor, or just linked. */
export type RelationKind = 'child' | 'successor' | 'link';

/**
 * A relation a program offers (`relations:`): a project of `program` (a customId of the agency's programs) created from
 * a project of this one, related as `kind`, its drafts prefilled by `copy` (the new project's field reference → this
 * program's field id).
 */
export interface ProgramRelation { customId: string; name: string; kind: ProgramRelationKind; program: string; copy: { to: string; from: string }[] }

/**
 * A program relation's kind: one that creates projects (child, successor, link), or one that only names, for rules,
 * the project this one was made from (`parent`: made as its child; `predecessor`: as its successor).
 */
export type ProgramRelationKind = RelationKind | 'parent' | 'predecessor';

/** True for a program relation that only names the project a project was made from: it creates nothing. */
export function readsOnly(kind: ProgramRelationKind): kind is 'parent' | 'predecessor' {
  return kind === 'parent' || kind === 'predecessor';
}

/** A mail template a program file names, for automations to send (src/domain/workflow/named-mail.ts renders one). */
export interface NamedMailTemplate extends MailTemplate { customId: string }

/** A reason a status move may give, from the list of the status it moves into. */
export interface StatusReason { customId: string; name: string }

/** A column of a list loaded from a CSV file, by its header, and the type of its cells. */
export interface ListColumn { name: string; type: 'text' | 'number' | 'integer' | 'boolean' | 'date' }

/** Where a long list's rows come from: a CSV file loaded apart from the program (src/domain/lists), with these columns. */
export interface ListRowSource { key: string; label: string; columns: ListColumn[] }

/** One choice of a list; a loaded row also has its cells by column name (empty cells left out). */
export interface ListChoice { value: string; label: string; data?: Readonly<Record<string, string>> }

/**
 * A custom list of choices. A list with `rows` holds the rows last loaded from its CSV file as its choices, once the
 * program's model is loaded (none in a program file or definition).
 */
export interface CustomList { id: string; customId: string | null; name: string; choices: ListChoice[]; rows?: ListRowSource }

/** A workflow status. */
export interface Status {
  id: string; customId: string | null; publicId: string; name: string; isInitial: boolean;
  position: number; next: string[];
  /** The applicant's withdrawal (program file `withdrawal: true`): owners may move their submitted project here along `next`. Absent: no. */
  withdrawal?: boolean;
  /**
   * The reasons a move into this status may give (absent: none); `reasonRequired`: every move must give one (true), or
   * only moves from the statuses listed (ids).
   */
  reasons?: StatusReason[];
  reasonRequired?: boolean | string[];
  /** The status-changed mail of a move into this status, instead of the program's (absent or null: the program's). */
  mailTemplate?: MailTemplate | null;
}

/** A data field of a program. */
export interface DataField {
  id: string; customId: string | null; name: string; type: FieldType; multiValue: boolean; sensitive: boolean;
  listId: string | null; group: string | null; maxLength: number | null; min: number | null; max: number | null; position: number;
  /** A calculated field's CEL formula (its `type` is the formula's result type); null or absent for a field people fill in. */
  formula?: string | null;
  /** The columns and row limits of a field of type table (null or absent for every other type). */
  table?: TableSpec | null;
  /** A summary field (program file `summary: true`): a column of My projects, searched there. Absent: no. */
  summary?: boolean;
}

/** A validation of a field on a form: a CEL rule its values must meet, and what to tell the person when they do not. */
export interface FieldValidation { rule: string; message: string }

/** The CEL rules of a field on one form (docs/programs.md, "Field rules"); null where the form sets none. */
export interface FieldRules { visibleIf: string | null; requiredIf: string | null; readOnlyIf: string | null; validations: FieldValidation[] }

/** A data field placed on a form, with its rules there (null or absent: none). */
export interface FormField { fieldId: string; required: boolean; position: number; rules?: FieldRules | null }

/** An attachment definition of a form. */
export interface AttachmentDefinition {
  id: string; formId: string; customId: string | null; name: string; allowedTypes: string[];
  maxSizeBytes: number; required: boolean; position: number;
  /**
   * The customId of the document template whose generated files this definition holds (migration 045): people cannot
   * upload to it. Absent for a definition people upload to.
   */
  document?: string;
}

/** A form of a program. */
export interface Form {
  id: string; customId: string | null; name: string; leadsToStatusId: string | null; position: number;
  availableIn: string[]; fields: FormField[]; attachments: AttachmentDefinition[];
  /** The program roles that may use the form (admins always may); null for every role. */
  roles: ProgramRole[] | null;
}

/** A program with its whole active definition, as the services use it. */
export interface ProgramModel {
  program: Program;
  statuses: Status[];
  forms: Form[];
  fields: DataField[];
  lists: CustomList[];
  /** Statuses and fields an import retired: no longer usable, but still named by history entries and saved values. */
  retired: { statuses: Status[]; fields: DataField[] };
}

/** A project row. */
export interface Project {
  id: string; programId: string; number: string | null; statusId: string; statusAt: number;
  createdAt: number; createdBy: string; updatedAt: number; updatedBy: string;
  ownerId: string; assigneeId: string | null; version: number;
  /** The organization the project was started for: access follows its membership (absent or null: personal). */
  organizationId?: string | null;
  /** The access groups (customIds) the project is in now, kept by the change step; absent for none. */
  accessGroups?: string[];
}

/**
 * What a list of projects shows of each (GetProjects, GetProjectsByNumber) and pages by (creation time and id): read
 * without the project's other columns, since a list's cost is mostly its rows' values.
 */
export type ProjectListing = Pick<Project, 'id' | 'programId' | 'number' | 'statusId' | 'statusAt' | 'createdAt' | 'updatedAt'>;

/** A stored value: `value` for single-value fields, `values` for multi-value ones. */
export interface FieldValue { fieldId: string; value: string | null; values: string[] | null; updatedAt: number; updatedBy: string }

/** One status-history entry. */
export interface HistoryEntry {
  id: string; projectId: string; statusId: string; changedAt: number; changedBy: string; reportAs: string;
  /** The customId of the reason the move gave, from the status's list, and its message (absent or null: none). */
  reasonId?: string | null;
  message?: string | null;
  /** The customId of the automation that made the move, in the name of `changedBy` (absent or null: a person's move). */
  automation?: string | null;
}

/** One audited change, written in the same transaction as the change itself. */
export interface AuditEntry {
  action: string; actorId: string | null; agencyId?: string | null; programId?: string | null;
  projectId?: string | null; detail?: Record<string, unknown>; requestId?: string | null;
}

/** The approval states of an uploaded file, as GetAttachmentMetadata shows them. */
export const APPROVAL_STATUSES = ['Pending', 'Approved', 'Rejected'] as const;
/** One of APPROVAL_STATUSES. */
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** One stored version of a project's file for an attachment definition; the highest version is the active one. */
export interface AttachmentRecord {
  id: string; projectId: string; definitionId: string; version: number; blobKey: string;
  fileName: string; contentType: string; sizeBytes: number; sha256: string; uploadedBy: string; uploadedAt: number;
  approvalStatus: ApprovalStatus; note: string | null; reviewedBy: string | null; reviewedAt: number | null;
  /** A generated version (src/domain/documents): the request it came from and the template's version; absent for an upload. */
  documentRequestId?: string | null; templateVersion?: string | null;
}
