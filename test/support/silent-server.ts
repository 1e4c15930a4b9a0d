import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface SilentServer {
  url(path: string): string;
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * A hostile photo host on 127.0.0.1: it accepts every connection and never answers a byte, so a
 * download from it lasts as long as the downloader lets it.
 */
export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    connections: () => accepted,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
