import createSubscriber, { type Subscriber } from 'pg-listen';
import type { Logger } from 'pino';
import { STATUS_EVENTS_CHANNEL, type StatusEventMessage } from './status-event-log';
import { EventFeed } from './event-feed';

/**
 * Hears one audience's events; with `reconnected`, also that the listening connection is back after
 * a loss (what committed meanwhile was not heard: a listener that must miss nothing reads it). An
 * object rather than callbacks: each of 10,000 subscriptions is one listener, not a few closures.
 */
export interface StatusEventListener {
  statusEvent(event: StatusEventMessage): void;
  reconnected?(): void;
}

/**
 * Whose events a listener hears: one client's environment, or one subject of it. Events are
 * routed by it, so a listener never sees another tenant's events, and an event costs nothing to
 * the listeners of other tenants and subjects.
 */
export interface EventAudience {
  clientId: string;
  env: string;
  subject?: { subjectType: string; subjectId: string };
}

/** How the listening connection names itself in pg_stat_activity. */
export const STATUS_EVENT_LISTENER = 'photobook-status-events';

/**
 * LISTENs on the status-event channel with one connection per process (pg-listen: it parses the
 * payloads, checks the connection every 30 s, reconnects and listens again) and fans each
 * committed event out to in-process subscribers (GraphQL subscriptions). Events committed while
 * it reconnects are not heard here; they stay in the status-event table.
 */
export class StatusEventBus {
  /** By audience key: 10,000 subscriptions to other subjects are not 10,000 calls per event. */
  private readonly listeners = new Map<string, Set<StatusEventListener>>();
  /** Listeners that hear each event of their subject before any other listener does (see `guard`). */
  private readonly guards = new Map<string, Set<StatusEventListener>>();
  private readonly reconnectListeners = new Set<StatusEventListener>();
  private readonly subscriber: Subscriber<{ [STATUS_EVENTS_CHANNEL]: StatusEventMessage }>;
  private stopped?: Promise<void>;

  constructor(
    databaseUrl: string,
    private readonly log: Logger,
  ) {
    this.subscriber = createSubscriber(
      { connectionString: databaseUrl, application_name: STATUS_EVENT_LISTENER },
      // Retry for as long as the database is away; pg-listen's default gives up after 3 s.
      { retryTimeout: Infinity },
    );
    this.subscriber.notifications.on(STATUS_EVENTS_CHANNEL, (event) => {
      const subjectKey = audienceKey(event, event);
      this.deliver(this.guards, subjectKey, event);
      this.deliver(this.listeners, audienceKey(event), event);
      this.deliver(this.listeners, subjectKey, event);
    });
    this.subscriber.events.on('error', (error) => log.error({ err: error }, 'status event listener failed'));
    // Emitted once LISTEN is in place again: what committed meanwhile was not heard, and subscribers
    // that must miss nothing read it from the table.
    this.subscriber.events.on('connected', () => {
      for (const listener of this.reconnectListeners) listener.reconnected!();
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

  /** Hands `listener` every event of `audience` (and word of reconnections, if it asks) until `off`. */
  on(audience: EventAudience, listener: StatusEventListener): void {
    this.add(this.listeners, audience, listener);
  }

  off(audience: EventAudience, listener: StatusEventListener): void {
    this.remove(this.listeners, audience, listener);
  }

  /**
   * `on` for a listener that must hear each event of one subject before any listener of `on` does,
   * in the same synchronous pass: one that ends what may read the subject (an editor socket whose
   * link a transfer ended, src/graphql/editor-socket-watch.ts) acts before the event is handed to
   * the subscriptions it ends.
   */
  guard(audience: EventAudience & Required<Pick<EventAudience, 'subject'>>, listener: StatusEventListener): void {
    this.add(this.guards, audience, listener);
  }

  unguard(audience: EventAudience & Required<Pick<EventAudience, 'subject'>>, listener: StatusEventListener): void {
    this.remove(this.guards, audience, listener);
  }

  private add(to: Map<string, Set<StatusEventListener>>, audience: EventAudience, listener: StatusEventListener): void {
    const key = audienceKey(audience, audience.subject);
    let listeners = to.get(key);
    if (!listeners) to.set(key, (listeners = new Set()));
    listeners.add(listener);
    if (listener.reconnected) this.reconnectListeners.add(listener);
  }

  private remove(
    from: Map<string, Set<StatusEventListener>>,
    audience: EventAudience,
    listener: StatusEventListener,
  ): void {
    const key = audienceKey(audience, audience.subject);
    const listeners = from.get(key);
    listeners?.delete(listener);
    if (listeners?.size === 0) from.delete(key);
    this.reconnectListeners.delete(listener);
  }

  private deliver(from: Map<string, Set<StatusEventListener>>, key: string, event: StatusEventMessage): void {
    const listeners = from.get(key);
    if (!listeners) return;
    // Listeners are called synchronously, one after the other: one that throws must not keep the
    // event from the rest.
    for (const listener of listeners) {
      try {
        listener.statusEvent(event);
      } catch (error) {
        this.log.error({ err: error }, 'status event listener threw');
      }
    }
  }

  /** Events of `audience` matching `accept`, as a feed that ends when the consumer stops it. */
  subscribe(audience: EventAudience, accept: (event: StatusEventMessage) => boolean): EventFeed<StatusEventMessage> {
    return new AcceptedEvents(this, audience, accept);
  }
}

/** A feed that is its own listener: one object for each subscription, not a listener and its closures. */
class AcceptedEvents extends EventFeed<StatusEventMessage> implements StatusEventListener {
  constructor(
    private readonly bus: StatusEventBus,
    private readonly audience: EventAudience,
    private readonly accept: (event: StatusEventMessage) => boolean,
  ) {
    super();
    bus.on(audience, this);
  }

  statusEvent(event: StatusEventMessage): void {
    if (this.accept(event)) this.push(event);
  }

  protected override stopSource(): void {
    this.bus.off(this.audience, this);
  }
}

function audienceKey(
  tenant: { clientId: string; env: string },
  subject?: { subjectType: string; subjectId: string },
): string {
  return subject
    ? `${tenant.clientId}\u0000${tenant.env}\u0000${subject.subjectType}\u0000${subject.subjectId}`
    : `${tenant.clientId}\u0000${tenant.env}`;
}
