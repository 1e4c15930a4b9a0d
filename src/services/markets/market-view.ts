import { Type, type Static } from 'typebox';

/** A market as clients read it, declared once for REST and the service's types. */
export const MarketView = Type.Object({
  marketId: Type.Integer(),
  marketIdAlt: Type.String(),
  storeName: Type.String(),
  isoCode2: Type.String(),
  currency: Type.String(),
  shipsWithin: Type.Array(Type.Object({ isoCode2: Type.String(), name: Type.String() })),
  shippingLevels: Type.Array(
    Type.Object({
      code: Type.String(),
      name: Type.String(),
      default: Type.Boolean({ description: 'the level an order without a known method ships with' }),
      price: Type.Number({ description: "per order, in the market's currency" }),
      destinations: Type.Array(
        Type.Object({
          isoCode2: Type.String({ description: 'a country or continent code' }),
          transitDays: Type.Object({ min: Type.Integer(), max: Type.Integer() }),
        }),
      ),
    }),
    { description: 'Extension: how orders of this market ship (docs/api.md, Shipping levels)' },
  ),
});
export type MarketView = Static<typeof MarketView>;

export const MarketListing = Type.Object({
  results: Type.Array(MarketView),
  suggested: Type.Optional(
    Type.Object(MarketView.properties, { description: 'Present only when both latitude and longitude were given' }),
  ),
});
export type MarketListing = Static<typeof MarketListing>;
