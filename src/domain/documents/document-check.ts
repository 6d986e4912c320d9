import type { ProgramFile } from '../programs/program-file.ts';
import type { PartResolvers, ProgramChecker } from '../programs/program-parts.ts';
import { atLine } from '../programs/program-lines.ts';
import { BUILT_IN_ROLE_NAMES } from '../roles/privileges.ts';
import type { DocumentSpec } from '../programs/document-file.ts';
import type { ResolvedDocument } from '../programs/program-documents.ts';
import { documentLiquid, parseTemplate } from './document-liquid.ts';
import { type TemplateVocabulary, variableProblems } from './template-variables.ts';
import { logoProblem } from './document-logo.ts';

/** The documents' part of checking a program file at import (src/domain/wiring/program-checkers.ts lists it). */
export const documentsChecker: ProgramChecker = { part: 'documents', check: checkDocuments };

type Path = (string | number)[];

/**
 * Checks `documents:`: unique customIds and names, the form (whose attachments must not already use the customId),
 * the signers (exactly one of owner, emailField, role; fields of type text; known roles), the sensitive fields listed,
 * the logo, and every template text through Liquid: syntax, tags, filters and variables, each problem at its line and column.
 */
export function checkDocuments(file: ProgramFile, resolve: PartResolvers, problems: string[]): ResolvedDocument[] {
  const documents = file.documents ?? [];
  const liquid = documentLiquid();
  return documents.map((d, i) => {
    const where = (...path: Path) => `document "${d.customId}"${atLine(file, ['documents', i, ...path])}`;
    for (const key of ['customId', 'name'] as const) {
      if (documents.slice(0, i).some((x) => x[key] === d[key])) problems.push(`${where(key)}: another document has the ${key} "${d[key]}"`);
    }
    const form = resolve.forms(d.form, `${where('form')}: form`);
    for (const key of ['customId', 'name'] as const) {
      if (form === null || !file.forms[form]!.attachments.some((a) => a[key] === d[key])) continue;
      problems.push(`${where(key)}: form "${d.form}" already has an attachment with the ${key} "${d[key]}", which the document's files would use`);
    }
    const signers = d.signers.map((_s, j) => checkSigner(file, d, j, resolve, problems, (...p) => where('signers', j, ...p)));
    const sensitiveFields = resolveSensitive(file, d, resolve, problems, (...p) => where('sensitiveFields', ...p));
    if (d.logo !== null) {
      const problem = logoProblem(d.logo);
      if (problem !== null) problems.push(`${where('logo')}: logo ${problem}`);
    }
    const vocabulary: TemplateVocabulary = {
      fields: file.fields.map((f) => ({ key: f.customId ?? f.name, sensitive: f.sensitive, columns: f.table ? f.table.columns.map((c) => c.customId) : null })),
      deadlines: (file.deadlines ?? []).map((x) => x.customId),
      sensitiveAllowed: new Set(sensitiveFields.map((n) => file.fields[n]!.customId ?? file.fields[n]!.name)),
      pageNumbers: false,
    };
    for (const part of ['body', 'header', 'footer'] as const) {
      const text = d[part];
      if (text === null) continue;
      const at = (line: number, column: number) => `document "${d.customId}"${atLine(file, ['documents', i, part], { line, column })}: ${part}`;
      const parsed = parseTemplate(liquid, text);
      if ('problem' in parsed) {
        problems.push(`${at(parsed.problem.line, parsed.problem.column)}: ${parsed.problem.message}`);
        continue;
      }
      for (const p of variableProblems(liquid, parsed.templates, { ...vocabulary, pageNumbers: part !== 'body' })) problems.push(`${at(p.line, p.column)}: ${p.message}`);
    }
    return { form, signers, sensitiveFields };
  });
}

function checkSigner(
  file: ProgramFile, d: DocumentSpec, j: number, resolve: PartResolvers, problems: string[], where: (...path: Path) => string,
): ResolvedDocument['signers'][number] {
  const s = d.signers[j]!;
  if (d.signers.slice(0, j).some((x) => x.customId === s.customId)) problems.push(`${where('customId')}: another signer of the document has the customId "${s.customId}"`);
  const kinds = [s.owner, s.emailField !== null, s.role !== null].filter(Boolean).length;
  if (kinds !== 1) problems.push(`${where()}: a signer is named by exactly one of owner: true, emailField or role (found ${kinds})`);
  if (s.nameField !== null && s.emailField === null) problems.push(`${where('nameField')}: nameField goes with emailField`);
  if (s.role !== null && !BUILT_IN_ROLE_NAMES.includes(s.role as never) && !file.roles.some((r) => r.customId === s.role)) {
    problems.push(`${where('role')}: no role has the customId "${s.role}"`);
  }
  const textField = (ref: string | null, key: 'emailField' | 'nameField') => {
    if (ref === null) return null;
    const index = resolve.fields(ref, `${where(key)}: ${key}`);
    if (index === null) return null;
    const f = file.fields[index]!;
    if (f.type !== 'text' || f.multiValue || f.formula !== null) problems.push(`${where(key)}: ${key} "${ref}" must be a text field with one value that people fill in`);
    return index;
  };
  return { emailField: textField(s.emailField, 'emailField'), nameField: textField(s.nameField, 'nameField') };
}

function resolveSensitive(file: ProgramFile, d: DocumentSpec, resolve: PartResolvers, problems: string[], where: (...path: Path) => string): number[] {
  const out: number[] = [];
  d.sensitiveFields.forEach((ref, k) => {
    const index = resolve.fields(ref, `${where(k)}: sensitiveFields`);
    if (index === null) return;
    if (!file.fields[index]!.sensitive) problems.push(`${where(k)}: field "${ref}" is not sensitive; only sensitive fields are listed here`);
    else out.push(index);
  });
  return out;
}
