import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { ApiError, type ErrorCode } from '../../src/domain/api-error.ts';
import { SchemaRegistry } from '../../src/xml/schema-registry.ts';
import { MAX_XML_DEPTH, readXml } from '../../src/xml/xml-reader.ts';
import { NS } from './xml-test-helpers.ts';

const schemas = new SchemaRegistry(NS);
after(() => schemas.dispose());

const ROOT = 'ProjectByNumberRequest';
const read = (body: string | Uint8Array, root = ROOT) => readXml(body, root, NS, schemas);
const ok = (inner = '<Project ProjectNumber="APP-1"/>') => `<?xml version="1.0" encoding="utf-8"?><${ROOT} xmlns="${NS}">${inner}</${ROOT}>`;

function refused(body: string | Uint8Array, code: ErrorCode, message?: RegExp, root = ROOT): void {
  assert.throws(() => read(body, root), (error: unknown) => {
    assert.ok(error instanceof ApiError, `expected ApiError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    if (message) assert.match(error.message, message);
    return true;
  });
}

test('a valid body is returned as a tree with decoded values', () => {
  const root = read(ok('<Project ProjectNumber="A&amp;B &#x41;&#66; &lt;x&gt;"/>\n  <!-- note --><?pi x?><Project ProjectNumber="007"/>'));
  assert.equal(root.name, ROOT);
  assert.equal(root.namespace, NS);
  assert.deepEqual(root.children.map((c) => c.attrs['ProjectNumber']), ['A&B AB <x>', '007']);
  assert.equal(typeof root.children[1]!.attrs['ProjectNumber'], 'string');
});

test('a Buffer body with a BOM is accepted', () => {
  const root = read(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(ok('<Project ProjectNumber="zoë-名"/>'))]));
  assert.equal(root.children[0]!.attrs['ProjectNumber'], 'zoë-名');
});

test('invalid UTF-8 bytes are MALFORMED_XML', () => {
  const bytes = Buffer.from(ok('<Project ProjectNumber="X"/>'));
  const bad = Buffer.concat([bytes.subarray(0, 60), Buffer.from([0xc3, 0x28, 0xff]), bytes.subarray(60)]);
  refused(bad, 'MALFORMED_XML', /UTF-8/);
  refused(ok('<Project ProjectNumber="\uD800"/>'), 'MALFORMED_XML', /UTF-8/);
});

test('an empty body is INVALID_REQUEST naming the expected root', () => {
  refused('', 'INVALID_REQUEST', /request body is empty; expected <ProjectByNumberRequest>/);
  refused(Buffer.alloc(0), 'INVALID_REQUEST', /empty/);
  refused('  \n\t', 'INVALID_REQUEST', /empty/);
});

test('DOCTYPE and ENTITY declarations are refused, whatever their case', () => {
  refused(`<!DOCTYPE ${ROOT}>${ok()}`, 'MALFORMED_XML', /DTD/);
  refused(`<?xml version="1.0"?>\n<!doctype x [<!ENTITY a "b">]>${ok()}`, 'MALFORMED_XML', /entit/i);
  refused(ok('<!-- <!EnTiTy x "y"> --><Project ProjectNumber="1"/>'), 'MALFORMED_XML', /not accepted/);
});

test('a billion-laughs body cannot expand', () => {
  const lol = ['<?xml version="1.0"?>', '<!DOCTYPE lolz [', ' <!ENTITY lol "lol">'];
  for (let i = 1; i <= 9; i++) lol.push(` <!ENTITY lol${i} "${`&lol${i - 1 || ''};`.repeat(10)}">`);
  lol.push(']>', `<${ROOT} xmlns="${NS}"><Project ProjectNumber="&lol9;"/></${ROOT}>`);
  // Refused before any parser sees it, so nothing is ever expanded.
  refused(lol.join('\n'), 'MALFORMED_XML', /DTD/);
});

test('an external entity is refused and undeclared entity references are malformed', () => {
  refused(`<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><${ROOT} xmlns="${NS}"><Project ProjectNumber="&xxe;"/></${ROOT}>`, 'MALFORMED_XML', /DTD/);
  refused(ok('<Project ProjectNumber="&xxe;"/>'), 'MALFORMED_XML', /entity/);
  refused(ok('<Project ProjectNumber="&nbsp;"/>'), 'MALFORMED_XML', /entity/);
  refused(ok('<Project ProjectNumber="&#0;"/>'), 'MALFORMED_XML', /not a character allowed/);
  refused(ok('<Project ProjectNumber="a & b"/>'), 'MALFORMED_XML');
});

test('xsi:schemaLocation does not make the validator load anything', () => {
  const body = `<${ROOT} xmlns="${NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${NS} file:///etc/passwd"><Project ProjectNumber="1"/></${ROOT}>`;
  assert.equal(read(body).children.length, 1);
});

test('truncated and otherwise ill-formed XML is MALFORMED_XML with line and column', () => {
  refused(ok().slice(0, -10), 'MALFORMED_XML', /line \d+, column \d+/);
  refused(`<${ROOT} xmlns="${NS}">\n<Project ProjectNumber="1"></${ROOT}>`, 'MALFORMED_XML', /line 2/);
  refused(`${ok()}<${ROOT} xmlns="${NS}"/>`, 'MALFORMED_XML');
  refused(ok('<Project ProjectNumber="1" ProjectNumber="2"/>'), 'MALFORMED_XML');
  refused(ok('<Project ProjectNumber="<"/>'), 'MALFORMED_XML');
  refused(ok('<p:Project ProjectNumber="1"/>'), 'MALFORMED_XML', /prefix/);
  refused(ok('<Project ProjectNumber="\u0001"/>'), 'MALFORMED_XML');
});

test(`nesting deeper than ${MAX_XML_DEPTH} levels is INVALID_REQUEST`, () => {
  const nest = (levels: number) => `<${ROOT} xmlns="${NS}">${'<a>'.repeat(levels - 1)}${'</a>'.repeat(levels - 1)}</${ROOT}>`;
  refused(nest(MAX_XML_DEPTH + 1), 'INVALID_REQUEST', /deeper than 32/);
  refused(nest(MAX_XML_DEPTH + 2), 'INVALID_REQUEST', /deeper than 32/);
  refused(nest(5000), 'INVALID_REQUEST', /deeper than 32/);
  // 32 levels pass the depth check and reach the schema, which refuses the unknown elements.
  refused(nest(MAX_XML_DEPTH), 'INVALID_REQUEST', /schema/);
});

test('names that could pollute prototypes are INVALID_REQUEST', () => {
  refused(ok('<__proto__/>'), 'INVALID_REQUEST');
  refused(ok('<Project ProjectNumber="1" constructor="x"/>'), 'INVALID_REQUEST');
});

test('a wrong root element is INVALID_REQUEST naming the expected root', () => {
  refused(`<SetProjectOwnerRequest xmlns="${NS}"/>`, 'INVALID_REQUEST', /expected root element <ProjectByNumberRequest>/);
});

test('a wrong or missing namespace is WRONG_NAMESPACE naming the expected one', () => {
  refused(`<${ROOT}><Project ProjectNumber="1"/></${ROOT}>`, 'WRONG_NAMESPACE', new RegExp(`"${NS.replace(/[.?/]/g, '\\$&')}"`));
  refused(`<${ROOT} xmlns="http://example.com/other"/>`, 'WRONG_NAMESPACE', /found namespace "http:\/\/example.com\/other"/);
  refused(`<p:${ROOT} xmlns:p="http://example.com/other" xmlns="${NS}"/>`, 'WRONG_NAMESPACE');
  refused(`<${ROOT} xmlns:p="${NS}"/>`, 'WRONG_NAMESPACE', /no namespace/);
});

test('a prefix bound to the right namespace is accepted', () => {
  const root = read(`<p:${ROOT} xmlns:p="${NS}"><p:Project ProjectNumber="A"/><p:Project ProjectNumber="B"/></p:${ROOT}>`);
  assert.equal(root.name, ROOT);
  assert.deepEqual(root.children.map((c) => [c.name, c.namespace, c.attrs['ProjectNumber']]), [['Project', NS, 'A'], ['Project', NS, 'B']]);
});

test('children outside the namespace are refused by the schema', () => {
  refused(`<p:${ROOT} xmlns:p="${NS}"><Project ProjectNumber="A"/></p:${ROOT}>`, 'INVALID_REQUEST', /schema/);
});

test('XSD violations are INVALID_REQUEST with libxml2 messages', () => {
  refused(ok('<Project/>'), 'INVALID_REQUEST', /ProjectNumber.*required/);
  refused(ok('<Project ProjectNumber=""/>'), 'INVALID_REQUEST', /minLength/);
  refused(ok(`<Project ProjectNumber="${'x'.repeat(101)}"/>`), 'INVALID_REQUEST', /maxLength/);
  refused(ok('<Project ProjectNumber="1" Extra="2"/>'), 'INVALID_REQUEST', /Extra/);
  refused(ok('<Other/>'), 'INVALID_REQUEST', /Other/);
});

test('an XML declaration naming another encoding does not change how the text is read', () => {
  const root = read(`<?xml version="1.0" encoding="ISO-8859-1"?><${ROOT} xmlns="${NS}"><Project ProjectNumber="zoë"/></${ROOT}>`);
  assert.equal(root.children[0]!.attrs['ProjectNumber'], 'zoë');
});

// An element opened hundreds of thousands of times and never closed once made the validator's message echo its whole
// stack of open elements (megabytes); a cheap scan refuses such nesting first, with a message of its own.
test('deep nesting that is never closed is MALFORMED_XML with a short message; closed, it is too deep', () => {
  const open = '<a>'.repeat(349_000);
  for (const body of [open, `<${ROOT} xmlns="${NS}">${open}`, `<${ROOT} xmlns="${NS}">${'<a x="1>2">'.repeat(100)}</${ROOT}>`]) {
    refused(body, 'MALFORMED_XML', /never closed|closes/);
    try {
      read(body);
    } catch (error) {
      assert.ok((error as Error).message.length < 300, `${(error as Error).message.slice(0, 400)}…`);
    }
  }
  refused(`<${ROOT} xmlns="${NS}">${'<a>'.repeat(40)}${'</b>'.repeat(40)}</${ROOT}>`, 'MALFORMED_XML', /closes/);
  refused(`<${ROOT} xmlns="${NS}"><!-- <a> -->${'<a/><a >'.repeat(40)}<![CDATA[<a>]]>${'</a >'.repeat(40)}</${ROOT}>`, 'INVALID_REQUEST', /deeper than 32/);
});
