import { BigIntType, Entity, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import type { Localized, LocalizedRichText } from '../../domain/localized';
import { ClientOwned } from './ClientOwned';

export interface CarouselSlide {
  image: string;
  caption: Localized;
}

@Entity({ tableName: 'categories' })
@Unique({ properties: ['client', 'categoryId'] })
export class Category extends ClientOwned {
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string & Opt;

  @Property({ type: 'integer' })
  categoryId!: number;

  @Property({ type: 'json' })
  name!: Localized;

  @Property({ type: 'json' })
  subtitle!: Localized;

  @Property({ type: 'string', length: 500 })
  thumbnail!: string;

  @Property({ type: 'json' })
  description!: Localized;

  @Property({ type: 'json' })
  descriptionJson!: LocalizedRichText;

  @Property({ type: 'json' })
  carousel!: CarouselSlide[];

  @Property({ type: 'integer' })
  sortOrder!: number;

  @Property({ type: 'json', nullable: true })
  tag?: Localized | null;

  @Property({ type: 'boolean' })
  topSeller: boolean & Opt = false;

  @Property({ type: 'boolean' })
  disabled: boolean & Opt = false;
}
