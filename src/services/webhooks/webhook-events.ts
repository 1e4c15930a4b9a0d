import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventRecord } from '../../db/entities';
import type { Environment } from '../../domain/environment';
import type { WebhookEvent } from '../../domain/webhook-delivery-status';
import { currentTraceparent } from '../../telemetry/trace-context';

/** Whose event it is. */
export interface EventOwner {
  clientId: string;
  env: Environment;
}

/** An event to record: what happened, to which order line, and its data. */
export interface NewEvent {
  type: WebhookEvent;
  orderId?: string;
  projectId?: string;
  /** The order line's status-event sequence (line events). */
  sequence?: number;
  data: Record<string, unknown>;
}

/**
 * An event as a client receives it, in a webhook body and from `GET /v2/events` alike
 * (docs/api.md, Events). `sequence` is the order line's status-event sequence, as GraphQL
 * subscriptions carry it, so a receiver can order and dedupe a line's events; null for events of a
 * whole order (`data.lines[].sequence` then) and for events of no line.
 */
export interface EventEnvelope {
  id: string;
  type: string;
  occurredAt: string;
  sequence: number | null;
  data: Record<string, unknown>;
}

export function envelopeOf(
  event: Pick<EventRecord, 'eventId' | 'type' | 'occurredAt' | 'sequence' | 'data'>,
): EventEnvelope {
  return {
    id: event.eventId,
    type: event.type,
    occurredAt: event.occurredAt.toISOString(),
    sequence: event.sequence ?? null,
    data: event.data,
  };
}

/**
 * Appends, once, an event whose id derives from `key` (an event reported again is the same event),
 * without a delivery of its own: for `project.ready`, which goes to its campaign's webhook or its
 * project's callback URL by its own delivery. Runs inside a transaction, like `recordEvent`.
 */
export async function recordEventOnce(
  em: EntityManager,
  owner: EventOwner,
  key: string,
  event: NewEvent,
): Promise<string> {
  if (!em.isInTransaction()) throw new Error('recordEventOnce must run inside a transaction');
  const connection = em.getConnection();
  const trx = em.getTransactionContext();
  await connection.execute(
    'SELECT pg_advisory_xact_lock(hashtext(?))',
    [`events:${owner.clientId}:${owner.env}`],
    'run',
    trx,
  );
  const eventId = `evt_${createHash('sha256').update(`${owner.clientId}:${owner.env}:${key}`).digest('hex').slice(0, 32)}`;
  await connection.execute(
    `INSERT INTO events (event_id, client_id, env, type, order_id, project_id, sequence, data, occurred_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING`,
    [
      eventId,
      owner.clientId,
      owner.env,
      event.type,
      event.orderId ?? null,
      event.projectId ?? null,
      event.sequence ?? null,
      JSON.stringify(event.data),
      new Date(),
    ],
    'run',
    trx,
  );
  return eventId;
}

/** An order's events are delivered to an endpoint one after the other, in the order they were recorded. */
export const orderingKeyOf = (orderId: string) => `order:${orderId}`;

/**
 * Appends an event to the outbox and, when the tenant's webhook endpoint is enabled and takes its
 * type (every type by default; `webhook.test` always), a pending delivery of it, both in the caller's transaction:
 * nothing is sent for a change that rolls back, and nothing committed is lost (the outbox relay
 * starts deliveries whose writer did not). Writers of one tenant's events are serialised until they
 * commit, so positions commit in order and `GET /v2/events?after=` never skips a late commit.
 * Must run inside a transaction, after the caller has taken its row locks.
 */
export async function recordEvent(
  em: EntityManager,
  owner: EventOwner,
  event: NewEvent,
): Promise<{ eventId: string; position: string }> {
  if (!em.isInTransaction()) throw new Error('recordEvent must run inside a transaction');
  await em.flush();
  const connection = em.getConnection();
  const trx = em.getTransactionContext();
  await connection.execute(
    'SELECT pg_advisory_xact_lock(hashtext(?))',
    [`events:${owner.clientId}:${owner.env}`],
    'run',
    trx,
  );
  const eventId = `evt_${randomUUID().replaceAll('-', '')}`;
  const occurredAt = new Date();
  const [row] = await connection.execute<{ position: string }[]>(
    `INSERT INTO events (event_id, client_id, env, type, order_id, project_id, sequence, data, occurred_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING position`,
    [
      eventId,
      owner.clientId,
      owner.env,
      event.type,
      event.orderId ?? null,
      event.projectId ?? null,
      event.sequence ?? null,
      JSON.stringify(event.data),
      occurredAt,
    ],
    'all',
    trx,
  );
  const position = String(row.position);
  // A disabled endpoint (webhook-health.ts) is sent nothing: its events wait on the catch-up feed.
  const [endpoint] = await connection.execute<{ url: string; event_types: string[] | null }[]>(
    'SELECT url, event_types FROM webhook_endpoints WHERE client_id = ? AND env = ? AND disabled_at IS NULL',
    [owner.clientId, owner.env],
    'all',
    trx,
  );
  if (
    endpoint &&
    (event.type === 'webhook.test' || endpoint.event_types === null || endpoint.event_types.includes(event.type))
  ) {
    const payload = JSON.stringify(
      envelopeOf({ eventId, type: event.type, occurredAt, sequence: event.sequence ?? null, data: event.data }),
    );
    await connection.execute(
      `INSERT INTO webhook_deliveries (id, client_id, env, event_key, event, project_id, reference, url, payload, status,
         round, event_id, ordering_key, position, traceparent, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?, ?, ?)`,
      [
        randomUUID(),
        owner.clientId,
        owner.env,
        `event:${eventId}`,
        event.type,
        event.projectId ?? '',
        event.orderId ?? eventId,
        endpoint.url,
        payload,
        eventId,
        event.orderId ? orderingKeyOf(event.orderId) : null,
        position,
        currentTraceparent() ?? null,
        occurredAt,
        occurredAt,
      ],
      'run',
      trx,
    );
  }
  return { eventId, position };
}
