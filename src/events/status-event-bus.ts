import createSubscriber, { type Subscriber } from 'pg-listen';
import type { Logger } from 'pino';
import { STATUS_EVENTS_CHANNEL, type StatusEventMessage } from './status-event-log';

type Listener = (event: StatusEventMessage) => void;

/** How the listening connection names itself in pg_stat_activity. */
export const STATUS_EVENT_LISTENER = 'photobook-status-events';

/**
 * LISTENs on the status-event channel with one connection per process (pg-listen: it parses the
 * payloads, checks the connection every 30 s, reconnects and listens again) and fans each
 * committed event out to in-process subscribers (GraphQL subscriptions). Events committed while
 * it reconnects are not heard here; they stay in the status-event table.
 */
export class StatusEventBus {
  private readonly listeners = new Set<Listener>();
  private readonly reconnectListeners = new Set<() => void>();
  private readonly subscriber: Subscriber<{ [STATUS_EVENTS_CHANNEL]: StatusEventMessage }>;
  private stopped?: Promise<void>;

  constructor(databaseUrl: string, log: Logger) {
    this.subscriber = createSubscriber(
      { connectionString: databaseUrl, application_name: STATUS_EVENT_LISTENER },
      // Retry for as long as the database is away; pg-listen's default gives up after 3 s.
      { retryTimeout: Infinity },
    );
    this.subscriber.notifications.on(STATUS_EVENTS_CHANNEL, (event) => {
      for (const listener of this.listeners) listener(event);
    });
    this.subscriber.events.on('error', (error) => log.error({ err: error }, 'status event listener failed'));
    // Emitted once LISTEN is in place again: what committed meanwhile was not heard, and subscribers
    // that must miss nothing read it from the table.
    this.subscriber.events.on('connected', () => {
      for (const listener of this.reconnectListeners) listener();
    });
    this.subscriber.events.on('reconnect', (attempt) => {
      if (attempt === 1) log.warn('status event listener lost its connection; reconnecting');
    });
  }

  async start(): Promise<void> {
    await this.subscriber.connect();
    await this.subscriber.listenTo(STATUS_EVENTS_CHANNEL);
  }

  stop(): Promise<void> {
    this.stopped ??= this.subscriber.close().catch(() => undefined);
    return this.stopped;
  }

  /** Calls `listener` for every event until the returned function is called. */
  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` each time the listening connection is back after a loss, until the returned function is called. */
  onReconnected(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
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
}
