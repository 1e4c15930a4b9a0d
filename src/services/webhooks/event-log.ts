import { Type, type Static } from 'typebox';
import type { EntityManager } from '@mikro-orm/postgresql';
import { EventRecord } from '../../db/entities';
import { NotFoundError, ValidationError } from '../../domain/errors';
import { isWebhookEvent, WEBHOOK_EVENTS } from '../../domain/webhook-delivery-status';
import { envelopeOf } from './webhook-events';

/** At most this many events a page of `GET /v2/events`. */
export const MAX_EVENT_PAGE_SIZE = 100;

const EVENT_ID = /^evt_[0-9a-f]{32}$/;

const EventView = Type.Object({
  id: Type.String({ description: 'evt_…: stable; the webhook-id of its deliveries' }),
  type: Type.String({ description: WEBHOOK_EVENTS.join(', ') }),
  occurredAt: Type.String({ description: 'ISO 8601, UTC' }),
  sequence: Type.Union([Type.Integer(), Type.Null()], {
    description: "The order line's status-event sequence (line events); null otherwise",
  }),
  data: Type.Record(Type.String(), Type.Unknown()),
});

export const EventPage = Type.Object({
  data: Type.Array(EventView),
  cursor: Type.Optional(Type.String({ description: 'Present when more events follow: pass it as `after`' })),
});
export type EventPage = Static<typeof EventPage>;

export interface EventQuery {
  /** The id of the last event the caller has (`evt_…`); the page starts after it. */
  after?: string;
  types?: string[];
  orderId?: string;
  limit?: number;
  /** How the page size is named to the caller (`limit` in REST, `first` in GraphQL). */
  limitPath?: string;
}

/**
 * A tenant's events in the order they were recorded, after the event `after` (docs/api.md, Events):
 * what a shop missed while its receiver was down. `em` is tenant-scoped, so another client's event
 * id is not found. Keyset on the outbox position, which commits in order for a tenant.
 */
export async function listEvents(em: EntityManager, query: EventQuery): Promise<EventPage> {
  const limit = query.limit ?? MAX_EVENT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_EVENT_PAGE_SIZE)
    throw ValidationError.field(query.limitPath ?? 'limit', `must be from 1 to ${MAX_EVENT_PAGE_SIZE}`);
  for (const [i, type] of (query.types ?? []).entries()) {
    if (!isWebhookEvent(type))
      throw ValidationError.field(
        query.types!.length > 1 ? `types[${i}]` : 'types',
        `must be one of ${WEBHOOK_EVENTS.join(', ')}`,
      );
  }
  let after = '0';
  if (query.after !== undefined) {
    if (!EVENT_ID.test(query.after))
      throw ValidationError.field('after', 'must be an event id (evt_ and 32 hexadecimal digits)');
    const last = await em.findOne(EventRecord, { eventId: query.after }, { fields: ['position'] });
    if (!last) throw new NotFoundError('event', query.after, 'after');
    after = last.position;
  }
  const rows = await em.find(
    EventRecord,
    {
      position: { $gt: after },
      ...(query.types && query.types.length > 0 ? { type: { $in: query.types } } : {}),
      ...(query.orderId ? { orderId: query.orderId } : {}),
    },
    { orderBy: { position: 'asc' }, limit: limit + 1 },
  );
  const page = rows.slice(0, limit);
  return { data: page.map(envelopeOf), ...(rows.length > limit ? { cursor: page.at(-1)!.eventId } : {}) };
}
