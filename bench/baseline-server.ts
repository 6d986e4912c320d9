/**
 * The baseline of every benchmark: a bare Fastify route in its own process that answers each request with a
 * pre-rendered copy of the bytes apas answered, with no authentication, database or XML work.
 *   node --import tsx bench/baseline-server.ts ROUTES.json PORT
 */
import Fastify from 'fastify';
import { cannedKey, readCanned } from './canned-answers.ts';

const [file, port] = process.argv.slice(2);
if (!file || !port) throw new Error('usage: baseline-server.ts ROUTES.json PORT');
const byKey = readCanned(file);
const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024 });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
app.all('/*', async (request, reply) => {
  const c = byKey.get(cannedKey(request.method, request.url, request.body as Buffer | undefined));
  if (!c) return reply.code(404).send('not canned');
  return reply.code(c.status).type(c.contentType).send(c.body);
});
await app.listen({ host: '127.0.0.1', port: Number(port) });
process.stdout.write('baseline ready\n');
