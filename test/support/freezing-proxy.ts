import net from 'node:net';

/** A TCP proxy on 127.0.0.1 that can freeze: it keeps every connection open but passes no byte on, like a stopped server. */
export interface FreezingProxy {
  /** The proxy's port on 127.0.0.1. */
  readonly port: number;
  /** From now on, bytes in either direction are held back, and new connections are accepted but get no answer. */
  freeze(): void;
  /** Passes on what was held back, and everything after. */
  thaw(): void;
  /** Ends every connection and stops listening. */
  close(): Promise<void>;
}

/**
 * Starts a proxy to `target` (host:port). Frozen, it behaves towards its clients as a SIGSTOPped database does: the
 * connections stay open and nothing comes back, without stopping a server other tests share.
 */
export async function startFreezingProxy(targetHost: string, targetPort: number): Promise<FreezingProxy> {
  let frozen = false;
  const held: (() => void)[] = [];
  const sockets = new Set<net.Socket>();
  const pipe = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk) => {
      if (frozen) held.push(() => to.write(chunk));
      else to.write(chunk);
    });
    from.on('close', () => to.destroy());
    from.on('error', () => to.destroy());
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, targetHost);
    sockets.add(client);
    sockets.add(upstream);
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
    pipe(client, upstream);
    pipe(upstream, client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      for (const send of held.splice(0)) send();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
