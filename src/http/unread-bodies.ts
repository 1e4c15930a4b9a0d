import type { FastifyInstance } from 'fastify';

/**
 * The most of a body the service reads (and discards) after it answered before reading it all: a
 * 413, or a 401 decided from the headers. Closing the connection instead, while the client is still
 * sending, makes the client's next write fail (EPIPE, reset) before it reads the answer.
 */
export const MAX_DISCARDED_BODY_BYTES = 8 * 1024 * 1024;

/**
 * An answer sent before its request's body was read whole keeps the connection open and lets the
 * rest of the body arrive, read and thrown away (never buffered, never parsed), so that the client
 * gets its answer; past MAX_DISCARDED_BODY_BYTES, or when the body says it is larger, the connection
 * is closed as Fastify would.
 */
export function discardUnreadBodies(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const raw = request.raw;
    if (raw.complete) return payload;
    if (Number(request.headers['content-length'] ?? 0) > MAX_DISCARDED_BODY_BYTES) {
      reply.header('connection', 'close');
      return payload;
    }
    reply.removeHeader('connection');
    let discarded = 0;
    raw.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > MAX_DISCARDED_BODY_BYTES) raw.socket.destroy();
    });
    raw.resume();
    return payload;
  });
}
