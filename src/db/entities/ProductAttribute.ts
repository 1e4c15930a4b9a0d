import { BigIntType, Entity, Filter, Index, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { Product } from './Product';
import type { Localized, LocalizedRichText } from '../../domain/localized';
import { ownedThrough } from '../tenant-filter';

/** A variation of a product (its size, cover, paper...), listed after its category in `attributes`. */
@Filter(ownedThrough('product', 'client'))
@Entity({ tableName: 'product_attributes' })
@Index({ properties: ['product', 'sortOrder'] })
export class ProductAttribute {
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string & Opt;

  @ManyToOne(() => Product, { deleteRule: 'cascade' })
  product!: Product;

  @Property({ type: 'string', length: 50 })
  type!: string;

  @Property({ type: 'json' })
  name!: Localized;

  @Property({ type: 'json' })
  subtitle!: Localized;

  /** Path below the catalogue's baseUrl, like a product's thumbnail. */
  @Property({ type: 'string', length: 500 })
  thumbnail!: string;

  @Property({ type: 'json' })
  description!: Localized;

  @Property({ type: 'json' })
  descriptionJson!: LocalizedRichText;

  @Property({ type: 'integer' })
  sortOrder!: number;

  @Property({ type: 'json', nullable: true })
  tag?: Localized | null;

  @Property({ type: 'boolean' })
  topSeller: boolean & Opt = false;

  @Property({ type: 'boolean' })
  disabled: boolean & Opt = false;
}
