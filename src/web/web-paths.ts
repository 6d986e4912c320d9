/** The project page of a project: the landing page whose address SubmitProject and the other project answers carry. */
export function projectPagePath(programId: string, projectId: string, extra: Record<string, string> = {}): string {
  return `/MvcProjects/LandingPage?${new URLSearchParams({ ProgramId: programId, ProjectId: projectId, ...extra }).toString()}`;
}

/** The page of one form of a project (generated ids). */
export function formPagePath(programId: string, projectId: string, formId: string): string {
  return `/MvcProjects/Programs/${encodeURIComponent(programId)}/Projects/${encodeURIComponent(projectId)}/Forms/${encodeURIComponent(formId)}`;
}

/** The download of the active file of an attachment definition. */
export function filePath(programId: string, projectId: string, attachmentId: string): string {
  return `/MvcProjects/Programs/${encodeURIComponent(programId)}/Projects/${encodeURIComponent(projectId)}/Attachments/${encodeURIComponent(attachmentId)}`;
}

/** My projects of a program, with its search, filters and page (query parameters q, Status, Show, After). */
export function myProjectsPath(programId: string, extra: Record<string, string> = {}): string {
  return `/MvcProjects/MyProjects?${new URLSearchParams({ ProgramId: programId, ...extra }).toString()}`;
}

/** The page that copies a project's forms into a new application. */
export function copyProjectPath(programId: string, projectId: string): string {
  return `/MvcProjects/CopyProject?${new URLSearchParams({ ProgramId: programId, ProjectId: projectId }).toString()}`;
}

/** The confirmation page of deleting a draft or withdrawing a submitted project. */
export function removeProjectPath(programId: string, projectId: string): string {
  return `/MvcProjects/RemoveProject?${new URLSearchParams({ ProgramId: programId, ProjectId: projectId }).toString()}`;
}

/** The dashboard of a program (staff). */
export const DASHBOARD_PATH = '/Projects/Dashboard';

/** The address of a program's dashboard, or (given a figure) of that figure's CSV. */
export function dashboardHref(programId: string, figure?: string): string {
  return `${DASHBOARD_PATH}?${new URLSearchParams({ ProgramId: programId, ...(figure ? { figure, format: 'csv' } : {}) }).toString()}`;
}

/** The signed-in user's account page: their own API keys, OAuth clients and webhooks (when the agency allows them). */
export const MY_ACCOUNT_PATH = '/MvcProjects/Account';

/** The forms of the account page, each a plain POST. */
export const MY_ACCOUNT_FORMS = {
  createKey: `${MY_ACCOUNT_PATH}/ApiKeys`,
  revokeKey: `${MY_ACCOUNT_PATH}/ApiKeys/Revoke`,
  createClient: `${MY_ACCOUNT_PATH}/OAuthClients`,
  revokeClient: `${MY_ACCOUNT_PATH}/OAuthClients/Revoke`,
  createWebhook: `${MY_ACCOUNT_PATH}/Webhooks`,
  deleteWebhook: `${MY_ACCOUNT_PATH}/Webhooks/Delete`,
} as const;

/** The delivery log of one of the user's own webhook subscriptions. */
export function myWebhookPath(subscriptionId: string): string {
  return `${MY_ACCOUNT_PATH}/Webhooks/${encodeURIComponent(subscriptionId)}`;
}
