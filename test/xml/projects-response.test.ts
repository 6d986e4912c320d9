import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { ProjectsView } from '../../src/domain/views.ts';
import { isoTimestamp } from '../../src/model/clock.ts';
import { extendedProjectsValue, ProjectsResponse, ProjectsResponseExtended, projectsValue } from '../../src/wire/documents/projects.ts';
import { compileXmlWriter } from '../../src/wire/wire-xml-writer.ts';
import { SchemaRegistry } from '../../src/xml/schema-registry.ts';
import { kid, kids, NS, readBack } from './xml-test-helpers.ts';

const schemas = new SchemaRegistry(NS);
after(() => schemas.dispose());

const baseWriter = compileXmlWriter(ProjectsResponse);
const extendedWriter = compileXmlWriter(ProjectsResponseExtended);
/** The ProjectsResponse variant the view was made for, in chunks (as the routes send it). */
function projectsResponseChunks(view: ProjectsView, ns: string): string[] {
  return view.extended ? extendedWriter.chunks(extendedProjectsValue(view), ns) : baseWriter.chunks(projectsValue(view), ns);
}
const encodeProjectsResponse = (view: ProjectsView, ns: string) => projectsResponseChunks(view, ns).join('');

const T1 = Date.UTC(2026, 10, 22, 3, 8, 22, 507);

function sample(count: number, extended: boolean): ProjectsView {
  return {
    schemaVersion: extended ? 2 : 1, extended, requestTimestamp: T1,
    projects: Array.from({ length: count }, (_, i) => ({
      projectId: `p-${i}`, programId: 'prog-1', projectNumber: i % 3 === 0 ? null : `APP-${String(i).padStart(4, '0')}`,
      status: i % 2 ? 'Unsubmitted' : `Review <${i}> & "co" 😀`, statusTimestamp: T1 + i, lastChangeTimestamp: T1 + 1000 + i,
      statusCustomId: i % 4 === 0 ? null : `C${i}`, statusPublicId: `pub-${i}`,
    })),
  };
}

function expectedAttrs(view: ProjectsView): Record<string, string>[] {
  return view.projects.map((p) => ({
    ProjectId: p.projectId, ProgramId: p.programId, ...(p.projectNumber === null ? {} : { ProjectNumber: p.projectNumber }),
    Status: p.status, StatusTimestamp: isoTimestamp(p.statusTimestamp), LastChangeTimestamp: isoTimestamp(p.lastChangeTimestamp),
    ...(view.extended ? { ...(p.statusCustomId === null ? {} : { StatusCustomId: p.statusCustomId }), StatusPublicId: p.statusPublicId } : {}),
  }));
}

test('base ProjectsResponse validates against the base schema and reads back', () => {
  const view = sample(12, false);
  const xml = encodeProjectsResponse(view, NS);
  assert.deepEqual(schemas.validate('ProjectsResponse', xml), []);
  const root = readBack(xml);
  assert.equal(root.namespace, NS);
  assert.deepEqual(root.attrs, { SchemaVersion: '1.0', RequestTimestamp: isoTimestamp(T1) });
  assert.deepEqual(kids(kid(root, 'Projects'), 'Project').map((p) => p.attrs), expectedAttrs(view));
});

test('extended ProjectsResponse validates against the extended schema, StatusCustomId omitted when null', () => {
  const view = sample(12, true);
  const xml = encodeProjectsResponse(view, NS);
  assert.deepEqual(schemas.validate('ProjectsResponseExtended', xml), []);
  const root = readBack(xml);
  assert.equal(root.attrs['SchemaVersion'], '2.0');
  assert.deepEqual(kids(kid(root, 'Projects'), 'Project').map((p) => p.attrs), expectedAttrs(view));
  assert.match(xml, /<Project ProjectId="p-0" ProgramId="prog-1" Status="[^"]*" StatusTimestamp="[^"]*" LastChangeTimestamp="[^"]*" StatusPublicId="pub-0"\/>/);
});

test('the base schema refuses the extended attributes, the extended schema requires StatusPublicId', () => {
  const extended = encodeProjectsResponse(sample(3, true), NS);
  const errors = schemas.validate('ProjectsResponse', extended);
  assert.ok(errors.some((e) => e.includes('StatusPublicId')), errors.join('\n'));
  assert.ok(errors.some((e) => e.includes('StatusCustomId')), errors.join('\n'));
  const base = encodeProjectsResponse(sample(3, false), NS);
  assert.ok(schemas.validate('ProjectsResponseExtended', base).some((e) => e.includes('StatusPublicId')));
  assert.match(schemas.source('ProjectsResponseExtended'), /<xs:annotation>/);
});

test('attribute order follows the specification', () => {
  const xml = encodeProjectsResponse(sample(2, true), NS);
  assert.match(xml, /<Project ProjectId="p-1" ProgramId="prog-1" ProjectNumber="APP-0001" Status="Unsubmitted" StatusTimestamp="[^"]+" LastChangeTimestamp="[^"]+" StatusCustomId="C1" StatusPublicId="pub-1"\/>/);
  assert.match(xml, /^<\?xml version="1\.0" encoding="utf-8"\?><ProjectsResponse xmlns="[^"]+" SchemaVersion="2\.0" RequestTimestamp="/);
});

test('an empty list still has its Projects element', () => {
  const xml = encodeProjectsResponse(sample(0, false), NS);
  assert.match(xml, /<Projects><\/Projects>|<Projects\/>/);
  assert.deepEqual(schemas.validate('ProjectsResponse', xml), []);
});

test('1000 projects are written in several chunks identical to the string output', () => {
  for (const extended of [false, true]) {
    const view = sample(1000, extended);
    const chunks = projectsResponseChunks(view, NS);
    assert.ok(chunks.length > 5, `expected several chunks, got ${chunks.length}`);
    assert.ok(chunks.every((c) => c.length < 64 * 1024));
    const whole = extended ? extendedWriter.write(extendedProjectsValue(view), NS) : baseWriter.write(projectsValue(view), NS);
    assert.equal(chunks.join(''), whole);
    assert.deepEqual(schemas.validate(extended ? 'ProjectsResponseExtended' : 'ProjectsResponse', whole), []);
    assert.equal(kids(kid(readBack(whole), 'Projects'), 'Project').length, 1000);
  }
});

test('SchemaVersion is written as a float with one decimal for whole versions', () => {
  for (const [version, text] of [[1, '1.0'], [2, '2.0'], [1.1, '1.1'], [2.5, '2.5']] as const) {
    const xml = encodeProjectsResponse({ ...sample(1, false), schemaVersion: version }, NS);
    assert.equal(readBack(xml).attrs['SchemaVersion'], text);
    assert.deepEqual(schemas.validate('ProjectsResponse', xml), []);
  }
});

test('JSON: the base variant has no status ids, the extended one leaves out a null StatusCustomId', () => {
  const base = JSON.parse(JSON.stringify(projectsValue(sample(1, false)))) as { SchemaVersion: number; Projects: { Project: Record<string, unknown>[] } };
  assert.equal(base.SchemaVersion, 1);
  assert.deepEqual(Object.keys(base.Projects.Project[0]!), ['ProjectId', 'ProgramId', 'ProjectNumber', 'Status', 'StatusTimestamp', 'LastChangeTimestamp']);
  const extended = extendedProjectsValue(sample(1, true)).Projects.Project[0]!;
  assert.equal(extended.StatusCustomId, null);
  assert.equal(extended.StatusPublicId, 'pub-0');
});
