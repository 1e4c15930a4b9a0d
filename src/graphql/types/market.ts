import { Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A country or continent a market ships to' })
export class ShipsWithinArea {
  @Field(() => String, { description: 'Country (ISO 3166-1 alpha-2) or continent code' }) isoCode2!: string;
  @Field(() => String) name!: string;
}

@ObjectType()
export class TransitDays {
  @Field(() => Int) min!: number;
  @Field(() => Int) max!: number;
}

@ObjectType({ description: 'Where a shipping level goes and how many business days it takes there' })
export class ShippingDestination {
  @Field(() => String, { description: 'Country or continent code' }) isoCode2!: string;
  @Field(() => TransitDays) transitDays!: TransitDays;
}

@ObjectType({ description: 'A way of shipping the orders of a market' })
export class MarketShippingLevel {
  @Field(() => String) code!: string;
  @Field(() => String) name!: string;
  @Field(() => Boolean, { description: 'the level an order without a known method ships with' }) default!: boolean;
  @Field(() => Float, { description: "per order, in the market's currency" }) price!: number;
  @Field(() => [ShippingDestination]) destinations!: ShippingDestination[];
}

@ObjectType()
export class Market {
  @Field(() => Int, { description: '0 is the default market' }) marketId!: number;
  @Field(() => String) marketIdAlt!: string;
  @Field(() => String) storeName!: string;
  @Field(() => String) isoCode2!: string;
  @Field(() => String, { description: 'Currency code' }) currency!: string;
  @Field(() => [ShipsWithinArea]) shipsWithin!: ShipsWithinArea[];
  @Field(() => [MarketShippingLevel]) shippingLevels!: MarketShippingLevel[];
}

@ObjectType()
export class MarketListing {
  @Field(() => [Market]) results!: Market[];

  @Field(() => Market, { nullable: true, description: 'Present only when latitude and longitude were given' })
  suggested?: Market;
}
