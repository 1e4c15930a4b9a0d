import { Type, type Static } from 'typebox';
import { PhotoInputs } from '../projects/photo-input';
import { ORDER_ID_MAX_LENGTH, PROJECT_ID_MAX_LENGTH } from '../../domain/ids';
import { MAX_BOOK_PAGES, MAX_COPIES, MAX_MONEY, MAX_PROJECTS_PER_ORDER } from '../../domain/limits';
import { MarketIdInput, SkuInput } from '../catalogue/product-names';

/** An amount a client sends, in the currency's major units (docs/api.md, Limits). */
export const Money = Type.Number({ minimum: 0, maximum: MAX_MONEY });

/**
 * The order to print, as `POST /v2/print` takes it (docs/api.md, Print) and as both transports
 * pass it to the service. Fields in the original API's order, so missing ones are reported in it.
 */
export const PrintInput = Type.Object({
  projects: Type.Array(
    Type.Object({
      id: Type.String({ maxLength: PROJECT_ID_MAX_LENGTH }),
      product: Type.Optional(
        Type.Object({
          psp: Type.Optional(Type.String({ maxLength: 50 })),
          sku: Type.Optional(SkuInput),
          marketId: Type.Optional(MarketIdInput),
        }),
      ),
      lineItemTotal: Money,
      quantity: Type.Integer({ minimum: 1, maximum: MAX_COPIES, description: 'copies' }),
      metadata: Type.Optional(
        Type.Object({
          colorCorrection: Type.Optional(Type.Boolean()),
          pageCount: Type.Optional(
            Type.Integer({
              minimum: 2,
              maximum: MAX_BOOK_PAGES,
              multipleOf: 2,
              description: 'the interior pages the shop charged for: even',
            }),
          ),
          extraPages: Type.Optional(
            Type.Integer({
              minimum: 0,
              maximum: MAX_BOOK_PAGES,
              description: "the pages charged for above the product's min.pages",
            }),
          ),
        }),
      ),
      photos: Type.Optional(PhotoInputs),
      proofId: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 30,
          description:
            'Extension: a proof from POST /v2/project/proof; the printer gets its files byte for byte (409 PROOF_STALE when the book changed since)',
        }),
      ),
    }),
    { minItems: 1, maxItems: MAX_PROJECTS_PER_ORDER },
  ),
  payment: Type.Object({
    grandTotal: Money,
    coupon: Type.Optional(Type.Object({ value: Money, code: Type.String({ maxLength: 100 }) })),
    method: Type.Optional(Type.String({ maxLength: 100 })),
    reference: Type.Optional(Type.String({ maxLength: 200 })),
    shipping: Type.Optional(Type.Object({ method: Type.Optional(Type.String({ maxLength: 100 })), cost: Money })),
  }),
  user: Type.Object({
    firstName: Type.Optional(Type.String({ maxLength: 200 })),
    lastName: Type.Optional(Type.String({ maxLength: 200 })),
    telephone: Type.Optional(Type.String({ maxLength: 50 })),
    address: Type.Object({
      line1: Type.String({ minLength: 1, maxLength: 300 }),
      line2: Type.Optional(Type.String({ maxLength: 300 })),
      postcode: Type.String({ minLength: 1, maxLength: 20 }),
      city: Type.Optional(Type.String({ maxLength: 200 })),
      state: Type.Optional(Type.String({ maxLength: 200 })),
      company: Type.Optional(Type.String({ maxLength: 200 })),
      countryIso2: Type.String({ minLength: 2, maxLength: 2 }),
    }),
  }),
  orderId: Type.String({ minLength: 1, maxLength: ORDER_ID_MAX_LENGTH, description: "The caller's order id" }),
  quoteId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 30,
      description:
        'Extension: a quote from POST /v2/quote the order must match (409 QUOTE_MISMATCH, QUOTE_EXPIRED); replaces the totals check',
    }),
  ),
  validateOnly: Type.Optional(
    Type.Boolean({
      description: 'Extension: run every check of the order and answer {valid, problems}; nothing is written',
    }),
  ),
  paymentPending: Type.Optional(
    Type.Boolean({
      description:
        'Extension: the order is placed before payment; its lines wait (waiting, expiring, last call, abandoned) until GraphQL confirmPayment',
    }),
  ),
});
export type PrintInput = Static<typeof PrintInput>;
