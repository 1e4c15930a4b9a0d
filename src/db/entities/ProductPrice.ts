import {
  BigIntType,
  DecimalType,
  Entity,
  Filter,
  ManyToOne,
  type Opt,
  PrimaryKey,
  Property,
  Unique,
} from '@mikro-orm/core';
import { Product } from './Product';
import { Market } from './Market';
import { ownedThrough } from '../tenant-filter';

/** A product's price in one market, in that market's currency. */
@Filter(ownedThrough('product', 'client'))
@Entity({ tableName: 'product_prices' })
@Unique({ properties: ['product', 'market'] })
export class ProductPrice {
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string & Opt;

  @ManyToOne(() => Product, { deleteRule: 'cascade' })
  product!: Product;

  @ManyToOne(() => Market, { deleteRule: 'cascade' })
  market!: Market;

  @Property({ type: new DecimalType('number'), precision: 14, scale: 4 })
  price!: number;

  @Property({ type: new DecimalType('number'), precision: 14, scale: 4 })
  extraCostPerPage!: number;
}
