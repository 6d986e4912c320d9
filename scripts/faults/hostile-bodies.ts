import fc from 'fast-check';
import { escapeXml, NS } from './api-client.ts';

/** The request document types of the interface that hostile bodies are made from. */
export type DocKind =
  | 'ProjectDataRequest' | 'ProjectByNumberRequest' | 'ProjectByDataRequest' | 'SetProjectOwnerRequest'
  | 'SetProjectStatusRequest' | 'SetProjectStatusHistoryReportAs' | 'SetAssigneeRequest' | 'CreateMfaSessionTokenRequest'
  | 'SetAttachmentMetadata' | 'SetInquiryNoteRequest' | 'SetInquiryThreadStatusRequest' | 'SetInquiryThreadExternalIdRequest';

/** A body recipe: a label for reports and the bytes, built only when the request is sent. */
export interface BodyRecipe {
  label: string;
  build: () => Buffer;
  /** Larger than the server accepts: it answers 413 before reading it all. */
  oversize?: boolean;
}

const ROOTS: DocKind[] = [
  'ProjectDataRequest', 'ProjectByNumberRequest', 'ProjectByDataRequest', 'SetProjectOwnerRequest',
  'SetProjectStatusRequest', 'SetProjectStatusHistoryReportAs', 'SetAssigneeRequest', 'CreateMfaSessionTokenRequest',
  'SetAttachmentMetadata', 'SetInquiryNoteRequest', 'SetInquiryThreadStatusRequest', 'SetInquiryThreadExternalIdRequest',
];

/** Text for attribute values and element content: any Unicode, escaped, at most 40 characters. */
const text = fc.string({ maxLength: 40, unit: 'grapheme' }).map(escapeXml);

/**
 * A well-formed document of `kind`, in the right namespace and valid against its XSD. Hostile bodies are
 * made from it by a defect; the valid one itself is only ever sent with another defect (credentials, content type).
 */
export function validDocument(kind: DocKind): fc.Arbitrary<string> {
  const root = (inner: string, attrs = '') => `<${kind} xmlns="${NS}"${attrs}>${inner}</${kind}>`;
  switch (kind) {
    case 'ProjectDataRequest':
      return text.map((v) => root(`<Project><DataFields><DataField DataFieldId="CustomerName" Value="${v}"/></DataFields></Project>`));
    case 'ProjectByNumberRequest':
      return fc.array(fc.integer({ min: 1, max: 99999 }), { maxLength: 5 })
        .map((ns) => root(ns.map((n) => `<Project ProjectNumber="SOLAR-${String(n).padStart(5, '0')}"/>`).join('')));
    case 'ProjectByDataRequest':
      return text.map((v) => root(`<DataFields><Field Id="CustomerName" Content="${v}" Operator="contains"/></DataFields>`));
    case 'SetProjectOwnerRequest':
      return fc.constant(root('<OwnerEmail>reviewer@demo.apas.local</OwnerEmail>'));
    case 'SetProjectStatusRequest':
      return fc.constant(root('', ' StatusId="ApprovedForInstallation"'));
    case 'SetProjectStatusHistoryReportAs':
      return fc.constant(root('', ' StatusId="Unsubmitted" Timestamp="2026-01-01T00:00:00Z" ReportAs="suppress"'));
    case 'SetAssigneeRequest':
      return fc.constant(root('<AssigneeEmail>reviewer@demo.apas.local</AssigneeEmail>'));
    case 'CreateMfaSessionTokenRequest':
      return fc.integer({ min: 1, max: 720 }).map((m) => root('', ` ExpiresAfterMinutes="${m}"`));
    case 'SetAttachmentMetadata':
      return fc.tuple(fc.constantFrom('Approve', 'Reject', 'Unmark', 'Save'), text).map(([s, note]) => root('', ` AttachmentStatus="${s}" Note="${note}"`));
    case 'SetInquiryNoteRequest':
      return fc.tuple(text, text).map(([subject, body]) => root(`<Text>${body || 'x'}</Text>`, ` Subject="${subject.trim() || 's'}"`));
    case 'SetInquiryThreadStatusRequest':
      return fc.constantFrom('Open', 'AwaitingResponse', 'Resolved', 'Closed').map((st) => root('', ` Status="${st}"`));
    case 'SetInquiryThreadExternalIdRequest':
      return fc.stringMatching(/^[A-Z0-9-]{1,20}$/).map((x) => root('', ` ExternalId="${x}"`));
  }
}

const utf8 = (s: string) => Buffer.from(s, 'utf8');
const recipe = (label: string, build: () => Buffer, oversize = false): BodyRecipe => ({ label, build, ...(oversize ? { oversize } : {}) });

/** Puts `inner` right after the root element's start tag. */
function insideRoot(doc: string, inner: string): string {
  const end = doc.indexOf('>') + 1;
  const selfClosing = doc[end - 2] === '/';
  if (!selfClosing) return doc.slice(0, end) + inner + doc.slice(end);
  const name = /^<([\w:.-]+)/.exec(doc)![1]!;
  return `${doc.slice(0, end - 2)}>${inner}</${name}>`;
}

function renameRoot(doc: string, to: string): string {
  const from = /^<([\w:.-]+)/.exec(doc)![1]!;
  return doc.replace(`<${from}`, `<${to}`).replace(new RegExp(`</${from}>$`), `</${to}>`);
}

// Payloads from the classic XML attacks: entity expansion and external entities. apas refuses every DTD.
const DTDS = [
  ['billion laughs', `<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('')}]>`, '&lol9;'],
  ['external entity (file)', '<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>', '&xxe;'],
  ['external entity (http)', '<!DOCTYPE r [<!ENTITY xxe SYSTEM "http://127.0.0.1:9/evil">]>', '&xxe;'],
  ['parameter entity', '<!DOCTYPE r [<!ENTITY % p SYSTEM "http://127.0.0.1:9/evil.dtd"> %p;]>', ''],
  ['external DTD', '<!DOCTYPE r SYSTEM "file:///etc/passwd">', ''],
  ['public DTD', '<!DOCTYPE r PUBLIC "-//X//Y" "http://127.0.0.1:9/x.dtd">', ''],
  ['lower-case doctype', '<!doctype r [<!entity e "x">]>', '&e;'],
  ['quadratic blowup', `<!DOCTYPE r [<!ENTITY a "${'x'.repeat(50_000)}">]>`, '&a;'.repeat(200)],
] as const;

const INVALID_UTF8 = [
  ['lone continuation byte', [0x80]], ['truncated 2-byte sequence', [0xc3, 0x28]], ['overlong slash', [0xc0, 0xaf]],
  ['surrogate half', [0xed, 0xa0, 0x80]], ['0xFF', [0xff]], ['0xFE', [0xfe]], ['beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ['truncated 4-byte sequence', [0xf0, 0x9f, 0x92]], ['latin-1 e-acute', [0xe9]],
] as const;

const NESTING = [33, 100, 1000, 10_000] as const;

/**
 * A body that is not an acceptable `kind` document, whatever else the request gets right: malformed or
 * truncated XML, DTDs and entity tricks, deep nesting, oversized attributes and bodies, bytes that are not
 * UTF-8, a wrong or missing namespace, a wrong root, XSD violations. Each must be answered 400, 413 or 415.
 */
export function defectiveBody(kind: DocKind, bodyLimit: number): fc.Arbitrary<BodyRecipe> {
  const doc = validDocument(kind);
  return fc.oneof(
    doc.chain((d) => fc.integer({ min: 1, max: d.length - 1 }).map((cut) => recipe(`truncated by ${cut}`, () => utf8(d.slice(0, d.length - cut))))),
    fc.tuple(doc, fc.constantFrom(...DTDS)).map(([d, [label, dtd, ref]]) =>
      recipe(`DTD: ${label}`, () => utf8(`<?xml version="1.0"?>${dtd}${ref ? insideRoot(d, `<x>${ref}</x>`) : d}`))),
    fc.tuple(doc, fc.constantFrom('&xxe;', '&lol9;', '&#0;', '&#xD800;', '&#x110000;', '&#65', '& ', '&amp', '&#xZZ;')).map(([d, ref]) =>
      recipe(`bad reference ${ref}`, () => utf8(insideRoot(d, `<x a="${ref}">${ref}</x>`).replace(/(DataFieldId|ProjectNumber|StatusId|Id)="/, `$1="${ref}`)))),
    fc.tuple(doc, fc.constantFrom(...NESTING), fc.boolean()).map(([d, depth, closed]) =>
      recipe(`nested ${depth} deep${closed ? '' : ', unclosed'}`, () => utf8(insideRoot(d, '<a>'.repeat(depth) + (closed ? '</a>'.repeat(depth) : ''))))),
    doc.map((d) => recipe('5 MB attribute', () => utf8(insideRoot(d, `<x a="${'A'.repeat(5 * 1024 * 1024)}"/>`)), true)),
    // Under the size limit, so these reach the parser and the schema check: large, but not large enough to be refused early.
    doc.map((d) => recipe('900 KB attribute', () => utf8(insideRoot(d, `<x a="${'A'.repeat(900 * 1024)}"/>`)))),
    doc.map((d) => recipe('50,000 empty elements', () => utf8(insideRoot(d, '<x/>'.repeat(50_000))))),
    doc.map((d) => recipe('20,000 attributes', () => utf8(d.replace(`xmlns="${NS}"`, `xmlns="${NS}"${Array.from({ length: 20_000 }, (_, i) => ` a${i}="1"`).join('')}`)))),
    fc.integer({ min: 1, max: 4096 }).map((extra) => recipe(`body ${extra} bytes over the limit`, () => {
      const head = `<${kind} xmlns="${NS}">`;
      return utf8(head + ' '.repeat(bodyLimit + extra - head.length - kind.length - 3) + `</${kind}>`);
    }, true)),
    fc.tuple(doc, fc.constantFrom(...INVALID_UTF8), fc.nat()).map(([d, [label, bytes], at]) => recipe(`invalid UTF-8: ${label}`, () => {
      const b = utf8(d);
      const i = at % (b.length + 1);
      return Buffer.concat([b.subarray(0, i), Buffer.from(bytes), b.subarray(i)]);
    })),
    doc.map((d) => recipe('UTF-16 with a BOM', () => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(d, 'utf16le')]))),
    doc.map((d) => recipe('ISO-8859-1 declared, Latin-1 bytes', () =>
      Buffer.from(`<?xml version="1.0" encoding="ISO-8859-1"?>${insideRoot(d, '<x>caf\u00e9</x>')}`, 'latin1'))),
    fc.tuple(doc, fc.oneof(fc.webUrl(), fc.constantFrom('', 'urn:x', 'http://service.powerclerk.com/api/v2/', `${NS} `, NS.toUpperCase(), NS.slice(0, -1)))).map(([d, ns]) =>
      recipe(`namespace "${ns.slice(0, 40)}"`, () => utf8(d.replace(`xmlns="${NS}"`, `xmlns="${escapeXml(ns)}"`)))),
    doc.map((d) => recipe('no namespace', () => utf8(d.replace(` xmlns="${NS}"`, '')))),
    doc.map((d) => recipe('undeclared prefix', () => utf8(renameRoot(d, `p:${kind}`)))),
    doc.map((d) => recipe('root in a declared other prefix', () => utf8(renameRoot(d, `p:${kind}`).replace(`xmlns="${NS}"`, `xmlns="${NS}" xmlns:p="urn:other"`)))),
    fc.tuple(doc, fc.oneof(fc.constantFrom(...ROOTS.filter((r) => r !== kind)), fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,20}$/).filter((r) => r !== kind)))
      .map(([d, r]) => recipe(`root <${r}>`, () => utf8(renameRoot(d, r)))),
    fc.tuple(doc, fc.constantFrom(
      '<Bogus/>', '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="file:///etc/passwd"/>', 'stray text',
      '<![CDATA[<x/>]]>', `<${kind} xmlns="${NS}"/>`,
    )).map(([d, extra]) => recipe(`schema violation: ${extra.slice(0, 30)}`, () => utf8(insideRoot(d, extra)))),
    doc.map((d) => recipe('unknown attribute on the root', () => utf8(d.replace(`xmlns="${NS}"`, `xmlns="${NS}" Bogus="1"`)))),
    doc.map((d) => recipe('two roots', () => utf8(d + d))),
    doc.map((d) => recipe("'<' in an attribute", () => utf8(insideRoot(d, '<x a="<"/>')))),
    doc.map((d) => recipe('unterminated comment', () => utf8(insideRoot(d, '<!-- no end')))),
    doc.map((d) => recipe('unterminated CDATA', () => utf8(insideRoot(d, '<![CDATA[ no end')))),
    fc.string({ maxLength: 200, unit: 'binary' }).map((s) => recipe('garbage ending in <', () => utf8(`${s}<`))),
    fc.uint8Array({ minLength: 1, maxLength: 200 }).map((bytes) => recipe('random bytes after a NUL', () => Buffer.concat([Buffer.from([0]), Buffer.from(bytes)]))),
    fc.constantFrom('', ' ', '\n\t  \r\n').map((s) => recipe(`empty body ${JSON.stringify(s)}`, () => utf8(s))),
  );
}

/**
 * A document of `kind` that is well-formed and valid against its XSD, but that the service must refuse for
 * what it says: unknown fields, values that do not fit, too many numbers, unknown users and statuses.
 */
export function semanticallyBadBody(kind: DocKind, maxNumbers: number): fc.Arbitrary<BodyRecipe> {
  const root = (inner: string, attrs = '') => `<${kind} xmlns="${NS}"${attrs}>${inner}</${kind}>`;
  const nonce = fc.stringMatching(/^[A-Z0-9]{6}$/);
  const doc = (label: string, a: fc.Arbitrary<string>) => a.map((d) => recipe(label, () => utf8(d)));
  switch (kind) {
    case 'ProjectDataRequest': {
      const bad = fc.constantFrom(
        ['unknown field', 'NoSuchField', 'x'], ['integer field "abc"', 'ModuleCount', 'abc'], ['integer out of range', 'ModuleCount', '501'],
        ['number field "7,6"', 'SystemSizeKwDc', '7,6'], ['choice not in list', 'InverterMake', 'ACME'], ['boolean "maybe"', 'HasBattery', 'maybe'],
        ['date 2026-02-30', 'PlannedInstallDate', '2026-02-30'], ['text over maxLength', 'CustomerName', 'x'.repeat(201)],
        ['value over 10000 characters', 'InstallerLicense', 'y'.repeat(10_001)], ['field of another form', 'ReviewerNotes', 'x'],
      );
      // A valid field next to the bad one: the whole write must be refused, the valid value included.
      return fc.tuple(bad, text).map(([[label, field, value], good]) => recipe(`data: ${label}`, () => utf8(root(
        `<Project><DataFields><DataField DataFieldId="CustomerPhone" Value="${good}"/><DataField DataFieldId="${field}" Value="${escapeXml(value)}"/></DataFields></Project>`,
      ))));
    }
    case 'ProjectByNumberRequest':
      return fc.integer({ min: maxNumbers + 1, max: maxNumbers + 50 }).map((n) => recipe(`${n} numbers`, () =>
        utf8(root(Array.from({ length: n }, (_, i) => `<Project ProjectNumber="SOLAR-${i}"/>`).join('')))));
    case 'ProjectByDataRequest':
      return fc.oneof(
        doc('unknown field', nonce.map((x) => root(`<DataFields><Field Id="Nope${x}" Content="1"/></DataFields>`))),
        doc('ordering without Content', fc.constant(root('<DataFields><Field Id="CustomerName" Operator="lt"/></DataFields>'))),
        doc('number field, text content', fc.constant(root('<DataFields><Field Id="ModuleCount" Content="many" Operator="gt"/></DataFields>'))),
        doc('unknown status', nonce.map((x) => root(`<FilterByCurrentStatuses Operation="Include"><Status Id="Nope${x}"/></FilterByCurrentStatuses>`))),
        doc('bad status date', fc.constant(root('<FilterByStatusDate Id="Unsubmitted" DateTime="2026-02-30T00:00:00" Operator="gt"/>'))),
        doc('21 status dates', fc.constant(root('<FilterByStatusDate Id="Unsubmitted" DateTime="2026-01-01T00:00:00" Operator="gt"/>'.repeat(21)))),
      );
    case 'SetProjectOwnerRequest':
      return doc('unknown owner', nonce.map((x) => root(`<OwnerEmail>nobody-${x}@example.invalid</OwnerEmail>`)));
    case 'SetProjectStatusRequest':
      return doc('unknown status', nonce.map((x) => root('', ` StatusId="Nope${x}"`)));
    case 'SetProjectStatusHistoryReportAs':
      return fc.oneof(
        doc('unknown status', nonce.map((x) => root('', ` StatusId="Nope${x}" Timestamp="2026-01-01T00:00:00Z" ReportAs="normal"`))),
        doc('no entry at that time', fc.constant(root('', ' StatusId="Withdrawn" Timestamp="1999-01-01T00:00:00Z" ReportAs="normal"'))),
      );
    case 'SetAssigneeRequest':
      return doc('unknown assignee', nonce.map((x) => root(`<AssigneeEmail>nobody-${x}@example.invalid</AssigneeEmail>`)));
    case 'CreateMfaSessionTokenRequest':
      return doc('lifetime out of range', fc.integer({ min: 721, max: 1_000_000 }).map((m) => root('', ` ExpiresAfterMinutes="${m}"`)));
    // The draft project has no upload and no inquiry thread: these name things that do not exist.
    case 'SetAttachmentMetadata':
      return doc('review of a file never uploaded', fc.constant(root('', ' AttachmentStatus="Approve"')));
    case 'SetInquiryNoteRequest':
      return doc('note to an unknown thread', nonce.map((x) => root('<Text>hello</Text>', ` ThreadId="NOSUCH${x}"`)));
    case 'SetInquiryThreadStatusRequest':
      return doc('status of an unknown thread', fc.constant(root('', ' Status="Closed"')));
    case 'SetInquiryThreadExternalIdRequest':
      return doc('external id of an unknown thread', fc.constant(root('', ' ExternalId="X-1"')));
  }
}
