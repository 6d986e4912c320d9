// Compares two XSDs by what they accept, not how they are written: named types inlined, annotations dropped,
// default facets (use="optional", minOccurs/maxOccurs="1") removed, attribute declarations in any order.
// Usage: npx tsx scripts/compare-xsd.ts OLD.xsd NEW.xsd   (or --generated NAME to compare src/xml/schemas/NAME.xsd
// as it is in git HEAD~N with the XSD the wire description generates: --rev REV --generated NAME)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';

type Node = Record<string, unknown>;
interface Canon { tag: string; attrs: Record<string, string>; children: Canon[] }

const parser = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', commentPropName: '#comment' });

function tagOf(node: Node): string {
  return Object.keys(node).find((k) => k !== ':@')!;
}

function canonical(text: string): string {
  const doc = parser.parse(text) as Node[];
  const schema = doc.find((n) => tagOf(n) === 'xs:schema')!;
  const top = (schema['xs:schema'] as Node[]).filter((n) => !tagOf(n).startsWith('#'));
  const named = new Map<string, Node>();
  for (const n of top) {
    const tag = tagOf(n);
    if (tag === 'xs:complexType' || tag === 'xs:simpleType') named.set(((n[':@'] ?? {}) as Record<string, string>).name!, n);
  }
  const convert = (n: Node): Canon | null => {
    const tag = tagOf(n);
    if (tag.startsWith('#') || tag === 'xs:annotation') return null;
    const attrs = { ...((n[':@'] ?? {}) as Record<string, string>) };
    const children = ((n[tag] ?? []) as Node[]).map(convert).filter((c): c is Canon => c !== null);
    if (tag === 'xs:complexType' || tag === 'xs:simpleType') delete attrs.name;
    if (attrs.use === 'optional') delete attrs.use;
    if (attrs.minOccurs === '1') delete attrs.minOccurs;
    if (attrs.maxOccurs === '1') delete attrs.maxOccurs;
    if (attrs.type?.startsWith('tns:')) {
      const def = named.get(attrs.type.slice(4));
      if (!def) throw new Error(`unknown type ${attrs.type}`);
      delete attrs.type;
      children.push(convert(def)!);
    }
    const attributes = children.filter((c) => c.tag === 'xs:attribute').sort((a, b) => a.attrs.name!.localeCompare(b.attrs.name!));
    const rest = children.filter((c) => c.tag !== 'xs:attribute');
    const sortedAttrs = Object.fromEntries(Object.entries(attrs).sort(([a], [b]) => a.localeCompare(b)));
    return { tag, attrs: sortedAttrs, children: [...rest, ...attributes] };
  };
  const roots = top.filter((n) => tagOf(n) === 'xs:element').map(convert);
  return JSON.stringify(roots, null, 1);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  let oldText: string;
  let newText: string;
  let label: string;
  if (args[0] === '--rev') {
    const [, rev, , name] = args;
    oldText = execFileSync('git', ['show', `${rev}:src/xml/schemas/${name}.xsd`], { encoding: 'utf8' });
    const { documentXsd } = await import('../src/wire/wire-xsd.ts');
    const { WIRE_DOCUMENTS } = await import('../src/wire/documents.ts');
    const doc = WIRE_DOCUMENTS.find((d) => d.name === name);
    if (!doc) throw new Error(`no wire description for ${name}`);
    newText = documentXsd(doc);
    label = name!;
  } else {
    oldText = readFileSync(args[0]!, 'utf8');
    newText = readFileSync(args[1]!, 'utf8');
    label = `${args[0]} vs ${args[1]}`;
  }
  const a = canonical(oldText);
  const b = canonical(newText);
  if (a === b) {
    console.log(`${label}: same`);
    return;
  }
  const al = a.split('\n');
  const bl = b.split('\n');
  const i = al.findIndex((line, k) => line !== bl[k]);
  console.log(`${label}: DIFFERENT at canonical line ${i}`);
  console.log('old:', al.slice(Math.max(0, i - 8), i + 8).join('\n'));
  console.log('new:', bl.slice(Math.max(0, i - 8), i + 8).join('\n'));
  process.exitCode = 1;
}

await main();
