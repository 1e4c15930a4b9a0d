import { Type } from 'typebox';
import { ENVIRONMENTS } from '../../domain/environment';
import { CatalogueView } from '../../services/catalogue/catalogue-view';
import { SUPPORTED_PRINT_TYPES, SUPPORTED_SCHEMAS } from '../../services/catalogue/catalogue-service';
import { MarketListing } from '../../services/markets/market-view';
import { OrderHistoryPage } from '../../services/orders/order-history-view';
import { ORDER_HISTORY_PAGE_SIZE } from '../../domain/limits';
import { MAX_EMAIL_LENGTH } from '../../services/projects/user-identity';
import { problemResponses, type OpenApiTag } from '../shared-schemas';

/** The eCommerce family: every body carries the environment and its API key. */
const credentials = {
  env: Type.Enum(ENVIRONMENTS, { type: 'string', description: 'Environment: dev (sandbox) or prod' }),
  key: Type.String({ minLength: 1, description: "The environment's API key" }),
};

const language = Type.Optional(
  Type.String({
    minLength: 2,
    maxLength: 35,
    description: 'Language code; its first 2 characters are used. Default en',
  }),
);

/** The eCommerce family's OpenAPI tag. */
export const ECOMMERCE_TAGS = {
  eCommerce: {
    name: 'eCommerce',
    description: 'Catalogue, markets and order history; authenticated by env + key in the body',
  },
} as const satisfies Record<string, OpenApiTag>;

export const listProductSchema = {
  operationId: 'listProducts',
  tags: [ECOMMERCE_TAGS.eCommerce.name],
  summary: 'List the catalogue of a market',
  description: 'Products, categories, prices and currency of one market, in one language.',
  body: Type.Object({
    ...credentials,
    language,
    os: Type.String({ minLength: 1, description: 'Target platform; web for the PWA' }),
    v: Type.Optional(Type.Integer({ minimum: 0, description: 'Returns products tagged with this value and lower' })),
    schema: Type.Optional(
      Type.Integer({ minimum: 0, description: `Response schema version (${SUPPORTED_SCHEMAS.join(', ')})` }),
    ),
    marketId: Type.Optional(Type.Integer({ minimum: 0, description: 'Default 0' })),
    printType: Type.Optional(
      Type.String({ description: `${SUPPORTED_PRINT_TYPES.join(', ')} (other types are unsupported)` }),
    ),
  }),
  response: { 200: CatalogueView, ...problemResponses(400, 401, 422) },
} as const;

export const getMarketSchema = {
  operationId: 'getMarkets',
  tags: [ECOMMERCE_TAGS.eCommerce.name],
  summary: 'List markets and suggest one for a location',
  description: 'All markets; `suggested` is present only when both latitude and longitude are given.',
  body: Type.Object({
    ...credentials,
    language,
    latitude: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
    longitude: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
  }),
  response: { 200: MarketListing, ...problemResponses(400, 401) },
} as const;

export const orderHistorySchema = {
  operationId: 'getOrderHistory',
  tags: [ECOMMERCE_TAGS.eCommerce.name],
  summary: "A user's order history",
  description: `Newest first, at most ${ORDER_HISTORY_PAGE_SIZE} per page; pass the returned cursor for the next page.`,
  body: Type.Object({
    ...credentials,
    marketId: Type.Optional(Type.Integer({ minimum: 0 })),
    language,
    email: Type.String({ minLength: 3, maxLength: MAX_EMAIL_LENGTH }),
    cursor: Type.Optional(Type.String({ maxLength: 500 })),
  }),
  response: { 200: OrderHistoryPage, ...problemResponses(400, 401) },
} as const;
