// ProjectsResponse is written from its wire description now (src/wire/documents/projects.ts). Only this helper is
// left, for the encoders of src/xml that still write a SchemaVersion by hand; delete the file when none imports it.

/** Writes SchemaVersion as `1.0`, `2.0`, `2.5` (an xs:float that keeps one decimal for whole versions). */
export function formatSchemaVersion(version: number): string {
  return Number.isInteger(version) ? version.toFixed(1) : String(version);
}
