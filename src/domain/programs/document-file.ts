/** A signer as a program file writes it: exactly one of `owner`, `emailField` (with `nameField`) or `role`. */
export interface SignerSpec {
  customId: string; name: string; owner: boolean; emailField: string | null; nameField: string | null; role: string | null;
}

/** A document template as a program file writes it (`documents:`), with every default filled in; `form` and field names are references. */
export interface DocumentSpec {
  customId: string; name: string; title: string; language: string; body: string;
  header: string | null; footer: string | null; form: string; visibleToApplicant: boolean;
  /** Sensitive fields the template may show (references); the others are not given to it. */
  sensitiveFields: string[];
  /** A small PNG in base64, drawn at the top of the first page; null for none. */
  logo: string | null;
  signers: SignerSpec[]; order: 'sequential' | 'parallel'; disclosure: string | null;
}

/** The raw `documents:` items the schema accepted. */
export interface RawDocument {
  customId: string; name: string; title: string; language?: string; body: string; header?: string; footer?: string;
  form: string; visibleToApplicant?: boolean; sensitiveFields?: string[]; logo?: string;
  signers?: { customId: string; name: string; owner?: true; emailField?: string; nameField?: string; role?: string }[];
  order?: 'sequential' | 'parallel'; disclosure?: string;
}

/** The file's documents with every absent option filled in, so that a stored copy compares equal to the file's. */
export function normaliseDocuments(raw: RawDocument[] | undefined): DocumentSpec[] {
  return (raw ?? []).map((d) => ({
    customId: d.customId, name: d.name, title: d.title, language: d.language ?? 'en', body: d.body,
    header: d.header ?? null, footer: d.footer ?? null, form: d.form, visibleToApplicant: d.visibleToApplicant ?? false,
    sensitiveFields: [...new Set(d.sensitiveFields ?? [])], logo: d.logo ?? null,
    signers: (d.signers ?? []).map((s) => ({
      customId: s.customId, name: s.name, owner: s.owner === true, emailField: s.emailField ?? null, nameField: s.nameField ?? null, role: s.role ?? null,
    })),
    order: d.order ?? 'sequential', disclosure: d.disclosure ?? null,
  }));
}
