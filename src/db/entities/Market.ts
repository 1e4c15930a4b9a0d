import { BigIntType, Entity, ManyToOne, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Currency } from './Currency';
import type { Localized } from '../../domain/localized';
import { ClientOwned } from './ClientOwned';

export interface ShipsWithinArea {
  /** A country (ISO 3166-1 alpha-2) or continent code (EU, NA, AS, ...). */
  isoCode2: string;
  name: Localized;
}

/** A way of shipping a market's orders (Prodigi's and Gelato's shipping levels): catalogue file shape and stored shape. */
export interface ShippingLevelDefinition {
  /** Stable, lower case (`standard`, `express`, `overnight`); what orders and quotes name. */
  code: string;
  name: Localized;
  /** The level the market falls back to for an order that names none or an unknown one; else the first level. */
  default?: boolean;
  /** Per order (not per book), by currency; the market's own currency is required. */
  prices: { currency: string; price: number }[];
  /** Where the level reaches: a country or a continent (as in `shipsWithin`), with business days in transit. */
  destinations: { isoCode2: string; transitDays: { min: number; max: number } }[];
}

/** A tax rate in percent for a destination country (or continent) of a market's orders. */
export interface TaxRate {
  isoCode2: string;
  rate: number;
}

@Entity({ tableName: 'markets' })
@Unique({ properties: ['client', 'marketId'] })
@Unique({ properties: ['client', 'marketIdAlt'] })
export class Market extends ClientOwned {
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string & Opt;

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

  @Property({ type: 'json', defaultRaw: `'[]'` })
  shippingLevels: ShippingLevelDefinition[] & Opt = [];

  @Property({ type: 'json', defaultRaw: `'[]'` })
  taxRates: TaxRate[] & Opt = [];
}
