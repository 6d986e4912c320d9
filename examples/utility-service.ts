import http from 'node:http';

/**
 * A sample utility billing system for trying apas's connections (docs/programs.md, "Connections"): plain node:http,
 * answering account lookups from a small fixed table. POST /accounts/lookup with {"account": "…"} (or GET
 * /accounts/lookup?account=…) answers {"name", "serviceAddress", "active"}, or 404 for an unknown account. It asks for
 * the header X-Api-Key when UTILITY_API_KEY is set, and answers a repeated Idempotency-Key with the answer it gave.
 *
 *   npm run example:utility                      # listens on 127.0.0.1:8787 (PORT, HOST to change)
 */

/** The accounts the sample system knows. */
export const ACCOUNTS: Readonly<Record<string, { name: string; serviceAddress: string; active: boolean }>> = {
  'ACCT-1001': { name: 'Pat Homeowner', serviceAddress: '1 Sunny Lane, Springfield', active: true },
  'ACCT-1002': { name: 'Robin Rivera', serviceAddress: '22 Elm Street, Springfield', active: true },
  'ACCT-1003': { name: 'Sam Closed', serviceAddress: '9 Old Road, Shelbyville', active: false },
};

/** A sample utility service on `port` (0: any free one); resolves with the server once it listens. */
export function startUtilityService(port: number, host = '127.0.0.1', apiKey: string | null = null): Promise<http.Server> {
  const answered = new Map<string, string>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
      if (body.length > 10_000) req.destroy();
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://utility');
      const send = (status: number, data: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(data));
      if (url.pathname !== '/accounts/lookup') return send(404, { error: 'no such endpoint' });
      if (apiKey !== null && req.headers['x-api-key'] !== apiKey) return send(401, { error: 'missing or wrong X-Api-Key' });
      const key = req.headers['idempotency-key'];
      if (typeof key === 'string' && answered.has(key)) return res.writeHead(200, { 'content-type': 'application/json' }).end(answered.get(key));
      let account = url.searchParams.get('account');
      if (req.method === 'POST') {
        try {
          account = String((JSON.parse(body) as { account?: unknown }).account ?? '');
        } catch {
          return send(400, { error: 'the body is not JSON' });
        }
      }
      const found = ACCOUNTS[(account ?? '').trim().toUpperCase()];
      if (!found) return send(404, { error: `no account ${account}` });
      const text = JSON.stringify(found);
      if (typeof key === 'string') answered.set(key, text);
      res.writeHead(200, { 'content-type': 'application/json' }).end(text);
    });
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.env.PORT ?? 8787);
  const host = process.env.HOST ?? '127.0.0.1';
  const server = await startUtilityService(port, host, process.env.UTILITY_API_KEY ?? null);
  const address = server.address();
  process.stdout.write(`sample utility service on http://${host}:${typeof address === 'object' && address ? address.port : port}/accounts/lookup\n`);
}
