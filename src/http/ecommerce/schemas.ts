import { problemResponses } from '../shared-schemas';

const credentials = {
  env: { type: 'string', enum: ['dev', 'prod'], description: 'Environment: dev (sandbox) or prod' },
  key: { type: 'string', minLength: 1, description: 'The environment\'s API key' },
} as const;
const language = { type: 'string', minLength: 2, maxLength: 35, description: 'Language code; its first 2 characters are used. Default en' } as const;

const richText = {
  type: 'array',
  items: {
    type: 'object',
    required: ['type'],
    properties: { type: { type: 'string' }, text: { type: 'string' }, items: { type: 'array', items: { type: 'string' } } },
  },
} as const;

const attribute = {
  type: 'object',
  required: ['type', 'name', 'subtitle', 'order', 'topSeller', 'disabled'],
  properties: {
    categoryId: { type: 'integer' },
    type: { type: 'string' },
    name: { type: 'string' },
    subtitle: { type: 'string' },
    carousel: {
      type: 'array',
      items: { type: 'object', required: ['image', 'caption'], properties: { image: { type: 'string' }, caption: { type: 'string' } } },
    },
    thumbnail: { type: 'string' },
    description: { type: 'string' },
    descriptionJson: richText,
    order: { type: 'integer' },
    tag: { type: 'string' },
    topSeller: { type: 'boolean' },
    disabled: { type: 'boolean' },
  },
} as const;

const bound = { type: 'object', required: ['photos', 'pages'], properties: { photos: { type: 'integer' }, pages: { type: 'integer' } } } as const;

const product = {
  type: 'object',
  required: ['id', 'sku', 'name', 'description', 'descriptionJson', 'metaTitle', 'thumbnail', 'payment', 'attributes', 'specifications', 'renderOptions', 'disabled'],
  properties: {
    id: { type: 'integer' },
    sku: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string' },
    descriptionJson: richText,
    metaTitle: { type: 'string' },
    thumbnail: { type: 'string', description: 'Path; prepend baseUrl' },
    payment: {
      type: 'object',
      required: ['prices'],
      properties: {
        prices: {
          type: 'array',
          items: {
            type: 'object',
            required: ['price', 'extraCostPerPage'],
            properties: { price: { type: 'number' }, extraCostPerPage: { type: 'number' } },
          },
        },
      },
    },
    attributes: { type: 'array', items: attribute, description: 'The first element is the parent category' },
    specifications: {
      type: 'object',
      required: ['min', 'max', 'psp'],
      properties: {
        min: bound,
        max: bound,
        psp: {
          type: 'object',
          required: ['name', 'leadTime'],
          properties: {
            name: { type: 'string' },
            leadTime: { type: 'object', required: ['value', 'unit'], properties: { value: { type: 'number' }, unit: { type: 'string' } } },
          },
        },
        format: {
          type: 'object',
          description: 'Trim size of one page in millimetres, its bleed, and the print resolution',
          properties: { widthMm: { type: 'number' }, heightMm: { type: 'number' }, bleedMm: { type: 'number' }, dpi: { type: 'integer' } },
        },
      },
    },
    renderOptions: {
      type: 'object',
      required: ['productId', 'psp'],
      properties: { productId: { type: 'string' }, psp: { type: 'string' } },
    },
    disabled: { type: 'boolean' },
  },
} as const;

export const listProductSchema = {
  tags: ['eCommerce'],
  summary: 'List the catalogue of a market',
  description: 'Products, categories, prices and currency of one market, in one language.',
  body: {
    type: 'object',
    required: ['env', 'key', 'os'],
    properties: {
      ...credentials,
      language,
      os: { type: 'string', minLength: 1, description: 'Target platform; web for the PWA' },
      v: { type: 'integer', minimum: 0, description: 'Returns products tagged with this value and lower' },
      schema: { type: 'integer', minimum: 0, description: 'Response schema version (1)' },
      marketId: { type: 'integer', minimum: 0, description: 'Default 0' },
      printType: { type: 'string', description: 'photobook (other types are unsupported)' },
    },
  },
  response: {
    200: {
      type: 'object',
      required: ['baseUrl', 'pricesIncludeTax', 'currency', 'products', 'categories'],
      properties: {
        baseUrl: { type: 'string' },
        pricesIncludeTax: { type: 'boolean' },
        currency: {
          type: 'object',
          required: ['code', 'left', 'right', 'decimals'],
          properties: { code: { type: 'string' }, left: { type: 'string' }, right: { type: 'string' }, decimals: { type: 'integer' } },
        },
        products: { type: 'array', items: product },
        categories: {
          type: 'array',
          items: {
            type: 'object',
            required: ['categoryId', 'type', 'name', 'thumbnail', 'products'],
            properties: {
              categoryId: { type: 'integer' },
              type: { type: 'string' },
              name: { type: 'string' },
              thumbnail: { type: 'string' },
              products: { type: 'array', items: { type: 'integer' } },
            },
          },
        },
      },
    },
    ...problemResponses(400, 401, 422),
  },
} as const;

const market = {
  type: 'object',
  required: ['marketId', 'storeName', 'isoCode2', 'currency', 'shipsWithin'],
  properties: {
    marketId: { type: 'integer' },
    marketIdAlt: { type: 'string' },
    storeName: { type: 'string' },
    isoCode2: { type: 'string' },
    currency: { type: 'string' },
    shipsWithin: {
      type: 'array',
      items: { type: 'object', required: ['isoCode2', 'name'], properties: { isoCode2: { type: 'string' }, name: { type: 'string' } } },
    },
  },
} as const;

export const getMarketSchema = {
  tags: ['eCommerce'],
  summary: 'List markets and suggest one for a location',
  description: 'All markets; `suggested` is present only when both latitude and longitude are given.',
  body: {
    type: 'object',
    required: ['env', 'key'],
    properties: {
      ...credentials,
      language,
      latitude: { type: 'number', minimum: -90, maximum: 90 },
      longitude: { type: 'number', minimum: -180, maximum: 180 },
    },
  },
  response: {
    200: {
      type: 'object',
      required: ['results'],
      properties: { results: { type: 'array', items: market }, suggested: market },
    },
    ...problemResponses(400, 401),
  },
} as const;

const historyEntry = {
  type: 'object',
  required: ['orderId', 'displayDate', 'date', 'timestamp', 'email', 'sourceOrderId', 'orders', 'orderStatus', 'shippingAddress', 'shippingCost', 'voucher', 'voucherAmount', 'subTotal', 'grandTotal'],
  properties: {
    orderId: { type: 'string' },
    displayDate: { type: 'string', description: 'DD-MM-YYYY HH:mm in the server time zone' },
    date: { type: 'string', description: 'YYYY-MM-DD HH:mm:ss' },
    timestamp: { type: 'integer', description: 'Unix seconds' },
    email: { type: 'string' },
    sourceOrderId: { type: 'string' },
    orders: {
      type: 'array',
      items: {
        type: 'object',
        required: ['title', 'coverPreview', 'quantity', 'total', 'product', 'displayStatus'],
        properties: {
          title: { type: 'string' },
          coverPreview: { type: 'string' },
          quantity: { type: 'integer' },
          total: { type: 'number' },
          product: {
            type: 'object',
            required: ['name', 'basePrice', 'extraCostPerPage'],
            properties: { name: { type: 'string' }, basePrice: { type: 'number' }, extraCostPerPage: { type: 'number' } },
          },
          displayStatus: { type: 'string' },
        },
      },
    },
    orderStatus: { type: 'string' },
    shippingAddress: {
      type: 'object',
      required: ['firstname', 'lastname', 'address_1', 'city', 'postcode', 'state', 'country'],
      properties: {
        firstname: { type: 'string' },
        lastname: { type: 'string' },
        address_1: { type: 'string' },
        address_2: { type: 'string' },
        city: { type: 'string' },
        postcode: { type: 'string' },
        state: { type: 'string' },
        country: { type: 'string' },
      },
    },
    shippingCost: { type: 'number' },
    voucher: { type: 'string' },
    voucherAmount: { type: 'number' },
    subTotal: { type: 'number' },
    grandTotal: { type: 'number' },
  },
} as const;

export const orderHistorySchema = {
  tags: ['eCommerce'],
  summary: "A user's order history",
  description: 'Newest first, at most 10 per page; pass the returned cursor for the next page.',
  body: {
    type: 'object',
    required: ['env', 'key', 'email'],
    properties: {
      ...credentials,
      marketId: { type: 'integer', minimum: 0 },
      language,
      email: { type: 'string', minLength: 3, maxLength: 320 },
      cursor: { type: 'string', maxLength: 500 },
    },
  },
  response: {
    200: { type: 'object', required: ['results'], properties: { results: { type: 'array', items: historyEntry }, cursor: { type: 'string' } } },
    ...problemResponses(400, 401),
  },
} as const;
