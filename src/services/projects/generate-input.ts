import { Type, type Static } from 'typebox';
import { LAYOUT_TYPES } from '../../domain/book';
import { MarketIdInput, SkuInput } from '../catalogue/product-names';
import { MAX_URL_LENGTH, PhotoInputs } from './photo-input';
import { MAX_EMAIL_LENGTH, MAX_USER_ID, USER_ID_RULE } from './user-identity';

/**
 * What `POST /v2/generate` (and GraphQL `generateProject`) takes, with its limits: the one
 * declaration both transports check (REST by its route schema, GraphQL in ProjectService.generate).
 */
export const GenerateInput = Type.Object({
  email: Type.Optional(
    Type.String({
      maxLength: MAX_EMAIL_LENGTH,
      description: 'Exactly one of email/userId, or neither (an owner id is generated)',
    }),
  ),
  userId: Type.Optional(Type.String({ maxLength: MAX_USER_ID, description: `Pattern ${USER_ID_RULE}` })),
  language: Type.Optional(Type.String({ maxLength: 35 })),
  sku: SkuInput,
  psp: Type.String({ minLength: 1, maxLength: 50, description: 'specifications.psp.name or renderOptions.psp' }),
  marketId: MarketIdInput,
  photos: Type.Optional(PhotoInputs),
  metadata: Type.Optional(Type.Unsafe<Record<string, unknown>>({ type: 'object' })),
  layoutType: Type.Optional(Type.Enum(LAYOUT_TYPES, { type: 'string' })),
  eCommercePlugin: Type.Optional(Type.Boolean()),
  callback: Type.Optional(
    Type.String({
      maxLength: MAX_URL_LENGTH,
      description: 'URL told (signed, like campaign webhooks) when the project is editable',
    }),
  ),
  custom: Type.Optional(
    Type.Union(
      [
        Type.Record(Type.String(), Type.String({ maxLength: 5000 })),
        Type.Array(
          Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }), value: Type.String({ maxLength: 5000 }) }),
          { maxItems: 100 },
        ),
      ],
      { description: 'an object of asset values by id, or an array of {id, value}' },
    ),
  ),
});

export type GenerateInput = Static<typeof GenerateInput>;
