/**
 * `npx tsx bench/page-answer-cost.ts [ROWS] [RUNS]` — what a page of listings costs apas between the store's JSON
 * text and the answer's bytes, step by step, in this process (no database): parsing the text into listings, the
 * domain's view, and the XML and JSON answers of both versions, through the described documents (their values and
 * the compiled writer) and as projects-answer.ts writes them (checked to be the same bytes first). Prints CPU µs per
 * page, the median of RUNS.
 */
import { projectsView } from '../src/domain/projects/project-service.ts';
import type { ProgramModel, ProjectListing, Status } from '../src/model/model.ts';
import { extendedProjectsValue, ProjectsResponse, ProjectsResponseExtended, projectsValue } from '../src/wire/documents/projects.ts';
import { xmlDocumentChunks } from '../src/wire/wire-xml-writer.ts';
import { projectsAnswer } from '../src/wire/documents/projects-answer.ts';

const rows = Number(process.argv[2] ?? '101');
const runs = Number(process.argv[3] ?? '9');
const NS = 'http://service.powerclerk.com/api/v1/';
const ID = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const id = (n: number) => Array.from({ length: 12 }, (_, i) => ID[(n * 7 + i * 13 + (n >> i)) % 32]).join('');
const statuses: Status[] = ['Unsubmitted', 'Application Review', 'Approved for Installation', 'Installation Review', 'Complete'].map((name, i) => ({
  id: id(1000 + i), customId: i === 0 ? null : name.replace(/ /g, ''), publicId: id(2000 + i), name, isInitial: i === 0, position: i, next: [],
}));
const model = { statuses, retired: { statuses: [] } } as unknown as ProgramModel;
const start = Date.UTC(2024, 10, 28, 1, 59, 35, 27);
const text = JSON.stringify(Array.from({ length: rows }, (_, i) => {
  const at = start + i * 6_307_200;
  return [id(i), i % 10 === 0 ? null : `SOLAR-${String(i + 1).padStart(5, '0')}`, statuses[i % 5]!.id, at, at, i % 3 === 0 ? at + 1000 : at];
}));
// A listing as listing-page-json.ts reads it: LISTING_COLUMNS without program_id, the page's own.
type ListingArray = [string, string | null, string, number, number, number];
const programId = id(99);
const toJson = (value: unknown) => JSON.stringify(value, (_key, v: unknown) => (v === null ? undefined : v));
const parse = (): ProjectListing[] => (JSON.parse(text) as ListingArray[]).map(([id, number, statusId, statusAt, createdAt, updatedAt]) => ({ id, programId, number, statusId, statusAt, createdAt, updatedAt }));
const listings = parse();
const v1 = projectsView(1, start, model, listings);
const v2 = projectsView(2, start, model, listings);

const steps: [string, () => unknown][] = [
  ['parse the JSON text into listings', parse],
  ['the view (version 1)', () => projectsView(1, start, model, listings)],
  ['value, version 1', () => projectsValue(v1)],
  ['value, version 2', () => extendedProjectsValue(v2)],
  ['XML v1 from the view', () => xmlDocumentChunks(ProjectsResponse, projectsValue(v1), NS).join('')],
  ['XML v2 from the view', () => xmlDocumentChunks(ProjectsResponseExtended, extendedProjectsValue(v2), NS).join('')],
  ['JSON v1 from the view', () => toJson(projectsValue(v1))],
  ['JSON v2 from the view', () => toJson(extendedProjectsValue(v2))],
  ['written XML v1', () => projectsAnswer(v1).xml(NS).join('')],
  ['written XML v2', () => projectsAnswer(v2).xml(NS).join('')],
  ['written JSON v1', () => projectsAnswer(v1).json()],
  ['written JSON v2', () => projectsAnswer(v2).json()],
];
for (const v of [v1, v2]) {
  if (projectsAnswer(v).xml(NS).join('') !== xmlDocumentChunks(v.extended ? ProjectsResponseExtended : ProjectsResponse, v.extended ? extendedProjectsValue(v) : projectsValue(v), NS).join('')) throw new Error('XML differs');
  if (projectsAnswer(v).json() !== toJson(v.extended ? extendedProjectsValue(v) : projectsValue(v))) throw new Error('JSON differs');
}
const n = Math.max(20, Math.round(200_000 / rows));
const times: number[][] = steps.map(() => []);
for (const [, f] of steps) for (let i = 0; i < n; i++) f();
for (let r = 0; r < runs; r++) {
  for (const [k, [, f]] of steps.entries()) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < n; i++) f();
    const t = process.cpuUsage(t0);
    times[k]!.push((t.user + t.system) / n);
  }
}
const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [k, [name]] of steps.entries()) process.stdout.write(`${name.padEnd(40)} ${median(times[k]!).toFixed(1).padStart(8)} µs\n`);
