import { Type, type Static } from 'typebox';
import { CLAIM_REASONS, MAX_CLAIM_NOTE_LENGTH, MAX_CLAIM_PHOTOS } from '../../domain/order-claim';
import { ORDER_ID_MAX_LENGTH, PROJECT_ID_MAX_LENGTH } from '../../domain/ids';
import { MAX_PROJECTS_PER_ORDER } from '../../domain/limits';
import { MAX_URL_LENGTH } from '../projects/photo-input';

/**
 * What `POST /v2/order/claim` (and GraphQL `claimOrder`) takes, with its limits: the one
 * declaration both transports check (REST by its route schema, GraphQL in claimOrder).
 */
export const ClaimInput = Type.Object({
  orderId: Type.String({
    minLength: 1,
    maxLength: ORDER_ID_MAX_LENGTH,
    description: "The caller's order id of the delivered order",
  }),
  projectIds: Type.Optional(
    Type.Array(Type.String({ maxLength: PROJECT_ID_MAX_LENGTH }), {
      minItems: 1,
      maxItems: MAX_PROJECTS_PER_ORDER,
      description: 'Only these lines; every line of the order when left out',
    }),
  ),
  reason: Type.Enum(CLAIM_REASONS, { type: 'string', description: 'What went wrong' }),
  note: Type.Optional(
    Type.String({
      maxLength: MAX_CLAIM_NOTE_LENGTH,
      description: "The customer's or the shop's words, kept with the claim",
    }),
  ),
  photos: Type.Optional(
    Type.Array(Type.String({ maxLength: MAX_URL_LENGTH, pattern: '^https?://', description: 'An http(s) URL' }), {
      maxItems: MAX_CLAIM_PHOTOS,
      description: 'URLs of evidence photos, kept with the claim as sent (never fetched)',
    }),
  ),
});

export type ClaimInput = Static<typeof ClaimInput>;
