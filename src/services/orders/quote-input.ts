import { Type, type Static } from 'typebox';
import { PROJECT_ID_MAX_LENGTH } from '../../domain/ids';
import { MAX_BOOK_PAGES, MAX_COPIES, MAX_PROJECTS_PER_ORDER } from '../../domain/limits';
import { MarketIdInput, SkuInput } from '../catalogue/product-names';
import { Money } from './print-input';

/**
 * What `POST /v2/quote` (and GraphQL `quote`) prices: lines named by a project (priced from its
 * book as it is now) or by a sku and page count, for a market and a destination country.
 */
export const QuoteInput = Type.Object({
  marketId: MarketIdInput,
  countryIso2: Type.String({ minLength: 2, maxLength: 2, description: 'the destination country, ISO 3166-1 alpha-2' }),
  shippingLevel: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: "a shipping level's code or name; default: the market's default level",
    }),
  ),
  coupon: Type.Optional(Type.Object({ value: Money, code: Type.Optional(Type.String({ maxLength: 100 })) })),
  language: Type.Optional(
    Type.String({ maxLength: 35, description: 'for the names of the shipping levels; default en' }),
  ),
  lines: Type.Array(
    Type.Object({
      projectId: Type.Optional(
        Type.String({
          maxLength: PROJECT_ID_MAX_LENGTH,
          description: 'a project whose book is laid out; or give sku and pageCount',
        }),
      ),
      sku: Type.Optional(SkuInput),
      pageCount: Type.Optional(
        Type.Integer({
          minimum: 2,
          maximum: MAX_BOOK_PAGES,
          multipleOf: 2,
          description: "interior pages, with sku: even, within the product's min.pages…max.pages",
        }),
      ),
      quantity: Type.Integer({ minimum: 1, maximum: MAX_COPIES, description: 'copies' }),
    }),
    { minItems: 1, maxItems: MAX_PROJECTS_PER_ORDER },
  ),
});
export type QuoteInput = Static<typeof QuoteInput>;
