import {
  BigIntType,
  Collection,
  Entity,
  ManyToOne,
  OneToMany,
  type Opt,
  PrimaryKey,
  Property,
  Unique,
} from '@mikro-orm/core';
import { Category } from './Category';
import { ProductAttribute } from './ProductAttribute';
import { ProductPrice } from './ProductPrice';
import type { Localized, LocalizedRichText } from '../../domain/localized';
import type { ProductProduction } from '../../domain/print-production';
import type { PartnerProductIds } from '../../domain/print-partners';
import { ClientOwned } from './ClientOwned';

export interface ProductSpecifications {
  min: { photos: number; pages: number };
  max: { photos: number; pages: number };
  psp: { name: string; leadTime: { value: number; unit: string } };
  /** Trim size of one page and its bleed, which the print renderer uses. */
  format: { widthMm: number; heightMm: number; bleedMm: number; dpi: number };
  /** Binding and cover geometry (src/domain/print-production.ts): what the cover sheet is computed from. */
  production: ProductProduction;
}

export interface RenderOptions {
  productId: string;
  psp: string;
}

@Entity({ tableName: 'products' })
@Unique({ properties: ['client', 'productId'] })
@Unique({ properties: ['client', 'sku'] })
export class Product extends ClientOwned {
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string & Opt;

  /** The client-facing integer id. */
  @Property({ type: 'integer' })
  productId!: number;

  @Property({ type: 'string', length: 100 })
  sku!: string;

  /** Lowest API version `v` that lists this product. */
  @Property({ type: 'integer' })
  minVersion!: number;

  @ManyToOne(() => Category, { deleteRule: 'cascade' })
  category!: Category;

  @Property({ type: 'json' })
  name!: Localized;

  @Property({ type: 'json' })
  metaTitle!: Localized;

  @Property({ type: 'json' })
  description!: Localized;

  @Property({ type: 'json' })
  descriptionJson!: LocalizedRichText;

  @Property({ type: 'string', length: 500 })
  thumbnail!: string;

  @Property({ type: 'boolean' })
  disabled: boolean & Opt = false;

  @Property({ type: 'json' })
  specifications!: ProductSpecifications;

  @Property({ type: 'json' })
  renderOptions!: RenderOptions;

  /** The product's id at each print partner (catalogue `partnerProducts`); null when the file maps none. */
  @Property({ type: 'json', nullable: true })
  partnerProducts?: PartnerProductIds | null;

  @Property({ type: 'integer' })
  sortOrder!: number;

  @OneToMany(
    () => ProductAttribute,
    (attribute) => attribute.product,
    { orderBy: { sortOrder: 'asc' } },
  )
  attributes = new Collection<ProductAttribute>(this);

  @OneToMany(
    () => ProductPrice,
    (price) => price.product,
  )
  prices = new Collection<ProductPrice>(this);
}
