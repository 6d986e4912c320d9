import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { fillExamples, generateExamples, INTERFACE_DOC } from '../../scripts/interface-examples.ts';
import { DEFAULT_XML_NAMESPACE } from '../../src/config.ts';
import { ERROR_STATUS } from '../../src/domain/api-error.ts';
import { createSchemaRegistry } from '../../src/xml/schema-registry.ts';

const doc = fs.readFileSync(INTERFACE_DOC, 'utf8');

test('the examples in docs/interface.md are what the service answers today', async () => {
  const filled = fillExamples(doc, await generateExamples());
  assert.equal(filled, doc, 'docs/interface.md is out of date: run npx tsx scripts/interface-examples.ts --write');
});

test('every XML document in the examples passes its XSD', () => {
  const schemas = createSchemaRegistry(DEFAULT_XML_NAMESPACE);
  try {
    // Every XML body of the examples: responses start with the declaration, requests follow a blank line.
    const documents = [...doc.matchAll(/^\n(<(?:\?xml|[A-Z])[\s\S]*?)\n```/gm)].map((m) => m[1]!);
    assert.ok(documents.length >= 20, `expected the examples to hold many documents, found ${documents.length}`);
    // The wrong-namespace example is wrong on purpose; every other document must pass.
    for (const xml of documents.filter((d) => !d.includes('urn:example:other'))) {
      const root = /<([A-Za-z]+)[\s>]/.exec(xml.replace(/^<\?xml[^>]*\?>/, ''))![1]!;
      const v2 = xml.includes('SchemaVersion="2.0"');
      const schema = root === 'ProjectsResponse' && v2 ? 'ProjectsResponseExtended' : v2 && schemas.list().includes(`${root}V2`) ? `${root}V2` : root;
      assert.deepEqual(schemas.validate(schema, xml), [], `${schema} example fails its XSD:\n${xml}`);
    }
  } finally {
    schemas.dispose();
  }
});

test('the error table lists every error code with its status', () => {
  for (const [code, status] of Object.entries(ERROR_STATUS)) {
    assert.match(doc, new RegExp(`\\| \`${code}\` \\| ${status} \\|`), `docs/interface.md lacks the row of ${code}`);
  }
});
