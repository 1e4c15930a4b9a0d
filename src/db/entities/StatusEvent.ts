import { BigIntType, Entity, Index, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { TenantOwned } from './TenantOwned';

/**
 * Append-only log of every status change. Each row is written in the transaction that changes the
 * status, together with a NOTIFY, so subscribers in any process see exactly the committed changes.
 */
@Entity({ tableName: 'status_events' })
@Unique({ properties: ['subjectType', 'subjectId', 'sequence'] })
@Index({ properties: ['client', 'env', 'id'] })
export class StatusEvent extends TenantOwned {
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string & Opt;

  /** What changed: `project`, `photo`, `order`, `campaign`. */
  @Property({ type: 'string', length: 30 })
  subjectType!: string;

  @Property({ type: 'string', length: 100 })
  subjectId!: string;

  @Property({ type: 'string', length: 50 })
  status!: string;

  /** 1, 2, 3... per subject: lets a subscriber detect gaps and order events. */
  @Property({ type: 'integer' })
  sequence!: number;

  /** Extra facts of the change (tracking URL, owner, reason); never needed to order events. */
  @Property({ type: 'json' })
  detail: Record<string, unknown> & Opt = {};

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  occurredAt: Date & Opt = new Date();
}
