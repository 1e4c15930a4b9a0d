import { BigIntType, Entity, Filter, ManyToOne, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Client } from './Client';
import type { Localized, LocalizedRichText } from '../../domain/localized';
import { ownedByClient } from '../tenant-filter';

export interface CarouselSlide {
  image: string;
  caption: Localized;
}

@Filter(ownedByClient)
@Entity({ tableName: 'categories' })
@Unique({ properties: ['client', 'categoryId'] })
export class Category {
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string & Opt;

  @ManyToOne(() => Client, { deleteRule: 'cascade' })
  client!: Client;

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
