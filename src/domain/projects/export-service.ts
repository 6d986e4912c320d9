import { requireReveal } from '../roles/access.ts';
import type { Caller } from '../caller.ts';
import { MASK } from './value-check.ts';
import type { DataField, FieldValue } from '../../model/model.ts';
import { loadProgramWith, loadReadableProjectByRef, projectHeader, statusById, versionOf } from './project-context.ts';
import type { ServiceDeps } from '../service-deps.ts';
import type { AllProjectDataView, AtVersion, ExportAttachmentView, ExportFieldView, ExportView } from '../views.ts';
import { historyViews } from './workflow-service.ts';
import { tableRowViews } from './table-values.ts';

function texts(v: FieldValue): string[] {
  return v.values ?? (v.value === null ? [] : [v.value]);
}

/** Reads whole projects for admins: every saved value across forms, and the archive export. */
export class ExportService {
  readonly #deps: ServiceDeps<'programs' | 'projects' | 'attachments' | 'accounts'>;
  constructor(deps: ServiceDeps<'programs' | 'projects' | 'attachments' | 'accounts'>) {
    this.#deps = deps;
  }

  /** GetAllProjectData (privilege readAllData): the latest submitted value of every field ever saved, across all forms, retired fields included. */
  async getAllProjectData(caller: Caller, programRef: string, projectId: string, reveal: boolean): Promise<AtVersion<AllProjectDataView>> {
    const ctx = await loadProgramWith(this.#deps, caller, programRef, 'readAllData', 'GetAllProjectData');
    if (reveal) requireReveal(caller, ctx.role);
    const project = await loadReadableProjectByRef(this.#deps.store, caller, ctx, projectId);
    const values = await this.#deps.store.projects.getAllValues(project.id);
    const users = await this.#deps.store.accounts.usersByIds(values.map((v) => v.updatedBy));
    const dataFields = [...ctx.model.fields, ...ctx.model.retired.fields].flatMap((f) => {
      const v = values.find((x) => x.fieldId === f.id);
      if (!v) return [];
      const hide = f.sensitive && !reveal;
      if (f.type === 'table') {
        return [{
          dataFieldId: f.id, customId: f.customId, name: f.name, formId: v.formId, multiValue: false, value: null, values: null,
          rows: tableRowViews(f, v.value), changedAt: v.updatedAt, changedBy: users.find((u) => u.id === v.updatedBy)?.email ?? v.updatedBy,
        }];
      }
      return [{
        dataFieldId: f.id, customId: f.customId, name: f.name, formId: v.formId, multiValue: f.multiValue,
        value: hide && v.value !== null ? MASK : v.value, values: hide && v.values !== null ? v.values.map(() => MASK) : v.values,
        changedAt: v.updatedAt, changedBy: users.find((u) => u.id === v.updatedBy)?.email ?? v.updatedBy,
      }];
    });
    const files = new Map((await this.#deps.store.attachments.listActiveAttachments(project.id)).map((a) => [a.definitionId, a]));
    // Like fields, definitions without an upload are left out.
    const attachments = ctx.model.forms.flatMap((form) => form.attachments.flatMap((a) => {
      const file = files.get(a.id);
      return file ? [{ attachmentId: a.id, customId: a.customId, name: a.name, fileName: file.fileName }] : [];
    }));
    return { ...projectHeader(this.#deps, ctx.model, project), dataFields, attachments };
  }

  /** GetExportProject (privilege export): the project for archiving or migration; sensitive values stay masked. */
  async getExport(caller: Caller, programRef: string, projectId: string, version: number): Promise<AtVersion<ExportView>> {
    const ctx = await loadProgramWith(this.#deps, caller, programRef, 'export', 'GetExportProject');
    const { store } = this.#deps;
    const project = await loadReadableProjectByRef(store, caller, ctx, projectId);
    const [values, history, files] = await Promise.all([store.projects.getAllValues(project.id), store.projects.getHistory(project.id), store.attachments.listActiveAttachments(project.id)]);
    const users = await store.accounts.usersByIds([project.ownerId, project.createdBy, project.updatedBy, ...values.map((v) => v.updatedBy), ...files.map((f) => f.uploadedBy)]);
    const email = (id: string) => users.find((u) => u.id === id)?.email ?? id;
    const fieldView = (f: DataField): ExportFieldView => {
      const v = values.find((x) => x.fieldId === f.id);
      if (f.type === 'table') {
        return {
          dataFieldId: f.id, customId: f.customId, name: f.name, values: [], rows: tableRowViews(f, v?.value ?? null),
          changedAt: v?.updatedAt ?? null, changedBy: v ? email(v.updatedBy) : null,
        };
      }
      const shown = v ? texts(v).map((t) => (f.sensitive ? MASK : t)) : [];
      return { dataFieldId: f.id, customId: f.customId, name: f.name, values: shown, changedAt: v?.updatedAt ?? null, changedBy: v ? email(v.updatedBy) : null };
    };
    const forms = ctx.model.forms.map((form) => {
      const fields = form.fields.map((placed) => ctx.model.fields.find((f) => f.id === placed.fieldId)!);
      const groups = [...new Set(fields.map((f) => f.group))].map((name) => ({ name, fields: fields.filter((f) => f.group === name).map(fieldView) }));
      return { formId: form.id, customId: form.customId, name: form.name, groups };
    });
    return {
      version, projectId: project.id, programId: project.programId, number: project.number, owner: email(project.ownerId),
      status: statusById(ctx.model, project.statusId).name, createdAt: project.createdAt, createdBy: email(project.createdBy), lastChangedAt: project.updatedAt,
      lastChangedBy: email(project.updatedBy), forms, history: await historyViews(store, ctx.model, history),
      attachments: ctx.model.forms.flatMap((form) => form.attachments.flatMap((a): ExportAttachmentView[] => {
        const f = files.find((x) => x.definitionId === a.id);
        if (!f) return [];
        return [{
          attachmentId: a.id, customId: a.customId, name: a.name, fileName: f.fileName, formId: form.id, fileSize: f.sizeBytes,
          contentType: f.contentType, sha256: f.sha256, version: f.version, uploadedBy: email(f.uploadedBy), uploadedAt: f.uploadedAt,
          approvalStatus: f.approvalStatus, note: f.note,
        }];
      })),
      projectVersion: versionOf(project),
    };
  }
}
