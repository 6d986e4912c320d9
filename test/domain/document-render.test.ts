import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PDFDocument, PDFDict, PDFName, PDFString } from 'pdf-lib';
import { ApiError } from '../../src/domain/api-error.ts';
import { previewDocument } from '../../src/domain/documents/document-preview.ts';
import { loadDocumentFonts } from '../../src/domain/documents/document-fonts.ts';
import { validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';
import { sampleProgram } from '../cli/sample-program.ts';
import { pdfPageTexts } from '../support/pdf-text.ts';

// Rendering a document template to PDF: the Liquid output laid out (headings, lists, tables, escaped values), the
// title and language in the PDF's metadata, tagged structure, page numbers in the footer, and the same bytes for the
// same input.

const fonts = loadDocumentFonts();
const NOW = Date.UTC(2026, 4, 8, 15, 30);

function program(document: Record<string, unknown>, fields: Record<string, unknown>[] = []) {
  const p = sampleProgram();
  p.fields.push({ customId: 'Panels', name: 'Panels', type: 'table', columns: [{ customId: 'Make', name: 'Panel make', type: 'text' }, { customId: 'Count', type: 'integer' }] }, ...fields);
  return validateProgramFile({
    ...p, calendar: { timeZone: 'America/Los_Angeles' }, deadlines: [{ customId: 'Answer', name: 'Answer due', duration: { businessDays: 10 } }],
    documents: [{ customId: 'Letter', name: 'Approval letter', title: 'Approval of project', language: 'en-US', form: 'Apply', ...document }],
  });
}

const BODY = [
  '# Approval of {{ project.number }}', '',
  'Dear **{{ fields.Customer }}**, your *{{ fields.Size }} kW* system is approved on {{ today | date: "%B %-d, %Y" }}.', '',
  '- Make: {{ fields.Make }}', '- Answer by {{ deadlines.Answer }}', '  - nested', '',
  '1. first', '2. second', '',
  '| Field | Value |', '|---|---|', '| Owner | {{ owner.name }} |', '',
  '{{ fields.Panels | rowsTable }}',
].join('\n');

test('renders the body as a tagged PDF with its title, language and text, and page numbers in the footer', async () => {
  const file = program({ body: BODY, footer: 'Page {{ page }} of {{ pages }}', header: '{{ program.name }} · {{ project.number }}' });
  const rendered = await previewDocument(file, 'Letter', programCheckers(), fonts, NOW);
  assert.equal(rendered.title, 'Approval of project');
  assert.match(rendered.templateVersion, /^[0-9a-f]{12}$/);
  const pdf = await PDFDocument.load(rendered.pdf, { updateMetadata: false });
  assert.equal(pdf.getTitle(), 'Approval of project');
  assert.equal(pdf.getCreationDate()?.getTime(), NOW);
  const catalog = pdf.catalog;
  assert.equal(catalog.lookup(PDFName.of('Lang'), PDFString).decodeText(), 'en-US');
  assert.ok(catalog.lookup(PDFName.of('StructTreeRoot'), PDFDict), 'tagged: a structure tree');
  assert.equal(String(catalog.lookup(PDFName.of('MarkInfo'), PDFDict).get(PDFName.of('Marked'))), 'true');
  assert.equal(String(catalog.lookup(PDFName.of('ViewerPreferences'), PDFDict).get(PDFName.of('DisplayDocTitle'))), 'true');
  const text = (await pdfPageTexts(rendered.pdf)).join('\n');
  for (const expected of ['Approval of PV-00042', 'Dear', '[Customer name]', '12.5 kW', 'May 8, 2026', 'Make: SMA', 'Answer by 2026-05-18', 'nested', 'first', 'Owner',
    'Sample Applicant', 'Panel make', 'Count', 'Small PV · PV-00042', 'Page 1 of 1']) {
    assert.ok(text.includes(expected), `"${expected}" in:\n${text}`);
  }
  const structure = Buffer.from(rendered.pdf).toString('latin1');
  for (const tag of ['/H1', '/P', '/L', '/LI', '/Lbl', '/LBody', '/Table', '/TH', '/TD']) assert.ok(structure.includes(`/S ${tag}`), `structure element ${tag}`);
});

test('the same input gives the same bytes; another time gives other bytes', async () => {
  const file = program({ body: BODY, footer: 'Page {{ page }} of {{ pages }}' });
  const a = await previewDocument(file, 'Letter', programCheckers(), fonts, NOW);
  const b = await previewDocument(file, 'Letter', programCheckers(), fonts, NOW);
  assert.ok(Buffer.from(a.pdf).equals(Buffer.from(b.pdf)));
  const c = await previewDocument(file, 'Letter', programCheckers(), fonts, NOW + 1000);
  assert.ok(!Buffer.from(a.pdf).equals(Buffer.from(c.pdf)));
});

test('a value is shown as written, never read as Markdown, and a long document numbers every page', async () => {
  const file = program({ body: '{{ fields.Customer }}\n\n{% for i in (1..120) %}Line {{ i }}\n\n{% endfor %}', footer: 'Page {{ page }} of {{ pages }}' });
  file.fields[0]!.name = '# *not* | a heading';
  const rendered = await previewDocument(file, 'Letter', programCheckers(), fonts, NOW);
  const pages = await pdfPageTexts(rendered.pdf);
  assert.ok(pages.length >= 3, `${pages.length} pages`);
  assert.ok(pages[0]!.includes('[# *not* | a heading]'), pages[0]);
  for (const [i, p] of pages.entries()) assert.ok(p.includes(`Page ${i + 1} of ${pages.length}`), p);
});

test('a render that passes Liquid\'s limits is refused with INVALID_REQUEST, not a crash', async () => {
  const file = program({ body: '{% for i in (1..100000) %}{% for j in (1..1000) %}x{% endfor %}{% endfor %}' });
  await assert.rejects(previewDocument(file, 'Letter', programCheckers(), fonts, NOW), (e) => e instanceof ApiError && e.code === 'INVALID_REQUEST' && /document "Letter": body/.test(e.message));
});

test('a logo is drawn on the first page as an image; a damaged one is refused at import', async () => {
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  const rendered = await previewDocument(program({ body: 'Hello', logo: png }), 'Letter', programCheckers(), fonts, NOW, undefined);
  assert.match(Buffer.from(rendered.pdf).toString('latin1'), /\/Subtype \/Image/);
  const damaged = Buffer.from(png, 'base64');
  damaged[damaged.length - 20]! ^= 0xff;
  await assert.rejects(previewDocument(program({ body: 'Hello', logo: damaged.toString('base64') }), 'Letter', programCheckers(), fonts, NOW),
    (e) => e instanceof ApiError && /logo is a damaged PNG image/.test(e.message));
});
