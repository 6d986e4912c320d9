import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contentDisposition, fileNameFromContentDisposition, viewInlineType } from '../../src/http/content-disposition.ts';

test('reads filename, quoted or not, with backslash escapes', () => {
  assert.equal(fileNameFromContentDisposition('attachment; filename="site plan.pdf"'), 'site plan.pdf');
  assert.equal(fileNameFromContentDisposition('attachment; filename=plan.pdf'), 'plan.pdf');
  assert.equal(fileNameFromContentDisposition('attachment;filename="a \\"quoted\\" name;.pdf"; size=10'), 'a "quoted" name;.pdf');
  assert.equal(fileNameFromContentDisposition('form-data; name="file"; FILENAME="x.pdf"'), 'x.pdf', 'parameter names ignore case');
});

test('prefers filename* (UTF-8 or ISO-8859-1) and falls back to filename when it cannot be decoded', () => {
  assert.equal(fileNameFromContentDisposition(`attachment; filename="plan.pdf"; filename*=UTF-8''%E2%82%AC%20plan.pdf`), '€ plan.pdf');
  assert.equal(fileNameFromContentDisposition(`attachment; filename*=utf-8'en'r%C3%A9sum%C3%A9.pdf; filename="resume.pdf"`), 'résumé.pdf');
  assert.equal(fileNameFromContentDisposition(`attachment; filename*=ISO-8859-1''%E9t%E9.pdf`), 'été.pdf');
  assert.equal(fileNameFromContentDisposition(`attachment; filename*=UTF-8''%C3%28; filename="fallback.pdf"`), 'fallback.pdf', 'invalid UTF-8');
  assert.equal(fileNameFromContentDisposition(`attachment; filename*=KOI8-R''%C1; filename="fallback.pdf"`), 'fallback.pdf', 'unknown charset');
  assert.equal(fileNameFromContentDisposition(`attachment; filename*=plan.pdf`), null, 'not an ext-value, and no filename');
});

test('a name sent as raw UTF-8 (as curl does) arrives intact; no header or no name is null', () => {
  assert.equal(fileNameFromContentDisposition(`attachment; filename="${Buffer.from('été.pdf').toString('latin1')}"`), 'été.pdf');
  assert.equal(fileNameFromContentDisposition('attachment; filename="caf\u00e9.pdf"'), 'caf\u00e9.pdf', 'Latin-1 that is not UTF-8 stays as it is');
  assert.equal(fileNameFromContentDisposition(undefined), null);
  assert.equal(fileNameFromContentDisposition('attachment'), null);
  assert.equal(fileNameFromContentDisposition('inline; name="x"'), null);
});

test('writes an ASCII fallback and the exact name as filename*', () => {
  assert.equal(contentDisposition('plan.pdf'), `attachment; filename="plan.pdf"; filename*=UTF-8''plan.pdf`);
  assert.equal(contentDisposition(`€ "50%" O'Neil (1).pdf`), `attachment; filename="_ _50__ O'Neil (1).pdf"; filename*=UTF-8''%E2%82%AC%20%2250%25%22%20O%27Neil%20%281%29.pdf`);
  for (const name of ['plan.pdf', 'résumé "final".pdf', 'a\\b;c.pdf', '\ud83d\ude00.png']) {
    assert.equal(fileNameFromContentDisposition(contentDisposition(name)), name, 'what we write reads back');
  }
});

test('viewInlineType: PDF and raster images only, by their media type; SVG, HTML, XML and anything else never', () => {
  for (const [type, inline] of [
    ['application/pdf', 'application/pdf'], ['image/png', 'image/png'], ['IMAGE/JPEG; q=1', 'image/jpeg'], ['image/gif', 'image/gif'], ['image/webp', 'image/webp'],
    ['image/svg+xml', null], ['text/html', null], ['application/xhtml+xml', null], ['application/xml', null], ['text/xml', null], ['text/plain', null],
    ['application/octet-stream', null], ['image/x-icon', null], ['', null], ['application/pdf+xml', null], ['application/x-pdf', null],
  ] as const) assert.equal(viewInlineType(type), inline, type);
});

test('an inline Content-Disposition names the file the same way as a download', () => {
  assert.equal(contentDisposition('plan €.pdf', 'inline'), `inline; filename="plan _.pdf"; filename*=UTF-8''plan%20%E2%82%AC.pdf`);
});
