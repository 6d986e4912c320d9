import type { Form, ProgramModel } from '../../model/model.ts';
import type { StoreWriter } from '../../store/store.ts';
import type { Role } from '../roles/access.ts';
import { mayUseForm } from '../roles/access.ts';

/**
 * The data fields an organization may set defaults for, by their customId in a program file: a program that names a
 * field so gets it prefilled on applications started for the organization; other programs simply do not.
 */
export const DEFAULT_FIELDS = ['InstallerName', 'InstallerLicense'] as const;

/** One default the organization pages offer: the field's customId and what people call it. */
export const DEFAULT_FIELD_LABELS: Record<(typeof DEFAULT_FIELDS)[number], string> = { InstallerName: 'Installer name', InstallerLicense: 'Licence number' };

/** The longest default value kept (a program's own maxLength still applies when the form is saved). */
export const MAX_DEFAULT_CHARS = 200;

/**
 * Writes an organization's defaults into a new project's drafts, in the project's creation transaction: each default
 * goes to every form holding the field of that customId that the creator may fill in (a text field people type, not
 * calculated or sensitive). The person sees them prefilled and may change them before submitting. Returns the fields set.
 */
export async function prefillDefaults(
  tx: StoreWriter, model: ProgramModel, role: Role, projectId: string, defaults: Readonly<Record<string, string>>, userId: string, now: number,
): Promise<string[]> {
  const filled: string[] = [];
  const byForm = new Map<Form, { fieldId: string; value: string }[]>();
  for (const customId of DEFAULT_FIELDS) {
    const value = defaults[customId];
    const field = model.fields.find((f) => f.customId === customId);
    if (!value || !field || field.type !== 'text' || field.multiValue || field.sensitive || field.formula) continue;
    const forms = model.forms.filter((f) => mayUseForm(role, f) && f.fields.some((x) => x.fieldId === field.id));
    for (const form of forms) byForm.set(form, [...(byForm.get(form) ?? []), { fieldId: field.id, value: value.slice(0, field.maxLength ?? MAX_DEFAULT_CHARS) }]);
    if (forms.length > 0) filled.push(customId);
  }
  for (const [form, values] of byForm) {
    await tx.projects.upsertDraft(projectId, form.id, values.map((v) => ({ fieldId: v.fieldId, value: v.value, values: null, updatedAt: now, updatedBy: userId })));
  }
  return filled;
}
