import { ORGANIZATION_PATHS } from '../domain/organizations/organization-service.ts';

/** The organizations page: the user's organizations and the form to create one. */
export const ORGANIZATIONS_PATH = ORGANIZATION_PATHS.list;

/** The page of one organization: members, invitations, defaults. */
export function organizationPath(organizationId: string): string {
  return `${ORGANIZATIONS_PATH}/${encodeURIComponent(organizationId)}`;
}
