import { BigIntType, Entity, Filter, Index, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { WebhookDelivery } from './WebhookDelivery';
import { ownedThrough } from '../tenant-filter';

/** One HTTP request of a delivery, as it went. */
@Filter(ownedThrough('delivery', 'tenant'))
@Entity({ tableName: 'webhook_attempts' })
@Index({ properties: ['delivery'] })
export class WebhookAttempt {
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string & Opt;

  @ManyToOne(() => WebhookDelivery, { deleteRule: 'cascade' })
  delivery!: WebhookDelivery;

  @Property({ type: 'datetime' })
  attemptedAt!: Date;

  /** The receiver's HTTP status; null when no answer came (refused, timed out, blocked). */
  @Property({ type: 'integer', nullable: true })
  statusCode?: number | null;

  @Property({ type: 'integer' })
  latencyMs!: number;

  @Property({ type: 'text', nullable: true })
  error?: string | null;
}
