import { BigIntType, Entity, Enum, Filter, Index, ManyToOne, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Client } from './Client';
import { ENVIRONMENTS, type Environment } from '../../domain/environment';
import { ownedByTenant } from '../tenant-filter';

/**
 * Append-only log of every status change. Each row is written in the transaction that changes the
 * status, together with a NOTIFY, so subscribers in any process see exactly the committed changes.
 */
@Filter(ownedByTenant)
@Entity({ tableName: 'status_events' })
@Unique({ properties: ['subjectType', 'subjectId', 'sequence'] })
@Index({ properties: ['client', 'env', 'id'] })
export class StatusEvent {
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string & Opt;

  @ManyToOne(() => Client, { deleteRule: 'cascade' })
  client!: Client;

  @Enum({ items: () => ENVIRONMENTS, nativeEnumName: 'environment' })
  env!: Environment;

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
