/**
 * An answer written by hand for a hot read instead of through its document's value and compiled writer (which stay
 * its description, for the schemas and for the tests that hold the two to the same bytes).
 */
export interface WrittenAnswer {
  /** The XML document in namespace `ns`, in chunks of about 16 KiB, exactly as the compiled writer writes its value. */
  xml(ns: string): string[];
  /** The JSON text, exactly as the codec writes its value (null members left out). */
  json(): string;
}
