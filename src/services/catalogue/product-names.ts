import { Type } from 'typebox';

/* How a client names a product and a market in any input (generate, print, quote). */

/** A product named as a client may name it: a sku or renderOptions.productId. */
export const SkuInput = Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Number()], {
  description: 'a sku or renderOptions.productId (string or number)',
});

/** A market named as a client may name it. */
export const MarketIdInput = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ minLength: 1, maxLength: 50 })], {
  description: 'an integer market id or an alternative id string',
});
