import type { FastifyInstance } from 'fastify';

/** A fetch that sends each request through `app.inject`, so a client under test talks to the app in process. */
export function injectFetch(app: FastifyInstance): (input: Request) => Promise<Response> {
  return async (input: Request) => {
    const url = new URL(input.url);
    const body = input.body ? Buffer.from(await input.arrayBuffer()) : undefined;
    const res = await app.inject({
      method: input.method as 'GET', url: `${url.pathname}${url.search}`, headers: Object.fromEntries(input.headers.entries()),
      ...(body ? { payload: body } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    }
    return new Response(res.statusCode === 304 ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers });
  };
}
