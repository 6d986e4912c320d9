import { type ErrorDetail, ParseOption, XmlDocument, XmlParseError, XmlValidateError, XsdValidator } from 'libxml2-wasm';
import { generatedXsds } from '../wire/generated-xsds.ts';
import { escapeXml } from './xml-writer.ts';

/** The placeholder the generated XSDs carry wherever the configured namespace goes. */
export const NAMESPACE_PLACEHOLDER = '{xml_namespace}';

/**
 * libxml2 options for everything parsed here: no network, no external DTDs or entities, and the
 * text is always UTF-8 whatever its XML declaration claims (it already went through a JS string).
 */
export const LIBXML_PARSE_OPTIONS = ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE | ParseOption.XML_PARSE_IGNORE_ENC;

/** The result of checking one document: whether libxml2 could parse it, and its messages. */
export interface SchemaCheck { wellFormed: boolean; errors: string[] }

interface Compiled { doc: XmlDocument; validator: XsdValidator }

/**
 * The service's XSDs with the namespace filled in: sources read once at construction, validators
 * compiled on first use and kept until `dispose()`.
 */
export class SchemaRegistry {
  /** The XML namespace substituted into every schema. */
  readonly namespace: string;
  private readonly sources: ReadonlyMap<string, string>;
  private readonly compiled = new Map<string, Compiled>();

  /**
   * Takes the XSDs by name (by default those made from the wire descriptions, src/wire) and substitutes `namespace`
   * for the placeholder.
   */
  constructor(namespace: string, sources: ReadonlyMap<string, string> = generatedXsds()) {
    this.namespace = namespace;
    const value = escapeXml(namespace, true);
    this.sources = new Map([...sources].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([n, t]) => [n, t.split(NAMESPACE_PLACEHOLDER).join(value)]));
  }

  /** The schema names (served as `{name}.xsd`), sorted. */
  list(): string[] {
    return [...this.sources.keys()];
  }

  /** The XSD text of schema `name` with the namespace filled in, as served over HTTP. */
  source(name: string): string {
    const text = this.sources.get(name);
    if (text === undefined) throw new Error(`unknown XML schema ${JSON.stringify(name)}`);
    return text;
  }

  /** Validates `xml` against schema `name`; returns libxml2's messages, empty when valid. */
  validate(name: string, xml: string): string[] {
    return this.check(name, xml).errors;
  }

  /** Like `validate`, but tells a document libxml2 cannot parse apart from one the schema rejects. */
  check(name: string, xml: string): SchemaCheck {
    const { validator } = this.compile(name);
    let doc: XmlDocument;
    try {
      doc = XmlDocument.fromString(xml, { option: LIBXML_PARSE_OPTIONS });
    } catch (error) {
      if (error instanceof XmlParseError) return { wellFormed: false, errors: describe(error.details, 'not well-formed XML') };
      throw error;
    }
    try {
      validator.validate(doc);
      return { wellFormed: true, errors: [] };
    } catch (error) {
      if (error instanceof XmlValidateError) return { wellFormed: true, errors: describe(error.details, 'schema validation failed') };
      throw error;
    } finally {
      doc.dispose();
    }
  }

  /** Frees the compiled validators (wasm memory); the registry compiles them again if used later. */
  dispose(): void {
    for (const { doc, validator } of this.compiled.values()) {
      validator.dispose();
      doc.dispose();
    }
    this.compiled.clear();
  }

  private compile(name: string): Compiled {
    const cached = this.compiled.get(name);
    if (cached) return cached;
    const doc = XmlDocument.fromString(this.source(name), { option: LIBXML_PARSE_OPTIONS });
    try {
      // The compiled schema points into its document (annotations, names), so both live together.
      const entry = { doc, validator: XsdValidator.fromDoc(doc) };
      this.compiled.set(name, entry);
      return entry;
    } catch (error) {
      doc.dispose();
      throw new Error(`XML schema ${name} does not compile: ${error instanceof Error ? error.message.trim() : String(error)}`);
    }
  }
}

/** Creates a registry of the service's XSDs for namespace `ns`. */
export function createSchemaRegistry(ns: string): SchemaRegistry {
  return new SchemaRegistry(ns);
}

function describe(details: ErrorDetail[], fallback: string): string[] {
  const messages = details
    .map((d) => ({ text: d.message.trim(), line: d.line }))
    .filter((d) => d.text !== '')
    .map((d) => (d.line > 0 ? `line ${d.line}: ${d.text}` : d.text));
  return messages.length > 0 ? messages : [fallback];
}
