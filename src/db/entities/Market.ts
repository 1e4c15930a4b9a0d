import { BigIntType, Entity, Filter, ManyToOne, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Client } from './Client';
import { Currency } from './Currency';
import type { Localized } from '../../domain/localized';
import { ownedByClient } from '../tenant-filter';

export interface ShipsWithinArea {
  /** A country (ISO 3166-1 alpha-2) or continent code (EU, NA, AS, ...). */
  isoCode2: string;
  name: Localized;
}

@Filter(ownedByClient)
@Entity({ tableName: 'markets' })
@Unique({ properties: ['client', 'marketId'] })
@Unique({ properties: ['client', 'marketIdAlt'] })
export class Market {
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string & Opt;

  @ManyToOne(() => Client, { deleteRule: 'cascade' })
  client!: Client;

  /** The client-facing id; 0 is the default market. */
  @Property({ type: 'integer' })
  marketId!: number;

  @Property({ type: 'string', length: 50 })
  marketIdAlt!: string;

  @Property({ type: 'json' })
  storeName!: Localized;

  @Property({ type: 'string', length: 2 })
  isoCode2!: string;

  @ManyToOne(() => Currency, { deleteRule: 'cascade' })
  currency!: Currency;

  @Property({ type: 'json' })
  shipsWithin!: ShipsWithinArea[];
}
