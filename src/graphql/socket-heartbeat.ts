import { setImmediate as nextTurn } from 'node:timers/promises';
import type { WebSocket, WebSocketServer } from 'ws';

/** Sockets pinged between two turns of the event loop: a sweep of 10,000 never holds it for long. */
const SWEEP_SLICE = 256;

/**
 * Pings every socket of `sockets` each `intervalMs` and terminates one that did not answer the
 * ping before: a peer gone without closing (a dropped network) is let go within two intervals.
 * One timer for all sockets, as ws's own README does it, instead of graphql-ws's timer and closure
 * per socket, which every subscriber would pay for in memory (docs/performance.md).
 */
export function startHeartbeat(sockets: WebSocketServer, intervalMs: number): { stop(): void } {
  const answered = new WeakSet<WebSocket>();
  function markAnswered(this: WebSocket) {
    answered.add(this);
  }
  sockets.on('connection', (socket: WebSocket) => {
    answered.add(socket);
    socket.on('pong', markAnswered);
  });
  let sweeping = false;
  const sweep = async () => {
    if (sweeping) return;
    sweeping = true;
    try {
      let inSlice = 0;
      for (const socket of [...sockets.clients]) {
        if (!answered.delete(socket)) socket.terminate();
        else if (socket.readyState === socket.OPEN) socket.ping();
        if (++inSlice === SWEEP_SLICE) {
          inSlice = 0;
          await nextTurn();
        }
      }
    } finally {
      sweeping = false;
    }
  };
  const timer = setInterval(() => void sweep(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
