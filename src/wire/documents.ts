import { ErrorResponse } from './documents/error-response.ts';
import { ProjectDataGetResponse, ProjectDataRequest, ProjectDataSetResponse } from './documents/project-data.ts';
import {
  NewProjectResponse, ProgramsResponse, ProjectByDataRequest, ProjectByNumberRequest, ProjectSubmitResponse, ProjectsResponse,
  ProjectsResponseExtended, SetProjectOwnerRequest, SetProjectOwnerResponse,
} from './documents/projects.ts';
import type { WireDocument } from './wire-type.ts';

/** Every request and answer type of the API, described once (their XSDs and JSON Schemas are made from these). */
export const WIRE_DOCUMENTS: readonly WireDocument[] = [
  ErrorResponse,
  ProjectDataGetResponse, ProjectDataSetResponse, ProjectDataRequest,
  ProgramsResponse, ProjectsResponse, ProjectsResponseExtended, ProjectByNumberRequest, ProjectByDataRequest,
  NewProjectResponse, SetProjectOwnerRequest, SetProjectOwnerResponse, ProjectSubmitResponse,
];
