import { ApiError } from '../domain/api-error.ts';
import type { DataFieldInput, ProjectDataInput } from '../domain/views.ts';
import type { SchemaRegistry } from './schema-registry.ts';
import { childElements, readXml, type XmlElementNode } from './xml-reader.ts';

/** Root element of the SetProjectData request body. */
export const PROJECT_DATA_REQUEST = 'ProjectDataRequest';

interface Instance { index: number; value: string }
interface Pending { dataFieldId: string; single: DataFieldInput | null; instances: Instance[] }

/**
 * Reads a ProjectDataRequest body: the optional Project@ProjectId and @FormId, and one input per data field, in
 * order of first appearance. Repeated DataFieldIds with Instance="0", "1", … (the legacy multi-value form) merge
 * into one `values` list ordered by Instance. Throws ApiError (INVALID_REQUEST for rule violations).
 */
export function decodeProjectDataRequest(body: string | Uint8Array, ns: string, schemas: SchemaRegistry): ProjectDataInput {
  const root = readXml(body, PROJECT_DATA_REQUEST, ns, schemas);
  // The schema admits exactly one Project.
  const [project] = childElements(root, 'Project');
  const fields = childElements(root, 'Project')
    .flatMap((p) => childElements(p, 'DataFields'))
    .flatMap((list) => childElements(list, 'DataField'));
  const byId = new Map<string, Pending>();
  for (const field of fields) {
    const dataFieldId = field.attrs['DataFieldId'] ?? '';
    let pending = byId.get(dataFieldId);
    if (!pending) byId.set(dataFieldId, (pending = { dataFieldId, single: null, instances: [] }));
    const instance = field.attrs['Instance'];
    if (instance === undefined) {
      if (pending.single || pending.instances.length > 0) throw duplicate(dataFieldId);
      pending.single = readField(field, dataFieldId);
    } else {
      if (pending.single) throw duplicate(dataFieldId);
      pending.instances.push(readInstance(field, dataFieldId, instance));
    }
  }
  return {
    projectId: project?.attrs['ProjectId'] ?? null,
    formId: project?.attrs['FormId'] ?? null,
    fields: [...byId.values()].map((p) => p.single ?? mergeInstances(p)),
  };
}

function readField(field: XmlElementNode, dataFieldId: string): DataFieldInput {
  const value = field.attrs['Value'];
  const [values] = childElements(field, 'Values');
  if (value !== undefined && values) {
    throw new ApiError('INVALID_REQUEST', `DataField ${dataFieldId} has both a Value attribute and a Values element`);
  }
  if (values) return { dataFieldId, value: null, values: childElements(values, 'Value').map((v) => v.text) };
  return { dataFieldId, value: value ?? null, values: null };
}

function readInstance(field: XmlElementNode, dataFieldId: string, instance: string): Instance {
  const text = instance.trim();
  // The schema's xs:nonNegativeInteger also admits "+1"; anything it admits is a plain count here.
  const index = /^\+?[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(index)) {
    throw new ApiError('INVALID_REQUEST', `DataField ${dataFieldId}: Instance must be a non-negative integer, got "${instance}"`);
  }
  const value = field.attrs['Value'];
  if (childElements(field, 'Values').length > 0 || value === undefined) {
    throw new ApiError('INVALID_REQUEST', `DataField ${dataFieldId} Instance ${index} must carry exactly one Value attribute`);
  }
  return { index, value };
}

function mergeInstances(pending: Pending): DataFieldInput {
  const sorted = [...pending.instances].sort((a, b) => a.index - b.index);
  sorted.forEach((entry, i) => {
    if (i > 0 && sorted[i - 1]!.index === entry.index) {
      throw new ApiError('INVALID_REQUEST', `DataField ${pending.dataFieldId} repeats Instance ${entry.index}`);
    }
  });
  return { dataFieldId: pending.dataFieldId, value: null, values: sorted.map((e) => e.value) };
}

function duplicate(dataFieldId: string): ApiError {
  return new ApiError('INVALID_REQUEST', `DataField ${dataFieldId} appears more than once (repeat it only with distinct Instance attributes)`);
}
