import { randomUUID } from 'node:crypto';
import {
  BigIntType,
  Collection,
  Entity,
  Enum,
  Index,
  ManyToOne,
  OneToMany,
  type Opt,
  PrimaryKey,
  Property,
  Unique,
} from '@mikro-orm/core';
import { Campaign } from './Campaign';
import { WebhookAttempt } from './WebhookAttempt';
import { WEBHOOK_DELIVERY_STATUSES, type WebhookDeliveryStatus } from '../../domain/webhook-delivery-status';
import { TenantOwned } from './TenantOwned';

/** One event sent to one URL, attempted until delivered or given up; replayable when failed. */
@Entity({ tableName: 'webhook_deliveries' })
@Unique({ properties: ['eventKey'] })
@Index({ properties: ['campaign', 'createdAt'] })
@Index({ properties: ['client', 'env', 'createdAt'] })
@Index({ properties: ['client', 'env', 'orderingKey', 'position'] })
@Index({ properties: ['dispatchedAt', 'status'] })
// What the metrics read for webhook lag (src/services/webhooks/webhook-backlog.ts): the few pending deliveries.
@Index({
  name: 'webhook_deliveries_pending_index',
  expression:
    'create index "webhook_deliveries_pending_index" on "webhook_deliveries" ("env", "updated_at") ' +
    `where "status" = 'pending'`,
})
export class WebhookDelivery extends TenantOwned {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  /** What happened to whom, e.g. `project.ready:p-...`: one delivery per event, however often it is reported. */
  @Property({ type: 'string', length: 200 })
  eventKey!: string;

  @Property({ type: 'string', length: 50 })
  event!: string;

  @Property({ type: 'string', length: 40 })
  projectId!: string;

  @Property({ type: 'string', length: 500 })
  reference!: string;

  @ManyToOne(() => Campaign, { nullable: true, deleteRule: 'cascade' })
  campaign?: Campaign | null;

  @Property({ type: 'string', length: 2000 })
  url!: string;

  /** The exact JSON that is signed and sent. */
  @Property({ type: 'text' })
  payload!: string;

  @Enum({ items: () => WEBHOOK_DELIVERY_STATUSES, nativeEnumName: 'webhook_delivery_status' })
  status: WebhookDeliveryStatus & Opt = 'pending';

  /** 0 for the first sending, then one more for each replay. */
  @Property({ type: 'integer' })
  round: number & Opt = 0;

  /** The outbox event sent (`evt_…`, also the `webhook-id`); null for a project's callback. */
  @Property({ type: 'string', length: 40, nullable: true })
  eventId?: string | null;

  /** Deliveries with the same key go out one after the other (an order's events, by `position`). */
  @Property({ type: 'string', length: 250, nullable: true })
  orderingKey?: string | null;

  /** The event's position in the outbox: the order within `orderingKey`. */
  @Property({ type: new BigIntType('string'), nullable: true })
  position?: string | null;

  /** When its flow was started; null while the outbox relay has still to start it. */
  @Property({ type: 'datetime', nullable: true })
  dispatchedAt?: Date | null;

  /** When a failed attempt is followed by the next one; null once none follows (or before the first). */
  @Property({ type: 'datetime', nullable: true })
  nextAttemptAt?: Date | null;

  /** The W3C `traceparent` of the change that recorded the event: its delivery continues that trace (when tracing). */
  @Property({ type: 'string', length: 55, nullable: true })
  traceparent?: string | null;

  @OneToMany(
    () => WebhookAttempt,
    (attempt) => attempt.delivery,
    { orderBy: { attemptedAt: 'asc', id: 'asc' } },
  )
  attempts = new Collection<WebhookAttempt>(this);

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date & Opt = new Date();
}
