import type { FieldSchemaView, FormSchemaView } from '../domain/views.ts';
import { formatSchemaVersion } from './encode-projects-response.ts';
import { XmlWriter } from './xml-writer.ts';

/**
 * Encodes the GetFormSchema answer for `view.version` 1 (FormSchemaResponse.xsd) or 2 (FormSchemaResponseV2.xsd,
 * which adds Group and the Choices of fields with a custom list). Throws Error for any other version.
 */
export function encodeFormSchemaResponse(view: FormSchemaView, ns: string): string {
  if (view.version !== 1 && view.version !== 2) throw new Error(`FormSchemaResponse has no version ${view.version}`);
  const v2 = view.version === 2;
  const { form } = view;
  const w = new XmlWriter(ns).start('FormSchemaResponse', { SchemaVersion: formatSchemaVersion(view.version) });
  w.start('Form', { FormId: form.formId, CustomId: form.customId, ProgramId: form.programId, Name: form.name });
  w.start('DataFields');
  for (const field of view.dataFields) writeField(w, field, v2);
  w.end().start('Attachments');
  for (const a of view.attachments) {
    w.start('Attachment', {
      AttachmentId: a.attachmentId, CustomId: a.customId, Name: a.name, Required: String(a.required), MaxSizeBytes: String(a.maxSizeBytes),
    }).start('AllowedTypes');
    for (const type of a.allowedTypes) w.element('Type', undefined, type);
    w.end().end();
  }
  return w.end().end().end().finish();
}

function writeField(w: XmlWriter, f: FieldSchemaView, v2: boolean): void {
  const attrs = {
    DataFieldId: f.dataFieldId, CustomId: f.customId, Name: f.name, Type: f.type,
    Required: String(f.required), MultiValue: String(f.multiValue), Sensitive: String(f.sensitive),
    MaxLength: f.maxLength === null ? null : String(f.maxLength),
    MinValue: f.min === null ? null : decimalText(f.min),
    MaxValue: f.max === null ? null : decimalText(f.max),
    CustomListId: f.list?.listId, CustomListCustomId: f.list?.customId,
    Group: v2 ? f.group : null,
  };
  if (!v2 || f.list === null) {
    w.empty('DataField', attrs);
    return;
  }
  w.start('DataField', attrs).start('Choices');
  for (const c of f.list.choices) w.empty('Choice', { Value: c.value, Label: c.label });
  w.end().end();
}

/** String(n), except that exponent notation (1e+21, 1e-7) is spelled out, which xs:decimal requires. */
function decimalText(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`${n} cannot be written as xs:decimal`);
  const text = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign, lead, fraction = '', exponent] = m;
  const digits = lead! + fraction;
  const point = 1 + Number(exponent);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
