import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ProjectSummaryView, ProjectsView } from '../../src/domain/views.ts';
import { toJson } from '../../src/http/api-codec.ts';
import { extendedProjectsValue, ProjectsResponse, ProjectsResponseExtended, projectsValue } from '../../src/wire/documents/projects.ts';
import { projectsAnswer } from '../../src/wire/documents/projects-answer.ts';
import { compileXmlWriter } from '../../src/wire/wire-xml-writer.ts';
import { NS } from './xml-test-helpers.ts';

// The project lists are written by hand (projects-answer.ts) and must stay byte for byte what the described
// documents' values give through the compiled XML writer and the codec's JSON, which stay their reference.
const baseWriter = compileXmlWriter(ProjectsResponse);
const extendedWriter = compileXmlWriter(ProjectsResponseExtended);
const referenceXml = (view: ProjectsView, ns: string) =>
  view.extended ? extendedWriter.write(extendedProjectsValue(view), ns) : baseWriter.write(projectsValue(view), ns);
const referenceJson = (view: ProjectsView) => toJson(view.extended ? extendedProjectsValue(view) : projectsValue(view));

const T = Date.UTC(2026, 10, 22, 3, 8, 22, 507);
// Every character the XML and JSON writers treat specially: markup, quotes, tab, newline, CR, other controls,
// a backslash, a pair and lone halves of a surrogate pair, U+FFFE, non-ASCII.
const TRICKY = ['a&b<c>d', 'say "hi" & \'bye\'', 'tab\there\nnew\rline', 'ctl\u0001\u001f', 'back\\slash', 'pair 😀', 'lone \ud800 and \udc00',
  'not \ufffe\uffff', 'Ünïcödé Bewilligung', ''];

function project(i: number, over: Partial<ProjectSummaryView> = {}): ProjectSummaryView {
  const tricky = TRICKY[i % TRICKY.length]!;
  return {
    projectId: i % 7 === 3 ? `id ${tricky}` : `P${String(i).padStart(11, '0')}`, programId: i % 5 === 4 ? `prog ${tricky}` : 'PROG00000001',
    projectNumber: i % 3 === 0 ? null : `N-${tricky}-${i}`, status: i % 2 ? 'Unsubmitted' : `Review ${tricky}`,
    statusTimestamp: T + i * 3_600_000, lastChangeTimestamp: i % 4 === 0 ? T + i * 3_600_000 : T + i * 3_600_000 + 1_234,
    statusCustomId: i % 4 === 1 ? null : `C ${tricky}`, statusPublicId: `pub ${tricky}`, ...over,
  };
}

function view(version: number, projects: ProjectSummaryView[], requestTimestamp = T): ProjectsView {
  return { schemaVersion: version, extended: version >= 2, requestTimestamp, projects };
}

function assertSame(v: ProjectsView, ns = NS): void {
  const answer = projectsAnswer(v);
  assert.equal(answer.xml(ns).join(''), referenceXml(v, ns));
  assert.equal(answer.json(), referenceJson(v));
}

test('tricky values in every attribute, absent optional parts, both versions: the same bytes as the described documents', () => {
  const projects = Array.from({ length: 40 }, (_, i) => project(i));
  for (const version of [1, 2]) assertSame(view(version, projects));
  // Version 1 never writes the status ids, whatever they hold.
  assert.doesNotMatch(projectsAnswer(view(1, projects)).xml(NS).join(''), /StatusPublicId|StatusCustomId/);
});

test('an empty list, one project, and a namespace that needs escaping', () => {
  for (const version of [1, 2]) {
    assertSame(view(version, []));
    assertSame(view(version, [project(1)]));
    assertSame(view(version, [project(0)]), 'urn:a&b"c');
  }
  assert.match(projectsAnswer(view(1, [])).xml(NS).join(''), /<Projects\/><\/ProjectsResponse>$/);
  assert.equal(projectsAnswer(view(2, [])).json().endsWith('"Projects":{"Project":[]}}'), true);
});

test('SchemaVersion as xs:float and JSON number, and times outside the years formatted by arithmetic', () => {
  for (const version of [1, 2, 1.5, 2.25]) assertSame(view(version, [project(2)]));
  const odd = [project(1, { statusTimestamp: -1, lastChangeTimestamp: -1 }), project(2, { statusTimestamp: 0, lastChangeTimestamp: Date.UTC(10000, 0, 1) })];
  for (const version of [1, 2]) assertSame(view(version, odd, -86_400_001));
});

test('a page of 1,000 comes in chunks of about 16 KiB that join to the same document', () => {
  const projects = Array.from({ length: 1000 }, (_, i) => project(i));
  for (const version of [1, 2]) {
    const chunks = projectsAnswer(view(version, projects)).xml(NS);
    assert.ok(chunks.length > 5, `expected several chunks, got ${chunks.length}`);
    assert.ok(chunks.every((c) => c.length < 64 * 1024));
    assertSame(view(version, projects));
  }
});
