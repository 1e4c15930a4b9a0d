import { randomUUID } from 'node:crypto';
import { Entity, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { TenantOwned } from './TenantOwned';

/** A customer of a client, identified by the client's user id, an e-mail, or an id we generated. */
@Entity({ tableName: 'end_users' })
@Unique({ properties: ['client', 'env', 'externalId'] })
export class EndUser extends TenantOwned {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  /** The userId or the lowercased e-mail the client used; what `project/list?user=` matches. */
  @Property({ type: 'string', length: 320 })
  externalId!: string;

  @Property({ type: 'string', length: 320, nullable: true })
  email?: string | null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}
