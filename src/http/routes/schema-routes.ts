import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/api-error.ts';
import type { ApiCodec } from '../api-codec.ts';

/**
 * Serves the XSD and the JSON Schema of every request and response type at /schemas/{Name}.xsd and
 * /schemas/{Name}.schema.json, and the list at /schemas/.
 */
export function schemaRoutes(app: FastifyInstance, codec: ApiCodec, programSchema: string): void {
  app.get('/schemas/', async (_request, reply) => {
    const names = [
      ...codec.schemaNames().map((n) => `${n}.xsd`), ...codec.jsonSchemaNames().map((n) => `${n}.schema.json`), 'program.schema.json',
    ];
    return reply.type('text/plain; charset=utf-8').send(`${names.join('\n')}\n`);
  });
  app.get('/schemas/program.schema.json', async (_request, reply) => reply.type('application/schema+json').send(programSchema));
  app.get('/schemas/:file', async (request, reply) => {
    const file = (request.params as { file: string }).file;
    const jsonName = file.endsWith('.schema.json') ? file.slice(0, -'.schema.json'.length) : null;
    if (jsonName !== null && codec.jsonSchemaNames().includes(jsonName)) {
      return reply.type('application/schema+json').send(codec.jsonSchemaSource(jsonName));
    }
    const name = file.replace(/\.xsd$/, '');
    if (!file.endsWith('.xsd') || !codec.schemaNames().includes(name)) throw new ApiError('NOT_FOUND', `There is no schema ${file}.`);
    return reply.type('application/xml; charset=utf-8').send(codec.schemaSource(name));
  });
}
