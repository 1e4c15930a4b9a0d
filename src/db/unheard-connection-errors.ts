import pg from 'pg';
import type { Logger } from 'pino';

const whereConnected = new WeakMap<pg.Client, string>();
let installed = false;

/**
 * node-postgres emits `'error'` on a client whose connection dies between queries (57P01 when the
 * server shuts down), and an emitter without an `'error'` listener throws it, killing the process.
 * Every library here listens on its own clients, yet about one PostgreSQL restart in ten under load
 * (test/faults/database-restart.test.ts) once killed the service this way on a client nobody
 * listened on, and it could not be traced in dozens of instrumented runs. Such an error is logged
 * instead, with where that client was connected so it can be found. Nothing is lost by not
 * crashing: pg marks the client unqueryable before it emits, so its owner's next query fails and
 * the pool replaces it.
 */
export function logUnheardConnectionErrors(log: Logger): void {
  if (installed) return;
  installed = true;
  const { connect, emit } = pg.Client.prototype;
  pg.Client.prototype.connect = function (this: pg.Client, ...args: unknown[]) {
    if (!whereConnected.has(this))
      whereConnected.set(this, new Error('connected').stack?.split('\n').slice(2, 9).join('\n') ?? '');
    return (connect as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof connect;
  pg.Client.prototype.emit = function (this: pg.Client, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'error' && this.listenerCount('error') === 0) {
      log.error(
        { err: args[0], connectedAt: whereConnected.get(this) },
        'a database connection died with no one listening; its owner will see it on its next query',
      );
      return false;
    }
    return emit.call(this, event, ...args);
  };
}
