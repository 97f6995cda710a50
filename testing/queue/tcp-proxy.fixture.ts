import net from "node:net";

export interface TcpProxy {
  port: number;
  /** Cuts every connection and stops listening: the database "goes away" for whoever goes through the proxy. */
  stop(): Promise<void>;
  /** Listens again on the same port: the database is back. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * TEST DOUBLE: a TCP proxy on 127.0.0.1 in front of a server (Postgres), to
 * take the server away from a worker mid-run and bring it back, without
 * touching the server itself.
 */
export async function tcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("error", () => socket.destroy());
    socket.on("close", () => sockets.delete(socket));
  };
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        track(client);
        track(upstream);
        client.pipe(upstream).pipe(client);
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  const stop = async () => {
    const closing = server ? new Promise<void>((resolve) => server!.close(() => resolve())) : Promise.resolve();
    for (const socket of sockets) socket.destroy();
    server = null;
    await closing;
  };
  await listen();
  return { get port() { return port; }, stop, start: listen, close: stop };
}
