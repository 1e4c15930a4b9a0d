import { BigIntType, Entity, Filter, ManyToOne, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Client } from './Client';
import { ownedByClient } from '../tenant-filter';

@Filter(ownedByClient)
@Entity({ tableName: 'currencies' })
@Unique({ properties: ['client', 'code'] })
export class Currency {
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string & Opt;

  @ManyToOne(() => Client, { deleteRule: 'cascade' })
  client!: Client;

  @Property({ type: 'string', length: 3 })
  code!: string;

  /** Printed before a price, e.g. "£". */
  @Property({ type: 'string', length: 10 })
  left!: string;

  /** Printed after a price, e.g. " €". */
  @Property({ type: 'string', length: 10 })
  right!: string;

  @Property({ type: 'smallint' })
  decimals!: number;
}
