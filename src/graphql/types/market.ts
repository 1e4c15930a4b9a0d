import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A country or continent a market ships to' })
export class ShipsWithinArea {
  @Field(() => String, { description: 'Country (ISO 3166-1 alpha-2) or continent code' }) isoCode2!: string;
  @Field(() => String) name!: string;
}

@ObjectType()
export class Market {
  @Field(() => Int, { description: '0 is the default market' }) marketId!: number;
  @Field(() => String) marketIdAlt!: string;
  @Field(() => String) storeName!: string;
  @Field(() => String) isoCode2!: string;
  @Field(() => String, { description: 'Currency code' }) currency!: string;
  @Field(() => [ShipsWithinArea]) shipsWithin!: ShipsWithinArea[];
}

@ObjectType()
export class MarketListing {
  @Field(() => [Market]) results!: Market[];

  @Field(() => Market, { nullable: true, description: 'Present only when latitude and longitude were given' })
  suggested?: Market;
}
