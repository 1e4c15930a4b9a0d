import { BigIntType, Entity, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { TenantOwned } from './TenantOwned';

/**
 * One `Idempotency-Key` of a client and environment: the request it was first used with (a hash)
 * and, once answered, the answer to replay. Inserting the row claims the key, so two concurrent
 * requests with the same key cannot both run; `status` is null while the first is in flight.
 */
@Entity({ tableName: 'idempotency_keys' })
@Unique({ properties: ['client', 'env', 'key'] })
export class IdempotencyRecord extends TenantOwned {
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string & Opt;

  @Property({ type: 'string', length: 255 })
  key!: string;

  /** sha256 of method, path and canonical body. */
  @Property({ type: 'string', length: 64 })
  requestHash!: string;

  @Property({ type: 'integer', nullable: true })
  status: (number & Opt) | null = null;

  @Property({ type: 'string', length: 200, nullable: true })
  contentType: (string & Opt) | null = null;

  @Property({ type: 'text', nullable: true })
  body: (string & Opt) | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date & Opt = new Date();

  @Property({ type: 'datetime', index: true })
  expiresAt!: Date;
}
