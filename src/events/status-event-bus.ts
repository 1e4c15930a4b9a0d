import pg from 'pg';
import type { Logger } from 'pino';
import { STATUS_EVENTS_CHANNEL, type StatusEventMessage } from './status-event-log';

type Listener = (event: StatusEventMessage) => void;

/**
 * LISTENs on the status-event channel with one dedicated connection per process and fans each
 * committed event out to in-process subscribers (GraphQL subscriptions). Reconnects on failure.
 */
export class StatusEventBus {
  private readonly listeners = new Set<Listener>();
  private connection?: pg.Client;
  private stopped = false;
  private reconnectTimer?: NodeJS.Timeout;

  constructor(
    private readonly databaseUrl: string,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    const connection = this.connection;
    this.connection = undefined;
    await connection?.end().catch(() => undefined);
  }

  /** Calls `listener` for every event until the returned function is called. */
  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Events matching `accept`, as an async iterable that ends when the consumer stops. */
  subscribe(accept: (event: StatusEventMessage) => boolean): AsyncIterableIterator<StatusEventMessage> {
    const queue: StatusEventMessage[] = [];
    let wake: (() => void) | undefined;
    let done = false;
    const off = this.on((event) => {
      if (!accept(event)) return;
      queue.push(event);
      wake?.();
    });
    const finish = () => {
      done = true;
      off();
      wake?.();
    };
    const iterator: AsyncIterableIterator<StatusEventMessage> = {
      async next() {
        while (queue.length === 0 && !done) await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        if (queue.length > 0) return { value: queue.shift()!, done: false };
        return { value: undefined, done: true };
      },
      async return() {
        finish();
        return { value: undefined, done: true };
      },
      async throw(error) {
        finish();
        throw error;
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }

  private async connect(): Promise<void> {
    const connection = new pg.Client({ connectionString: this.databaseUrl });
    connection.on('notification', (notification) => {
      if (notification.channel !== STATUS_EVENTS_CHANNEL || !notification.payload) return;
      let event: StatusEventMessage;
      try {
        event = JSON.parse(notification.payload) as StatusEventMessage;
      } catch (error) {
        this.log.error({ err: error }, 'unreadable status event notification');
        return;
      }
      for (const listener of this.listeners) listener(event);
    });
    connection.on('error', (error) => {
      this.log.warn({ err: error }, 'status event listener lost its connection; reconnecting');
      this.scheduleReconnect();
    });
    await connection.connect();
    await connection.query(`LISTEN ${STATUS_EVENTS_CHANNEL}`);
    this.connection = connection;
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.connection?.end().catch(() => undefined);
    this.connection = undefined;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      this.connect().catch((error) => {
        this.log.warn({ err: error }, 'status event listener could not reconnect; retrying');
        this.scheduleReconnect();
      });
    }, 1000);
  }
}
