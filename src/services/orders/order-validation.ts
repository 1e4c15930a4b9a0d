import { Type, type Static } from 'typebox';

/** The answer of `POST /v2/print` with `validateOnly` (and GraphQL `validateOrder`). */
export const OrderValidation = Type.Object({
  valid: Type.Boolean({ description: 'true when a print of this body would be accepted now' }),
  problems: Type.Array(
    Type.Object({
      code: Type.String({ description: 'the error code the print would answer, e.g. INVALID_POSTCODE' }),
      path: Type.String({ description: 'the field as the client sent it' }),
      message: Type.String(),
    }),
  ),
});
export type OrderValidation = Static<typeof OrderValidation>;
