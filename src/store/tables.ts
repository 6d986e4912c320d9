import type { ColumnType, Generated } from 'kysely';

/** Booleans are stored as 0/1 integers so that one schema serves SQLite and PostgreSQL alike. */
export type Flag = number;

/** An agency: the top of the hierarchy, owning programs and users. */
export interface AgencyTable { id: string; custom_id: string | null; name: string; created_at: number }

/** A person or integration account; signs in with e-mail and password (HTTP Basic). */
export interface UserTable {
  id: string; agency_id: string; email: string; name: string; password_hash: string;
  agency_admin: Flag; disabled: Flag; created_at: number; updated_at: number;
  /** The last completed sign-in on the web pages (migration 048). */
  last_sign_in_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** An API key: public id plus hashed secret, bound to one user. */
export interface ApiKeyTable {
  id: string; user_id: string; name: string; secret_hash: string; created_at: number; revoked_at: number | null;
  /** The last request the key authenticated, to the minute (migration 048). */
  last_used_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A program of an agency: forms, fields, statuses, workflow and project numbering. */
export interface ProgramTable {
  id: string; agency_id: string; custom_id: string; name: string; number_prefix: string;
  number_digits: number; next_number: number; created_at: number; updated_at: number;
  /** The program file's notification templates as JSON (migration 017); null for the defaults. */
  notifications: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 when applicants may sign up for the program themselves (migration 018). */
  self_sign_up: ColumnType<Flag, Flag | undefined, Flag>;
  /** The program file's own roles as JSON (migration 023); null for none. */
  roles: ColumnType<string | null, string | null | undefined, string | null>;
  /** The program file's automations as JSON (migration 027); null for none. */
  automations: ColumnType<string | null, string | null | undefined, string | null>;
  /** The program file's named mail templates as JSON (migration 028); null for none. */
  mail_templates: ColumnType<string | null, string | null | undefined, string | null>;
  /** The program file's calendar as JSON (migration 026); null for the default. */
  calendar: ColumnType<string | null, string | null | undefined, string | null>;
  /** The program file's deadlines as JSON (migration 026); null for none. */
  deadlines: ColumnType<string | null, string | null | undefined, string | null>;
  /** The program file's document templates as JSON (migration 045); null for none. */
  documents: ColumnType<string | null, string | null | undefined, string | null>;
  /** The program file's connections as JSON (migration 054); null for none. */
  connections: ColumnType<string | null, string | null | undefined, string | null>;
  /** The live program this one is a test copy of (migration 053); null for a live program. */
  test_of: ColumnType<string | null, string | null | undefined, string | null>;
  /** The program file's access groups as JSON (migration 057); null for none. */
  access_groups: ColumnType<string | null, string | null | undefined, string | null>;
  /** The program file's relations as JSON (migration 056); null for none. */
  relations: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A relation from one project to another (migration 056): child, successor or link; `relation` the program relation that made it. */
export interface ProjectRelationTable {
  id: string; agency_id: string; from_program_id: string; from_project_id: string; to_program_id: string; to_project_id: string;
  kind: string; relation: string | null; created_at: number; created_by: string;
}

/** A named list of choices for choice fields. */
export interface CustomListTable {
  id: string; program_id: string; custom_id: string | null; name: string; retired: Flag;
  /** The declared columns of a list whose rows come from a CSV file, as JSON (migration 055); null for others. */
  row_source: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One row of a list loaded from a CSV file (migration 055): its key, label and column values (JSON). */
export interface CustomListRowTable { list_id: string; position: number; value: string; label: string; data: string }

/** One word of a loaded row's key or label (migration 055), for the list's search. */
export interface CustomListRowWordTable { list_id: string; word: string; position: number }

/** One choice of a custom list. */
export interface CustomListChoiceTable { list_id: string; value: string; label: string; position: number }

/** A status of a program's workflow. */
export interface StatusTable {
  id: string; program_id: string; custom_id: string | null; public_id: string; name: string;
  is_initial: Flag; position: number; retired: Flag;
  /** The reasons a move into the status may give as JSON, `{ required, reasons }` (migration 028); null for none. */
  reasons: ColumnType<string | null, string | null | undefined, string | null>;
  /** The status's own status-changed mail template as JSON (migration 028); null for the program's. */
  mail_template: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 for the applicant's withdrawal status (migration 034). */
  withdrawal: ColumnType<Flag, Flag | undefined, Flag>;
}

/** An allowed move from one status to the next. */
export interface StatusTransitionTable { program_id: string; from_status_id: string; to_status_id: string }

/** A data field of a program; forms lay fields out. */
export interface DataFieldTable {
  id: string; program_id: string; custom_id: string | null; name: string; type: string;
  multi_value: Flag; sensitive: Flag; list_id: string | null; group_name: string | null;
  max_length: number | null; min_value: number | null; max_value: number | null; position: number; retired: Flag;
  /** A calculated field's CEL formula (migration 025); null for fields people fill in. */
  formula: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON of a table field's columns and row limits (TableSpec); null for other fields. */
  table_spec: string | null;
  /** 1 for a summary field: a column of My projects, searched there (migration 034). */
  summary: ColumnType<Flag, Flag | undefined, Flag>;
}

/** A form of a program. */
export interface FormTable {
  id: string; program_id: string; custom_id: string | null; name: string;
  leads_to_status_id: string | null; position: number; retired: Flag;
  /** JSON array of the program roles that may use the form; null for every role. */
  roles: string | null;
}

/** The statuses in which a form is available. */
export interface FormStatusTable { form_id: string; status_id: string }

/** A data field placed on a form, with whether the form requires it. */
export interface FormFieldTable {
  form_id: string; field_id: string; required: Flag; position: number;
  /** The field's rules on the form as JSON (migration 025); null for none. */
  rules: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An attachment definition of a form: what may be uploaded. */
export interface AttachmentDefinitionTable {
  id: string; program_id: string; form_id: string; custom_id: string | null; name: string;
  allowed_types: string; max_size_bytes: number; required: Flag; position: number; retired: Flag;
  /** The customId of the document template whose generated files it holds (migration 045); null for uploads. */
  document: ColumnType<string | null, string | null | undefined, string | null>;
}

/** What a user may do in a program: role applicant, reader, editor or admin. */
export interface ProgramGrantTable {
  user_id: string; program_id: string; role: string; sensitive: Flag;
  /** The access groups the grant is limited to, as a JSON list of customIds (migration 057); null for every project. */
  access_groups: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A project: one application moving through a program's workflow. */
export interface ProjectTable {
  id: string; program_id: string; number: string | null; status_id: string; status_at: number;
  created_at: number; created_by: string; updated_at: number; updated_by: string;
  owner_id: string; assignee_id: string | null; version: number;
  /** Kept by the change step (migration 035): the last change an applicant made, and the needs-attention bits (1 reply, 2 file). */
  last_applicant_activity_at: Generated<number | null>; attention: Generated<number>;
  /** The organization the project was started for (migration 037): its members read it; null for a personal project. */
  organization_id: Generated<string | null>;
  /** The program's access groups the project is in now, as a JSON list of customIds (migration 057); null for none. */
  access_groups: Generated<string | null>;
}

/** One project's membership of one access group (migration 057), kept by the change step with projects.access_groups. */
export interface ProjectAccessGroupTable { project_id: string; group_id: string; program_id: string }

/** An installer company (migration 037): its defaults (JSON, field customId → value) prefill new applications. */
export interface OrganizationTable { id: string; agency_id: string; name: string; defaults: string; created_at: number; created_by: string }

/** A user's membership of an organization: role member or admin (admins invite and remove members). */
export interface OrganizationMemberTable { organization_id: string; user_id: string; role: string; added_at: number }

/** A mailed invitation to join an organization: one use, expires; only the token's SHA-256 is kept. */
export interface OrganizationInvitationTable {
  id: string; organization_id: string; email: string; token_hash: string; invited_by: string;
  created_at: number; expires_at: number; used_at: number | null;
}

/** An e-signature envelope (migration 047): a generated document version of a project, its signers' order and state. */
export interface EnvelopeTable {
  id: string; project_id: string; program_id: string; template_id: string; title: string; attachment_id: string; attachment_version: number;
  signed_version: number | null; state: string; signing_order: string; disclosure: string; created_at: number; created_by: string;
  updated_at: number; all_signed_at: number | null; finished_at: number | null;
}

/** One signer of an envelope (migration 047), in its place in the order, with what they did. */
export interface EnvelopeSignerTable {
  id: string; envelope_id: string; position: number; signer_id: string; kind: string; label: string; name: string; email: string;
  user_id: string | null; role: string | null; state: string; notified_at: number | null; consented_at: number | null;
  typed_name: string | null; signed_at: number | null; ip: string | null; decline_reason: string | null;
}

/** One step of an envelope's audit trail (migration 047); `detail` is JSON. */
export interface EnvelopeStepTable {
  id: string; envelope_id: string; seq: number; at: number; signer_id: string | null; action: string; user_id: string | null;
  ip: string | null; user_agent: string | null; detail: string;
}

/** An agency's OpenID Connect provider for staff (migration 051); the client secret sealed, the mapping as JSON. */
export interface AgencySignOnTable {
  agency_id: string; label: string; issuer: string; client_id: string; client_secret: string; scopes: string; email_claim: string;
  groups_claim: string; group_grants: string; allow_passwords: Flag; enabled: Flag; updated_at: number; updated_by: string | null;
}

/** A single sign-on under way (migration 051): SHA-256 of its state and of the browser's binding; single use, short-lived. */
export interface SignOnAttemptTable {
  id: string; agency_id: string; browser_hash: string; nonce: string; code_verifier: string; next: string; created_at: number; expires_at: number;
}

/** A mailed signing link (migration 047): only its token's SHA-256; one use, an expiry, revoked by a resend. */
export interface SigningLinkTable {
  id: string; token_hash: string; envelope_id: string; signer_id: string; created_at: number; expires_at: number; used_at: number | null; revoked_at: number | null;
}

/** A published version of a program (migration 050): who, when, the file's SHA-256 and text, and its changes as JSON lines. */
export interface ProgramVersionTable {
  id: string; program_id: string; version: number; published_at: number; published_by: string | null; publisher: string;
  file_name: string; sha256: string; content: string; changes: string;
}

/** A program file uploaded in the console and waiting for its publication (migration 050). */
export interface ProgramUploadTable { id: string; agency_id: string; uploaded_by: string; uploaded_at: number; file_name: string; sha256: string; content: string }

/** A saved view of the work queue (migration 035): its query string, personal or shared with the program's staff. */
export interface QueueViewTable { id: string; program_id: string; owner_id: string; name: string; shared: Flag; query: string; created_at: number; updated_at: number }

/** A draft (unsubmitted) value of a field on one form of a project. */
export interface ProjectDraftTable {
  project_id: string; form_id: string; field_id: string; value: string | null; values_json: string | null;
  updated_at: number; updated_by: string;
}

/** The submitted value of a field of a project (one per field, whichever form last saved it). */
export interface ProjectValueTable {
  project_id: string; field_id: string; form_id: string; value: string | null; values_json: string | null;
  updated_at: number; updated_by: string;
  /** The value as a number when it is one (numeric search); null otherwise. */
  num_value: number | null;
  /** The value lower-cased by the service (case-insensitive search); null for multi-value fields. */
  folded: string | null;
}

/** One value of a multi-value field's submitted list, searchable on its own. */
export interface ProjectValueItemTable {
  project_id: string; field_id: string; position: number; value: string; folded: string; num_value: number | null;
}

/** One filled cell of a submitted table value, for GetProjectsByData on a column (migration 024). */
export interface ProjectTableCellTable {
  project_id: string; field_id: string; row_index: number; column_key: string; value: string; folded: string; num_value: number | null;
}

/** One submission of a form of a project. */
export interface FormSubmissionTable { id: string; project_id: string; form_id: string; submitted_at: number; submitted_by: string }

/** One entry of a project's status history. */
export interface StatusHistoryTable {
  id: string; project_id: string; status_id: string; changed_at: number; changed_by: string; report_as: string;
  /** Position in the project's history (1, 2, …): orders entries that share a millisecond. */
  seq: number;
  /** The customId of the reason the move gave, and its message (migration 028); null for none. */
  reason_id: ColumnType<string | null, string | null | undefined, string | null>;
  message: ColumnType<string | null, string | null | undefined, string | null>;
  /** The customId of the automation that made the move (migration 043); null for a person's. */
  automation: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One summary count of a program for the dashboards (migration 036): kind and keys as dashboard-queries.ts says. */
export interface DashboardCountTable { program_id: string; kind: string; k1: string; k2: string; k3: string; n: number }

/** What one project contributes to dashboard_counts, as JSON, so that a change applies only the difference (migration 036). */
export interface DashboardFactTable {
  project_id: string; program_id: string; facts: string;
  /** The project's set of access groups its facts were counted under in dashboard_group_counts (migration 060); null for none. */
  groups: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One summary count of the projects in one set of access groups (migration 060): `groups` is the set's key (dashboard-queries.ts). */
export interface DashboardGroupCountTable { program_id: string; groups: string; kind: string; k1: string; k2: string; k3: string; n: number }
/** A one-time pass over the whole database that a start completed (migration 039), by name. */
export interface MaintenanceMarkTable { name: string; done_at: number }

/** One audited change of state. */
export interface AuditLogTable {
  id: string; at: number; actor_id: string | null; action: string; agency_id: string | null;
  program_id: string | null; project_id: string | null; detail: string; request_id: string | null;
}

/** A user's TOTP enrolment. */
export interface UserMfaTable { user_id: string; secret: string; enrolled_at: number; last_step: number }

/** A user's MFA session token (hashed). */
export interface MfaSessionTokenTable { id: string; user_id: string; token_hash: string; created_at: number; expires_at: number }

/** A web-page session of a user enrolled in MFA: the SHA-256 of the secret of its cookie. */
export interface WebSessionTable { id: string; user_id: string; secret_hash: string; created_at: number; expires_at: number }

/** A session of the web application's sign-in page; only the SHA-256 of the cookie's secret is kept. */
export interface BrowserSessionTable {
  id: string; user_id: string; secret_hash: string; created_at: number; last_seen_at: number; expires_at: number; mfa_pending: number;
}

/** A fixed-window request counter, shared by all instances on one database. */
export interface RateLimitWindowTable { bucket: string; window_start: number; count: number }

/** A thread of notes between staff and applicant about one project; external_id is unique within the program. */
export interface InquiryThreadTable {
  id: string; program_id: string; project_id: string; subject: string; status: string; external_id: string | null;
  created_at: number; created_by: string; updated_at: number; updated_by: string;
}

/** One note of an inquiry thread, its text exactly as sent. */
export interface InquiryNoteTable {
  id: string; thread_id: string; seq: number; author_id: string; created_at: number; text: string; visible_to_applicant: Flag;
}

/** One version of a project's file for an attachment definition (the highest version is the active one). */
export interface AttachmentTable {
  id: string; project_id: string; definition_id: string; version: number; blob_key: string;
  file_name: string; content_type: string; size_bytes: number; sha256: string; uploaded_by: string; uploaded_at: number;
  approval_status: string; note: string | null; reviewed_by: string | null; reviewed_at: number | null;
  /** A generated version (migration 046): the document request it came from (unique) and the template's version. */
  document_request_id: ColumnType<string | null, string | null | undefined, string | null>;
  template_version: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A request to generate a program's document for a project (migration 046): queued, then generated or failed. */
export interface DocumentRequestTable {
  id: string; program_id: string; project_id: string; document_id: string; state: string; requested_by: string; requested_at: number;
  automation: string | null; attempts: number; next_attempt_at: number; lease_until: number | null; last_error: string | null;
  finished_at: number | null; attachment_version: number | null;
}

/** One piece (at most 256 KiB) of a file kept in the database, in order of `seq` from 0. */
export interface BlobChunkTable { blob_key: string; seq: number; data: Buffer; created_at: number }

/** An OAuth 2.0 client of one user: public id plus the argon2id hash of its secret. */
export interface OAuthClientTable {
  id: string; user_id: string; name: string; secret_hash: string; created_at: number; revoked_at: number | null;
  /** The last access token issued to the client, to the minute (migration 048). */
  last_used_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** An access token issued to an OAuth client: the SHA-256 of its secret, its lifetime and whether it was revoked. */
export interface OAuthTokenTable { id: string; client_id: string; token_hash: string; created_at: number; expires_at: number; revoked_at: number | null }

/**
 * An Idempotency-Key of a user, taken by the change its first request made; the answer that request got once it is
 * stored (answer_headers is a JSON object of the headers a replay repeats).
 */
export interface IdempotencyKeyTable {
  user_id: string; key: string; fingerprint: string; request_id: string; created_at: number;
  answer_status: number | null; answer_headers: string | null; answer_body: Buffer | null;
}

/** One event of the outbox (migration 015); `data` is the JSON of its EventData. */
export interface EventTable {
  seq: Generated<number>; id: string; type: string; at: number; agency_id: string; program_id: string; project_id: string;
  actor_id: string | null; audience: string; data: string; owner_id: string | null;
}

/** How far a consumer inside the service has read the outbox, or (consumer `feed.pruned`) the retention mark. */
export interface EventCursorTable { consumer: string; seq: number }

/** A program's webhook target (016-webhooks); `event_types` is a JSON array, `enabled` 0 or 1. */
export interface WebhookSubscriptionTable {
  id: string; agency_id: string; program_id: string; url: string; event_types: string; secret: string; enabled: number;
  disabled_reason: string | null; disabled_at: number | null; consecutive_failures: number; failing_since: number | null;
  created_at: number; created_by: string | null; updated_at: number;
  /** 020-webhook-backoff: nothing is sent before this time; left set after a backoff until an attempt succeeds. */
  paused_until: number | null;
  /** 020-webhook-backoff: when an attempt last got a 2xx. */
  last_success_at: number | null;
  /** 021-webhook-secret-rotation: the secret the last rotation replaced, and until when it still signs. */
  previous_secret: string | null; previous_secret_until: number | null;
  /** 052-self-service-policy: the user a self-service subscription belongs to; null for the agency's own. */
  owner_id: string | null;
}

/** An agency's self-service policy (migration 052): may users create their own credentials, subscribe webhooks. */
export interface AgencyPolicyTable { agency_id: string; own_credentials: number; own_webhooks: number; updated_at: number; updated_by: string | null }

/** One event to send to one subscription, with its retry state and lease. */
export interface WebhookDeliveryTable {
  id: string; subscription_id: string; event_id: string; event_seq: number; event_type: string; project_id: string; payload: string;
  status: string; attempts: number; created_at: number; next_attempt_at: number; first_attempt_at: number | null;
  last_attempt_at: number | null; last_status_code: number | null; last_error: string | null; delivered_at: number | null;
  redelivery_of: string | null; lease_owner: string | null; lease_until: number | null;
}

/** A queued notification mail (migration 017): pending until sent, or failed after its last attempt. */
export interface MailMessageTable {
  id: string; kind: string; event_id: string | null; to_address: string; subject: string; text_body: string; html_body: string;
  status: string; attempts: number; next_attempt_at: number; lease_until: number | null; last_error: string | null;
  created_at: number; sent_at: number | null;
  /** The project a mail is about and the user it goes to (migration 042); null for mails about no project. */
  project_id: ColumnType<string | null, string | null | undefined, string | null>;
  to_user_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The generated documents the mail carries (migration 046), JSON; null for none. */
  attachments: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A mailed link to confirm an address or reset a password (migration 018): the SHA-256 of its token, single use, expiring. */
export interface AccountTokenTable {
  id: string; user_id: string; purpose: string; token_hash: string; program_id: string | null; password_hash: string | null;
  created_at: number; expires_at: number; used_at: number | null;
}

/** The round-robin turn of an automation's assign action (migration 027): how many projects it has assigned. */
export interface AutomationTurnTable { program_id: string; automation: string; turns: number }

/** A day's run of a scheduled automation over a program's projects (migration 029): where it is, who holds it, when it ended. */
export interface AutomationScheduleRunTable {
  program_id: string; automation: string; day: string;
  after_created: ColumnType<number | null, number | null | undefined, number | null>; after_id: string | null;
  lease_owner: string | null; lease_until: ColumnType<number, number, number>; done_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** The last day a scheduled automation ran on a project (migration 029), written in that project's change. */
export interface AutomationScheduleMarkTable { program_id: string; automation: string; project_id: string; day: string }

/** The database as Kysely sees it. */
/** A deadline of a project (migration 026): running until satisfied, cancelled or passed at `due_at`. */
export interface ProjectDeadlineTable {
  id: string; project_id: string; program_id: string; deadline_id: string; state: string;
  started_at: number; due_date: string; due_at: number; ended_at: number | null; started_by: string | null; ended_by: string | null;
}

/** A bulk action of the work queue (migration 031): who ran what on how many projects of a program, under which key. */
export interface BulkActionTable {
  id: string; program_id: string; actor_id: string; idempotency_key: string; fingerprint: string; kind: string; params: string;
  scope: string; project_count: number; state: string; created_at: number; finished_at: number | null;
}

/** One project of a bulk action (migration 031): its place in the list and what happened to it. */
export interface BulkActionProjectTable {
  bulk_action_id: string; position: number; project_id: string; outcome: string; code: string | null; message: string | null; detail: string | null; at: number | null;
}

/** The time zone a program's dashboard counts are kept in (migration 044): its calendar's when they were counted. */
export interface DashboardZoneTable { program_id: string; time_zone: string }

/** A project's id in the agency's own records (migration 058), unique per program: what a data import matches rows by. */
export interface ProjectExternalIdTable { program_id: string; external_id: string; project_id: string; created_at: number }

/** Where a program's connection goes and how it signs in (migration 054); `auth` JSON, sealed. */
export interface ConnectionSettingsTable { program_id: string; connection_id: string; url: string; auth: string; updated_at: number; updated_by: string | null }

/** A host an agency's connections may reach (migration 054). */
export interface ConnectionHostTable { agency_id: string; host: string }

/** What the last lookup at save said of a project's field (migration 054). */
export interface FieldLookupTable { project_id: string; field_id: string; state: string; message: string; checked_at: number }

/** One call a callConnection action asked for (migration 054). */
export interface ConnectionCallTable {
  id: string; program_id: string; project_id: string; connection_id: string; automation: string; idempotency_key: string;
  state: string; attempts: number; next_attempt_at: number; lease_until: number | null; response: string | null; last_error: string | null;
  created_at: number; updated_at: number;
}

export interface Database {
  agencies: AgencyTable;
  users: UserTable;
  api_keys: ApiKeyTable;
  programs: ProgramTable;
  custom_lists: CustomListTable;
  custom_list_choices: CustomListChoiceTable;
  custom_list_rows: CustomListRowTable;
  custom_list_row_words: CustomListRowWordTable;
  statuses: StatusTable;
  status_transitions: StatusTransitionTable;
  data_fields: DataFieldTable;
  forms: FormTable;
  form_statuses: FormStatusTable;
  form_fields: FormFieldTable;
  attachment_definitions: AttachmentDefinitionTable;
  program_grants: ProgramGrantTable;
  projects: ProjectTable;
  project_access_groups: ProjectAccessGroupTable;
  project_drafts: ProjectDraftTable;
  project_values: ProjectValueTable;
  project_value_items: ProjectValueItemTable;
  project_table_cells: ProjectTableCellTable;
  form_submissions: FormSubmissionTable;
  status_history: StatusHistoryTable;
  audit_log: AuditLogTable;
  automation_turns: AutomationTurnTable;
  automation_schedule_runs: AutomationScheduleRunTable;
  automation_schedule_marks: AutomationScheduleMarkTable;
  organizations: OrganizationTable;
  organization_members: OrganizationMemberTable;
  organization_invitations: OrganizationInvitationTable;
  envelopes: EnvelopeTable;
  envelope_signers: EnvelopeSignerTable;
  envelope_steps: EnvelopeStepTable;
  signing_links: SigningLinkTable;
  program_versions: ProgramVersionTable;
  program_uploads: ProgramUploadTable;
  agency_sign_on: AgencySignOnTable;
  sign_on_attempts: SignOnAttemptTable;
  rate_limit_windows: RateLimitWindowTable;
  user_mfa: UserMfaTable;
  mfa_session_tokens: MfaSessionTokenTable;
  web_sessions: WebSessionTable;
  browser_sessions: BrowserSessionTable;
  inquiry_threads: InquiryThreadTable;
  inquiry_notes: InquiryNoteTable;
  attachments: AttachmentTable;
  document_requests: DocumentRequestTable;
  queue_views: QueueViewTable;
  blob_chunks: BlobChunkTable;
  oauth_clients: OAuthClientTable;
  oauth_tokens: OAuthTokenTable;
  idempotency_keys: IdempotencyKeyTable;
  events: EventTable;
  event_cursors: EventCursorTable;
  webhook_subscriptions: WebhookSubscriptionTable;
  agency_policies: AgencyPolicyTable;
  project_relations: ProjectRelationTable;
  webhook_deliveries: WebhookDeliveryTable;
  mail_messages: MailMessageTable;
  account_tokens: AccountTokenTable;
  project_deadlines: ProjectDeadlineTable;
  bulk_actions: BulkActionTable;
  bulk_action_projects: BulkActionProjectTable;
  dashboard_counts: DashboardCountTable;
  dashboard_facts: DashboardFactTable;
  dashboard_group_counts: DashboardGroupCountTable;
  dashboard_zones: DashboardZoneTable;
  maintenance_marks: MaintenanceMarkTable;
  project_external_ids: ProjectExternalIdTable;

  connection_settings: ConnectionSettingsTable;
  connection_hosts: ConnectionHostTable;
  connection_calls: ConnectionCallTable;
  field_lookups: FieldLookupTable;
}
