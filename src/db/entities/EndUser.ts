import { randomUUID } from 'node:crypto';
import { Entity, Enum, Filter, ManyToOne, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Client } from './Client';
import { ENVIRONMENTS, type Environment } from '../../domain/environment';
import { ownedByTenant } from '../tenant-filter';

/** A customer of a client, identified by the client's user id, an e-mail, or an id we generated. */
@Filter(ownedByTenant)
@Entity({ tableName: 'end_users' })
@Unique({ properties: ['client', 'env', 'externalId'] })
export class EndUser {
  @PrimaryKey({ type: 'uuid' })
  id: string & Opt = randomUUID();

  @ManyToOne(() => Client, { deleteRule: 'cascade' })
  client!: Client;

  @Enum({ items: () => ENVIRONMENTS, nativeEnumName: 'environment' })
  env!: Environment;

  /** The userId or the lowercased e-mail the client used; what `project/list?user=` matches. */
  @Property({ type: 'string', length: 320 })
  externalId!: string;

  @Property({ type: 'string', length: 320, nullable: true })
  email?: string | null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date & Opt = new Date();
}
