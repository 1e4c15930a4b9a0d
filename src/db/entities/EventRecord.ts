import { BigIntType, Entity, Index, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { TenantOwned } from './TenantOwned';

/**
 * The outbox: every event a client can receive (docs/api.md, Events), written in the transaction of
 * the change it reports, so none is lost and none exists for a change that rolled back. Webhook
 * deliveries are made from it in the same transaction; `GET /v2/events` reads it back.
 */
@Entity({ tableName: 'events' })
@Unique({ properties: ['eventId'] })
@Index({ properties: ['client', 'env', 'position'] })
@Index({ properties: ['client', 'env', 'orderId', 'position'] })
export class EventRecord extends TenantOwned {
  /** Commit order within a tenant (writers of a tenant's events are serialised): the catch-up cursor. */
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  position!: string & Opt;

  /** `evt_…`: the event's public id and its deliveries' `webhook-id`. */
  @Property({ type: 'string', length: 40 })
  eventId!: string;

  @Property({ type: 'string', length: 50 })
  type!: string;

  @Property({ type: 'string', length: 200, nullable: true })
  orderId?: string | null;

  @Property({ type: 'string', length: 40, nullable: true })
  projectId?: string | null;

  /** The order line's status-event sequence the event belongs to (line events only). */
  @Property({ type: 'integer', nullable: true })
  sequence?: number | null;

  @Property({ type: 'json' })
  data!: Record<string, unknown>;

  @Property({ type: 'datetime' })
  occurredAt!: Date;
}
