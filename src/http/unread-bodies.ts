import type { FastifyInstance } from 'fastify';

/**
 * The most of a body the service reads (and discards) after it answered before reading it all: a
 * 413, or a 401 decided from the headers. Closing the connection instead, while the client is still
 * sending, makes the client's next write fail (EPIPE, reset) before it reads the answer.
 */
const MAX_DISCARDED_BODY_BYTES = 8 * 1024 * 1024;

/** How long the rest of such a body may take to arrive before the connection is closed anyway. */
const DISCARD_BODY_WITHIN_MS = 10_000;

/**
 * An answer sent before its request's body was read whole keeps the connection open (even when the
 * client asked to close it: it closes once it has read the answer) and lets the rest of the body
 * arrive, read and thrown away (never buffered, never parsed), so that the client gets its answer;
 * past MAX_DISCARDED_BODY_BYTES or DISCARD_BODY_WITHIN_MS, or when the body says it is larger, the
 * connection is closed as Fastify would.
 */
export function discardUnreadBodies(app: FastifyInstance): void {
  // A callback hook: almost every request was read whole, and an async hook costs each a promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    const raw = request.raw;
    if (raw.complete) return done(null, payload);
    if (Number(request.headers['content-length'] ?? 0) > MAX_DISCARDED_BODY_BYTES) {
      reply.header('connection', 'close');
      return done(null, payload);
    }
    reply.removeHeader('connection');
    // Node ends a connection whose request said `Connection: close` as soon as the answer is written: a reset while the client still sends.
    reply.raw.shouldKeepAlive = true;
    let discarded = 0;
    const giveUp = setTimeout(() => raw.socket?.destroy(), DISCARD_BODY_WITHIN_MS);
    giveUp.unref();
    raw.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > MAX_DISCARDED_BODY_BYTES) raw.socket?.destroy();
    });
    raw.once('end', () => clearTimeout(giveUp));
    raw.once('close', () => clearTimeout(giveUp));
    raw.resume();
    done(null, payload);
  });
}
