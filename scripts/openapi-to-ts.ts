/**
 * Turns the OpenAPI 3.1 description of apas (/openapi.json) into the TypeScript types openapi-fetch reads: `paths`,
 * `operations` and `components`, in the shape openapi-typescript gives them. openapi-typescript itself needs the
 * TypeScript 5 compiler API, which TypeScript 7 (this project's compiler) no longer has; the schemas apas makes use
 * only objects, arrays, enumerations and scalars, so the conversion is short.
 */

type Schema = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function key(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

function indent(text: string, pad: string): string {
  return text.split('\n').join(`\n${pad}`);
}

function doc(schema: Schema, pad: string): string {
  const description = schema.description;
  return typeof description === 'string' ? `${pad}/** ${description.replace(/\*\//g, '* /').replace(/\s+/g, ' ')} */\n` : '';
}

/** The TypeScript type of a JSON Schema. */
export function schemaType(schema: Schema): string {
  if (typeof schema.$ref === 'string') return `components["schemas"][${JSON.stringify(schema.$ref.split('/').pop())}]`;
  if (Array.isArray(schema.oneOf)) return (schema.oneOf as Schema[]).map(schemaType).join(' | ');
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Schema[]).map(schemaType).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  switch (schema.type) {
    case 'string': return 'string';
    case 'integer': case 'number': return 'number';
    case 'boolean': return 'boolean';
    case 'array': return `(${schemaType(schema.items as Schema)})[]`;
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required ?? []) as string[]);
      const lines = Object.entries(properties).map(([name, p]) =>
        `${doc(p, '  ')}  ${key(name)}${required.has(name) ? '' : '?'}: ${indent(schemaType(p), '  ')};`);
      return lines.length === 0 ? 'Record<string, never>' : `{\n${lines.join('\n')}\n}`;
    }
    default: return 'unknown';
  }
}

function group(params: Schema[], where: string): string {
  const list = params.filter((p) => p.in === where);
  if (list.length === 0) return `${where}?: never;`;
  const optional = list.every((p) => p.required !== true) ? '?' : '';
  const lines = list.map((p) => `${doc(p, '  ')}  ${key(String(p.name))}${p.required === true ? '' : '?'}: ${schemaType(p.schema as Schema)};`);
  return `${where}${optional}: {\n${lines.join('\n')}\n};`;
}

function content(c: Schema | undefined): string {
  if (!c) return 'content?: never;';
  const lines = Object.entries(c).map(([media, m]) => `  ${JSON.stringify(media)}: ${indent(schemaType((m as Schema).schema as Schema), '  ')};`);
  return `content: {\n${lines.join('\n')}\n};`;
}

function operationType(op: Schema): string {
  const params = (op.parameters ?? []) as Schema[];
  const body = op.requestBody as Schema | undefined;
  const responses = Object.entries(op.responses as Record<string, Schema>).map(([status, r]) =>
    `    ${/^\d+$/.test(status) ? status : key(status)}: {\n      headers: { [name: string]: unknown };\n      ${indent(content(r.content as Schema | undefined), '      ')}\n    };`);
  return [
    '{',
    '  parameters: {',
    ...['query', 'header', 'path', 'cookie'].map((w) => `    ${indent(group(params, w), '    ')}`),
    '  };',
    body ? `  requestBody: {\n    ${indent(content(body.content as Schema), '    ')}\n  };` : '  requestBody?: never;',
    '  responses: {',
    ...responses,
    '  };',
    '}',
  ].join('\n');
}

/** The TypeScript module of types for openapi-fetch, made from the OpenAPI description `spec`. */
export function openApiToTypeScript(spec: Schema): string {
  const paths = spec.paths as Record<string, Record<string, Schema>>;
  const schemas = (spec.components as { schemas: Record<string, Schema> }).schemas;
  const out: string[] = [
    '// Generated from /openapi.json by scripts/client-types.ts (npm run client:types); do not edit by hand.',
    '// A test fails when it no longer matches what the service describes.',
    '',
    '/** Every path of the interface and the operations it answers to. */',
    'export interface paths {',
  ];
  const operations: string[] = [];
  for (const [path, item] of Object.entries(paths)) {
    out.push(`  ${JSON.stringify(path)}: {`, '    parameters: { query?: never; header?: never; path?: never; cookie?: never };');
    for (const method of METHODS) {
      const op = item[method];
      if (!op) {
        out.push(`    ${method}?: never;`);
        continue;
      }
      out.push(`    ${method}: operations[${JSON.stringify(op.operationId)}];`);
      operations.push(`${doc(op, '  ').replace(/\n$/, '')}\n  ${key(String(op.operationId))}: ${indent(operationType(op), '  ')};`.replace(/^\n/, ''));
    }
    out.push('  };');
  }
  out.push('}', '', '/** The request and answer documents, by name. */', 'export interface components {', '  schemas: {');
  for (const [name, schema] of Object.entries(schemas)) out.push(`${doc(schema, '    ')}    ${key(name)}: ${indent(schemaType(schema), '    ')};`);
  out.push('  };', '}', '', '/** Every operation, by operationId. */', 'export interface operations {', ...operations, '}', '');
  return out.join('\n');
}
