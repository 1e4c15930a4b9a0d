import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { startHeartbeat } from '../../src/graphql/socket-heartbeat';
import { waitFor } from '../support/wait';

describe('socket heartbeat', () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function server(intervalMs: number) {
    const httpServer = http.createServer();
    const sockets = new WebSocketServer({ server: httpServer });
    const heartbeat = startHeartbeat(sockets, intervalMs);
    httpServer.listen(0, '127.0.0.1');
    await once(httpServer, 'listening');
    cleanups.push(() => new Promise((resolve) => httpServer.close(resolve)));
    cleanups.push(() => {
      heartbeat.stop();
      for (const client of sockets.clients) client.terminate();
    });
    return { sockets, port: (httpServer.address() as net.AddressInfo).port };
  }

  /** A peer that completes the WebSocket handshake and then answers nothing, as a vanished network does. */
  async function silentPeer(port: number): Promise<net.Socket> {
    const socket = net.connect(port, '127.0.0.1');
    cleanups.push(() => socket.destroy());
    await once(socket, 'connect');
    socket.write(
      `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${Buffer.alloc(16, 1).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    const [answer] = (await once(socket, 'data')) as [Buffer];
    expect(answer.toString()).toMatch(/^HTTP\/1.1 101/);
    return socket;
  }

  it('lets a peer go that stops answering pings, and keeps one that answers', async () => {
    const { sockets, port } = await server(100);
    const answering = new WebSocket(`ws://127.0.0.1:${port}`);
    cleanups.push(() => answering.terminate());
    await once(answering, 'open');
    const silent = await silentPeer(port);
    const silentClosed = once(silent, 'close');
    await waitFor(async () => sockets.clients.size === 2, 2_000, 'both sockets');

    await silentClosed;
    await waitFor(async () => sockets.clients.size === 1, 2_000, 'the silent socket to be let go');
    // Several intervals later the answering peer is still there.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answering.readyState).toBe(WebSocket.OPEN);
    expect(sockets.clients.size).toBe(1);
  });
});
