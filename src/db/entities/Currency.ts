import { BigIntType, Entity, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { ClientOwned } from './ClientOwned';

@Entity({ tableName: 'currencies' })
@Unique({ properties: ['client', 'code'] })
export class Currency extends ClientOwned {
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string & Opt;

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
