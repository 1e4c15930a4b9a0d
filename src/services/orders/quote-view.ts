import { Type, type Static } from 'typebox';

const Amount = Type.Number({ description: "in the market's currency, exact to its decimals" });
const DeliveryRange = Type.Object({
  earliest: Type.String({ format: 'date', description: 'YYYY-MM-DD' }),
  latest: Type.String({ format: 'date', description: 'YYYY-MM-DD' }),
});

const QuotedLineView = Type.Object({
  projectId: Type.Optional(Type.String()),
  sku: Type.String(),
  pageCount: Type.Integer({ description: 'interior pages priced' }),
  basePages: Type.Integer({ description: "pages the base price includes (the product's min.pages)" }),
  extraPages: Type.Integer({ description: 'pageCount − basePages, at least 0' }),
  quantity: Type.Integer(),
  basePrice: Amount,
  extraCostPerPage: Amount,
  extraPagesCost: { ...Amount, description: 'per copy: extraPages × extraCostPerPage' },
  unitPrice: { ...Amount, description: 'per copy: basePrice + extraPagesCost' },
  lineTotal: { ...Amount, description: 'unitPrice × quantity' },
  discount: { ...Amount, description: "the line's share of the coupon" },
  tax: { ...Amount, description: 'tax on lineTotal − discount' },
});

const QuotedShippingLevel = Type.Object({
  code: Type.String(),
  name: Type.String(),
  cost: Amount,
  tax: Amount,
  grandTotal: { ...Amount, description: 'the grand total of the quote with this level' },
  productionDays: Type.Integer({ description: 'business days' }),
  transitDays: Type.Object({ min: Type.Integer(), max: Type.Integer() }, { description: 'business days' }),
  delivery: DeliveryRange,
});

/** The answer of `POST /v2/quote`: declared once for REST and the service. */
export const QuoteView = Type.Object({
  quoteId: Type.String(),
  expiresAt: Type.Integer({ description: 'Unix seconds; an order carrying quoteId after it is a 409 QUOTE_EXPIRED' }),
  marketId: Type.Integer(),
  currency: Type.String(),
  countryIso2: Type.String(),
  pricesIncludeTax: Type.Boolean(),
  taxRate: Type.Number({ description: 'percent, for the destination' }),
  lines: Type.Array(QuotedLineView),
  shippingLevels: Type.Array(QuotedShippingLevel, { description: 'every level that reaches the destination' }),
  shippingLevel: Type.Union([Type.String(), Type.Null()], {
    description: 'the level the totals are for; null when none reaches the destination',
  }),
  subTotal: Amount,
  shipping: Amount,
  coupon: Amount,
  tax: { ...Amount, description: 'lines and shipping; included in the prices or added, as pricesIncludeTax says' },
  grandTotal: Amount,
});
export type QuoteView = Static<typeof QuoteView>;
