/**
 * The declarative description of the API's documents: one description per request and response type, from which
 * the XML writer and reader, the JSON mapping, the XSD, the JSON Schema and the OpenAPI description are derived
 * (docs/interface.md, "JSON"). Only what the interface uses is here: sequences of elements, attributes, and simple
 * types restricted by enumeration, pattern and length.
 */

/** The XSD built-in types the interface uses. */
export type SimpleBase =
  | 'string' | 'token' | 'boolean' | 'int' | 'long' | 'nonNegativeInteger' | 'positiveInteger' | 'decimal' | 'float' | 'dateTime';

/** A simple type: a built-in type, optionally named and restricted. `T` is its value's JavaScript type. */
export interface SimpleType<T = unknown> {
  readonly kind: 'simple';
  readonly base: SimpleBase;
  /** A named type becomes a global xs:simpleType (and a JSON Schema `$defs` entry). */
  readonly name?: string;
  readonly enumeration?: readonly string[];
  /** An XSD pattern (which is also anchored in JSON Schema). */
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly doc?: string;
  /** Phantom: carries the value type for inference. */
  readonly __value?: T;
}

/** An attribute of a complex type. */
export interface AttributeSpec {
  readonly type: SimpleType;
  readonly required: boolean;
  /** XSD `fixed`: the only value the attribute may have. */
  readonly fixed?: string;
  /** XSD `default`: what an absent attribute means (applied by the reader of the request, and documented). */
  readonly default?: string;
  /** Its xs:documentation (and JSON Schema description). */
  readonly doc?: string;
}

/** A child element: its type and how often it occurs (`max` Infinity for unbounded). */
export interface ChildSpec {
  readonly type: SimpleType | ComplexType;
  readonly min: number;
  readonly max: number;
  readonly doc?: string;
}

/** A complex type: attributes and a sequence of child elements, both in document order. */
export interface ComplexType<
  A extends Record<string, AttributeSpec> = Record<string, AttributeSpec>,
  C extends Record<string, ChildSpec> = Record<string, ChildSpec>,
> {
  readonly kind: 'complex';
  /** A named type becomes a global xs:complexType (and a JSON Schema `$defs` entry); anonymous ones are inline. */
  readonly name?: string;
  readonly attributes: A;
  readonly children: C;
  readonly doc?: string;
}

/** A document type: the root element of a request or response body. */
export interface WireDocument<T extends ComplexType = ComplexType> {
  /** The schema's name (`/schemas/{name}.xsd`, `{name}.schema.json`), which is also the root element's unless `root` is given. */
  readonly name: string;
  /**
   * The root element's name when it is not the schema's: a later version or a variant of an answer keeps the first
   * one's root (FormSchemaResponseV2, ProjectExportDataGetResponseV2, ProjectsResponseExtended).
   */
  readonly root?: string;
  readonly type: T;
  readonly doc: string;
  /** A request body is read (arrays may be left out in JSON); an answer is written (every array is present). */
  readonly direction: 'request' | 'response';
}

function simple<T>(base: SimpleBase, extra: Partial<Omit<SimpleType<T>, 'kind' | 'base'>> = {}): SimpleType<T> {
  return { kind: 'simple', base, ...extra };
}

/** xs:string. */
export const string = simple<string>('string');
/** xs:token: whitespace is collapsed when read, in XML and in JSON alike. */
export const token = simple<string>('token');
/** xs:boolean (true or false in JSON). */
export const boolean = simple<boolean>('boolean');
/** xs:int. */
export const int = simple<number>('int');
/** xs:long. */
export const long = simple<number>('long');
/** xs:nonNegativeInteger. */
export const nonNegativeInteger = simple<number>('nonNegativeInteger');
/** xs:positiveInteger. */
export const positiveInteger = simple<number>('positiveInteger');
/** xs:decimal, a string in JSON so that no digit is lost. */
export const decimal = simple<string>('decimal');
/** xs:float, written with at least one decimal (1.0, 2.5). */
export const float = simple<number>('float');
/** xs:dateTime, an ISO 8601 string in both representations. */
export const dateTime = simple<string>('dateTime');

/** A restriction of `base` (optionally named) by enumeration, pattern or length. */
export function restrict<T>(
  base: SimpleType<T>, facets: { name?: string; enumeration?: readonly string[]; pattern?: string; minLength?: number; maxLength?: number; doc?: string },
): SimpleType<T> {
  return { ...base, ...facets };
}

/** A named enumeration of strings over xs:string. */
export function enumeration<const V extends string>(name: string, values: readonly V[], doc?: string): SimpleType<V> {
  return simple<V>('string', { name, enumeration: values, ...(doc ? { doc } : {}) });
}

/** `text` as a value of enumeration `type`; throws Error for any other (the service only makes listed values). */
export function enumValue<V extends string>(type: SimpleType<V>, text: string): V {
  if (!type.enumeration?.includes(text)) throw new Error(`${text} is not a value of ${type.name ?? 'the enumeration'}`);
  return text as V;
}

/** A required attribute (`fixed`: the one value it may have). */
export function required<T>(type: SimpleType<T>, facets: { fixed?: string; doc?: string } = {}): { readonly type: SimpleType<T>; readonly required: true; readonly fixed?: string } {
  return { type, required: true, ...facets };
}

/** An optional attribute, left out of XML and JSON when null or undefined (`default`: what its absence means). */
export function optional<T>(type: SimpleType<T>, facets: { default?: string; doc?: string } = {}): { readonly type: SimpleType<T>; readonly required: false; readonly default?: string } {
  return { type, required: false, ...facets };
}

/** Exactly one child element. */
export function one<T extends SimpleType | ComplexType>(type: T, doc?: string) {
  return { type, min: 1 as const, max: 1 as const, ...(doc ? { doc } : {}) };
}

/** An optional child element (at most one). */
export function maybe<T extends SimpleType | ComplexType>(type: T, doc?: string) {
  return { type, min: 0 as const, max: 1 as const, ...(doc ? { doc } : {}) };
}

/** A repeated child element, `min` to `max` times (unbounded by default); an array in JSON. */
export function many<T extends SimpleType | ComplexType>(type: T, min = 0, max = Number.POSITIVE_INFINITY, doc?: string) {
  return { type, min, max, ...(doc ? { doc } : {}) };
}

/** A complex type with attributes and child elements in document order. */
export function complex<
  const A extends Record<string, AttributeSpec> = Record<never, AttributeSpec>,
  const C extends Record<string, ChildSpec> = Record<never, ChildSpec>,
>(spec: { name?: string; attributes?: A; children?: C; doc?: string }): ComplexType<A, C> {
  return {
    kind: 'complex', attributes: (spec.attributes ?? {}) as A, children: (spec.children ?? {}) as C,
    ...(spec.name ? { name: spec.name } : {}), ...(spec.doc ? { doc: spec.doc } : {}),
  };
}

/** A request body type with root element `name`. */
export function requestDocument<T extends ComplexType>(name: string, type: T, doc: string): WireDocument<T> {
  return { name, type, doc, direction: 'request' };
}

/** An answer type with root element `name`, or `root` when given (schema `name` is then a later version of `root`). */
export function responseDocument<T extends ComplexType>(name: string, type: T, doc: string, root?: string): WireDocument<T> {
  return { name, type, doc, direction: 'response', ...(root !== undefined ? { root } : {}) };
}

/** The JavaScript value of a simple type. */
export type SimpleValue<S> = S extends SimpleType<infer T> ? T : never;

type RequiredKeys<A> = { [K in keyof A]: A[K] extends { required: true } ? K : never }[keyof A];
type OptionalKeys<A> = Exclude<keyof A, RequiredKeys<A>>;
type ChildValue<S> = S extends SimpleType<infer T> ? T : S extends ComplexType ? WireValue<S> : never;
type RepeatedKeys<C> = { [K in keyof C]: C[K] extends { max: 1 } ? never : K }[keyof C];
type SingleRequiredKeys<C> = { [K in keyof C]: C[K] extends { max: 1; min: 1 } ? K : never }[keyof C];
type SingleOptionalKeys<C> = { [K in keyof C]: C[K] extends { max: 1; min: 0 } ? K : never }[keyof C];
type Flatten<T> = { [K in keyof T]: T[K] };

/** The value of a complex type in the JSON mapping: attributes and children as properties, repeated children as arrays. */
export type WireValue<T> = T extends ComplexType<infer A, infer C> ? Flatten<Attributes<Known<A>> & Children<Known<C>>> : never;

type Empty = Record<never, never>;
// A description without attributes or children is typed with an index signature; it has no properties.
type Known<R> = string extends keyof R ? Empty : R;
type Attributes<A> = A extends Record<string, AttributeSpec>
  ? { [K in RequiredKeys<A>]: SimpleValue<A[K]['type']> } & { [K in OptionalKeys<A>]?: SimpleValue<A[K]['type']> | null }
  : Empty;
type Children<C> = C extends Record<string, ChildSpec>
  ? & { [K in SingleRequiredKeys<C>]: ChildValue<C[K]['type']> }
    & { [K in SingleOptionalKeys<C>]?: ChildValue<C[K]['type']> | null }
    & { [K in RepeatedKeys<C>]: ChildValue<C[K]['type']>[] }
  : Empty;

/** The value of a whole document: its root element's value. */
export type DocumentValue<D> = D extends WireDocument<infer T> ? WireValue<T> : never;
