import type { DocumentTemplate, EnvelopeSigner } from '../../model/document.ts';
import type { IdGenerator } from '../../model/ids.ts';
import type { Project } from '../../model/model.ts';
import type { StoreWriter } from '../../store/store.ts';
import { normaliseEmail } from '../accounts/account-service.ts';
import { ApiError } from '../api-error.ts';
import type { ProgramContext } from '../projects/project-context.ts';
import { roleLabel, roleNamed } from '../roles/access.ts';

/**
 * The template's signers as the people who sign this project's document, resolved when the envelope is sent: the
 * project's owner (their account), the person an e-mail field names (its submitted value; the name from the name
 * field, else the signer's label), or the holders of a program role (any of them signs for the agency). INVALID_REQUEST,
 * naming the signer, when an e-mail field holds no e-mail address or the role no longer exists.
 */
export async function resolveSigners(
  tx: Pick<StoreWriter, 'accounts' | 'projects'>, ids: IdGenerator, ctx: ProgramContext, project: Project, template: DocumentTemplate, envelopeId: string,
): Promise<EnvelopeSigner[]> {
  const out: EnvelopeSigner[] = [];
  for (const [position, s] of template.signers.entries()) {
    const base = {
      id: ids.next(), envelopeId, position, signerId: s.customId, kind: s.kind, label: s.name, userId: null, role: null, state: 'waiting' as const,
      notifiedAt: null, consentedAt: null, typedName: null, signedAt: null, ip: null, declineReason: null,
    };
    if (s.kind === 'owner') {
      const [owner] = await tx.accounts.usersByIds([project.ownerId]);
      if (!owner) throw new ApiError('INVALID_REQUEST', `${template.name}: the project's owner has no account to sign with.`);
      out.push({ ...base, name: owner.name, email: owner.email.toLowerCase(), userId: owner.id });
    } else if (s.kind === 'emailField') {
      const wanted = s.nameFieldId === null ? [s.fieldId] : [s.fieldId, s.nameFieldId];
      const values = await tx.projects.getValues(project.id, wanted);
      const text = (id: string | null) => values.find((v) => v.fieldId === id)?.value?.trim() ?? '';
      let email: string;
      try {
        email = normaliseEmail(text(s.fieldId));
      } catch {
        throw new ApiError('INVALID_REQUEST', `${template.name}: signer ${s.name} is named by an e-mail field that holds no e-mail address on project ${project.number ?? project.id}.`);
      }
      out.push({ ...base, name: text(s.nameFieldId) || s.name, email });
    } else {
      const role = roleNamed(ctx.program, s.role);
      if (!role) throw new ApiError('INVALID_REQUEST', `${template.name}: signer ${s.name} names role ${s.role}, which the program no longer has.`);
      out.push({ ...base, name: roleLabel(ctx.program, role), email: '', role: s.role });
    }
  }
  return out;
}
