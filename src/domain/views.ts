/**
 * What the services hand to the HTTP layer: plain data, timestamps as epoch milliseconds.
 * The XML encoders in src/xml turn each view into exactly one response document.
 */

/** A status as shown inside a project (CurrentStatus). */
export interface CurrentStatusView { statusId: string; customId: string | null; name: string; timestamp: number }

/** A status reference without a time (AvailableInStatuses, LeadsToStatus). */
export interface StatusRefView { statusId: string; customId: string | null; name: string }

/** One Program element of GetPrograms. */
export interface ProgramView { programId: string; programName: string }

/** One Project element of ProjectsResponse. */
export interface ProjectSummaryView {
  projectId: string; programId: string; projectNumber: string | null; status: string;
  statusTimestamp: number; lastChangeTimestamp: number; statusCustomId: string | null; statusPublicId: string;
}

/** ProjectsResponse: `extended` adds StatusCustomId and StatusPublicId (version 2). */
export interface ProjectsView { schemaVersion: number; extended: boolean; requestTimestamp: number; projects: ProjectSummaryView[] }

/** The project header shared by the single-project responses. */
export interface ProjectHeaderView {
  projectId: string; programId: string; projectNumber: string | null; url: string;
  lastChangeTimestamp: number; currentStatus: CurrentStatusView;
}

/** One form of a program as CreateNewProject lists it. */
export interface FormSummaryView {
  formId: string; customId: string | null; programId: string; name: string;
  availableInStatuses: StatusRefView[]; leadsToStatus: StatusRefView | null;
}

/** CreateNewProject's answer. */
export interface NewProjectView extends ProjectHeaderView { forms: FormSummaryView[] }

/** One data field of a form with its value (sensitive values already masked unless revealed). */
export interface DataFieldValueView {
  dataFieldId: string; customId: string | null; name: string; multiValue: boolean;
  value: string | null; values: string[] | null;
}

/** One attachment definition of a form with the active file's name, if any. */
export interface AttachmentSummaryView { attachmentId: string; customId: string | null; name: string; fileName: string | null }

/** GetProjectData and SetProjectData answers: one form's draft or submitted data. */
export interface FormDataView extends ProjectHeaderView {
  formId: string; draft: boolean; canSubmit: boolean; dataFields: DataFieldValueView[]; attachments: AttachmentSummaryView[];
}

/** SetProjectOwner's answer. */
export interface OwnerView { name: string; email: string }

/** SubmitProject's answer. */
export interface SubmitView extends ProjectHeaderView { projectNumber: string }

/** One value sent by SetProjectData: `value` for single-value fields, `values` for multi-value ones (null clears). */
export interface DataFieldInput { dataFieldId: string; value: string | null; values: string[] | null }

/** What the project landing page shows. */
export interface LandingView extends ProjectHeaderView {
  programName: string; ownerName: string;
  forms: { name: string; available: boolean }[];
  history: { status: string; at: number; by: string }[];
}
