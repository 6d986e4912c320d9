import type { FastifyInstance } from 'fastify';

/** Serves the OpenAPI 3.1 description of the JSON representation at /openapi.json (no credentials needed). */
export function openApiRoutes(app: FastifyInstance, describe: () => object): void {
  let text: string | undefined;
  app.get('/openapi.json', async (_request, reply) => {
    // Made on first use: every route is registered by then, and the description does not change while running.
    text ??= `${JSON.stringify(describe(), null, 2)}\n`;
    return reply.type('application/json; charset=utf-8').send(text);
  });
}
