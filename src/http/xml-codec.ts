import type { ApiError } from '../domain/api-error.ts';
import type { DataFieldInput, FormDataView, NewProjectView, OwnerView, ProgramView, ProjectsView, SubmitView } from '../domain/views.ts';
import { decodeProjectByNumberRequest } from '../xml/decode-project-by-number-request.ts';
import { decodeProjectDataRequest } from '../xml/decode-project-data-request.ts';
import { decodeSetProjectOwnerRequest, type SetProjectOwnerInput } from '../xml/decode-set-project-owner-request.ts';
import { encodeErrorResponse } from '../xml/encode-error-response.ts';
import { encodeNewProjectResponse } from '../xml/encode-new-project-response.ts';
import { encodeProgramsResponse } from '../xml/encode-programs-response.ts';
import { encodeProjectDataResponse } from '../xml/encode-project-data-response.ts';
import { encodeProjectSubmitResponse } from '../xml/encode-project-submit-response.ts';
import { projectsResponseChunks } from '../xml/encode-projects-response.ts';
import { encodeSetProjectOwnerResponse } from '../xml/encode-set-project-owner-response.ts';
import { createSchemaRegistry } from '../xml/schema-registry.ts';

/** The XML codec bound to the configured namespace: what the routes read and write. */
export interface XmlCodec {
  readonly ns: string;
  programs(views: ProgramView[], requestTimestamp: number): string;
  /** ProjectsResponse as chunks, so that a page of 1000 projects is streamed. */
  projects(view: ProjectsView): Iterable<string>;
  newProject(view: NewProjectView): string;
  formData(view: FormDataView, root: 'ProjectDataGetResponse' | 'ProjectDataSetResponse'): string;
  owner(view: OwnerView): string;
  submit(view: SubmitView): string;
  error(error: ApiError, requestId: string): string;
  readProjectNumbers(body: Buffer): string[];
  readOwner(body: Buffer): SetProjectOwnerInput;
  readProjectData(body: Buffer): DataFieldInput[];
  schemaNames(): string[];
  schemaSource(name: string): string;
}

/** Binds the encoders, decoders and XSDs of src/xml to one namespace. */
export async function createXmlCodec(ns: string): Promise<XmlCodec> {
  const schemas = createSchemaRegistry(ns);
  return {
    ns,
    programs: (views, at) => encodeProgramsResponse(views, at, ns),
    projects: (view) => projectsResponseChunks(view, ns),
    newProject: (view) => encodeNewProjectResponse(view, ns),
    formData: (view, root) => encodeProjectDataResponse(root, view, ns),
    owner: (view) => encodeSetProjectOwnerResponse(view, ns),
    submit: (view) => encodeProjectSubmitResponse(view, ns),
    error: (error, requestId) => encodeErrorResponse(error, ns, requestId),
    readProjectNumbers: (body) => decodeProjectByNumberRequest(body, ns, schemas),
    readOwner: (body) => decodeSetProjectOwnerRequest(body, ns, schemas),
    readProjectData: (body) => decodeProjectDataRequest(body, ns, schemas),
    schemaNames: () => schemas.list(),
    schemaSource: (name) => schemas.source(name),
  };
}
