import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeXml, XML_DECLARATION, XmlWriter } from '../../src/xml/xml-writer.ts';
import { kid, kids, NASTY, NS, readBack, xmlSafe } from './xml-test-helpers.ts';

test('the first element carries xmlns, null and undefined attributes are left out', () => {
  const xml = new XmlWriter(NS).start('Root', { A: 'x', B: null, C: undefined, D: '' }).empty('Child', { E: '1' }).end().finish();
  assert.equal(xml, `${XML_DECLARATION}<Root xmlns="${NS}" A="x" D=""><Child E="1"/></Root>`);
});

test('attribute and text escaping round-trips through a conforming parser', () => {
  const xml = new XmlWriter(NS).start('Root', { V: NASTY }).element('T', undefined, NASTY).end().finish();
  const root = readBack(xml);
  assert.equal(root.namespace, NS);
  assert.equal(root.attrs['V'], xmlSafe(NASTY));
  assert.equal(kid(root, 'T').text, xmlSafe(NASTY));
});

test('forbidden characters never reach the output', () => {
  const xml = new XmlWriter(NS).start('Root', { V: '\u0000\u0008\u000b\u000c\u000e\u001f\uDC00\uFFFE\uFFFF' }).text('\u0001\uD83D').end().finish();
  assert.equal(xml, xmlSafe(xml), 'xmlSafe() would change nothing in the output');
  assert.ok(![...xml].some((ch) => ch.length === 1 && ch >= '\uD800' && ch <= '\uDFFF'));
  assert.equal(readBack(xml).attrs['V'], '\uFFFD'.repeat(9));
  assert.equal(readBack(xml).text, '\uFFFD\uFFFD');
});

test('escapeXml keeps surrogate pairs and escapes quotes only in attributes', () => {
  assert.equal(escapeXml('😀', true), '😀');
  assert.equal(escapeXml(`"'`, false), `"'`);
  assert.equal(escapeXml(`"'`, true), '&quot;&apos;');
  assert.equal(escapeXml('a\tb\nc\rd', true), 'a&#9;b&#10;c&#13;d');
  assert.equal(escapeXml('a\tb\nc\rd', false), 'a\tb\nc&#13;d');
  assert.equal(escapeXml('plain', false), 'plain');
  assert.equal(escapeXml('\u0001x', false), '\uFFFDx');
});

test('element() writes an empty element for empty text', () => {
  const xml = new XmlWriter(NS).start('Root').element('A', { X: '1' }, '').element('B', undefined, 'b').end().finish();
  assert.ok(xml.endsWith('<A X="1"/><B>b</B></Root>'));
  assert.deepEqual(kids(readBack(xml), 'A').map((a) => a.text), ['']);
});

test('an element closed right after it was opened is written as an empty element', () => {
  const w = new XmlWriter(NS).start('Root').start('A', { X: '1' });
  const first = w.take();
  const xml = first + w.end().start('B').text('').end().start('C').text('c').end().end().finish();
  assert.equal(xml, `${XML_DECLARATION}<Root xmlns="${NS}"><A X="1"/><B/><C>c</C></Root>`);
});

test('take() hands out chunks that add up to the document', () => {
  const w = new XmlWriter(NS).start('Root');
  const chunks = [w.take()];
  for (let i = 0; i < 3; i++) {
    w.empty('Item', { N: String(i) });
    chunks.push(w.take());
  }
  chunks.push(w.end().finish());
  assert.equal(chunks.join(''), `${XML_DECLARATION}<Root xmlns="${NS}"><Item N="0"/><Item N="1"/><Item N="2"/></Root>`);
  assert.equal(w.pending, 0);
});

test('misuse is refused instead of producing broken XML', () => {
  assert.throws(() => new XmlWriter(NS).end(), /without an open element/);
  assert.throws(() => new XmlWriter(NS).text('x'), /outside the root/);
  assert.throws(() => new XmlWriter(NS).empty('A').empty('B'), /one root/);
  assert.throws(() => new XmlWriter(NS).start('A').finish(), /still open/);
  assert.throws(() => new XmlWriter(NS).finish(), /no root/);
  assert.throws(() => new XmlWriter(NS).empty('bad name'), /invalid element name/);
  assert.throws(() => new XmlWriter(NS).empty('A', { 'x"y': '1' }), /invalid attribute name/);
});

test('the namespace itself is escaped', () => {
  const xml = new XmlWriter('http://example.com/ns?a=1&b=2').empty('Root').finish();
  assert.equal(readBack(xml).namespace, 'http://example.com/ns?a=1&b=2');
});
