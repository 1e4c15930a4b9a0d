import { Type, type Static } from 'typebox';

/** A market as clients read it, declared once for REST and the service's types. */
export const MarketView = Type.Object({
  marketId: Type.Integer(),
  marketIdAlt: Type.String(),
  storeName: Type.String(),
  isoCode2: Type.String(),
  currency: Type.String(),
  shipsWithin: Type.Array(Type.Object({ isoCode2: Type.String(), name: Type.String() })),
});
export type MarketView = Static<typeof MarketView>;

export const MarketListing = Type.Object({
  results: Type.Array(MarketView),
  suggested: Type.Optional(Type.Object(MarketView.properties, { description: 'Present only when both latitude and longitude were given' })),
});
export type MarketListing = Static<typeof MarketListing>;
