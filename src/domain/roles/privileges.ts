/**
 * The closed list of privileges a role of a program may hold, each with the one line that docs/programs.md and
 * `apas grant` show. A program file's roles name them; the built-in roles are fixed sets of them (BUILT_IN_ROLES).
 */
export const PRIVILEGES = {
  readProjects: 'read every project of the program (without it only the projects one owns); staff are the roles that have it: they see the work queue and may be assigned',
  revealSensitive: 'see sensitive values in plain text, with a second factor (as a grant made with --sensitive does)',
  createProjects: 'start new projects (CreateNewProject)',
  editOwnProjects: 'fill in, submit, reply on and hand over the projects one owns',
  editData: 'fill in the forms meant for the role on every project and change their data and files (SetProjectData, uploads, submits)',
  overrideForms: 'write submitted data, and use every form in every status whatever its roles',
  changeOwner: 'hand any project to another user (SetProjectOwner)',
  assign: 'assign a project to a staff member (SetAssignee)',
  reviewAttachments: 'approve or reject files and read them with their review (SetAttachmentMetadata, GetAttachmentAsAdmin)',
  inquiries: 'ask and answer questions, write internal notes, set a thread\'s status and external id (the inquiry operations)',
  moveStatus: 'move projects through the workflow, optionally only along the role\'s transitions (SetProjectStatus, SetProjectStatusReportAs, GetStatusList)',
  readHistory: 'read a project\'s status history (GetProjectStatusHistory)',
  readAllData: 'read every form\'s data of a project at once (GetAllProjectData)',
  export: 'export a project with its files (GetExportProject)',
  manageWebhooks: 'create, change and read the program\'s webhook subscriptions and deliveries',
  manageDeadlines: 'start, satisfy and cancel a project\'s deadlines (StartProjectDeadline, SatisfyProjectDeadline, CancelProjectDeadline)',
  runAutomations: 'see which projects a daily schedule selects now, and run it now (GetAutomationSchedule, RunAutomationSchedule)',
  administerProgram: 'administer the program in the console: its people\'s grants, its program file and versions, its test copies, its audit trail and its mail (src/domain/administration)',
  generateDocuments: 'generate one of the program\'s documents for a project from its template (GenerateDocument, the review page), and void or resend its signing envelopes (VoidEnvelope, ResendEnvelope)',
} as const;

/** One named privilege. */
export type Privilege = keyof typeof PRIVILEGES;

/** Every privilege, in the order of PRIVILEGES. */
export const PRIVILEGE_NAMES = Object.keys(PRIVILEGES) as Privilege[];

/** True when `name` is one of the privileges. */
export function isPrivilege(name: string): name is Privilege {
  return Object.hasOwn(PRIVILEGES, name);
}

/**
 * The built-in roles as privilege sets; they keep the meaning they had before roles were configurable. Sensitive
 * values are never part of a built-in role: a grant's --sensitive flag (or being an agency admin) adds revealSensitive.
 */
export const BUILT_IN_ROLES: Readonly<Record<'applicant' | 'reader' | 'editor' | 'admin', readonly Privilege[]>> = {
  applicant: ['createProjects', 'editOwnProjects'],
  reader: ['readProjects'],
  editor: ['readProjects', 'createProjects', 'editOwnProjects', 'editData', 'changeOwner', 'assign'],
  admin: PRIVILEGE_NAMES.filter((p) => p !== 'revealSensitive'),
};

/** The names of the built-in roles, which a program's own roles may not take. */
export const BUILT_IN_ROLE_NAMES = Object.keys(BUILT_IN_ROLES) as (keyof typeof BUILT_IN_ROLES)[];
