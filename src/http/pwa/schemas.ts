import { problemResponses } from '../shared-schemas';
import { PROJECT_ID_MAX_LENGTH, PROJECT_ID_PREFIX, ORDER_ID_MAX_LENGTH } from '../../domain/ids';
import { MAX_DELETE_IDS, MAX_PHOTOS, MAX_PROJECTS_PER_ORDER } from '../../domain/limits';
import { PHOTOS_STATUSES, PROJECT_STATUSES } from '../../domain/project-status';
import { DELETE_TYPES } from '../../services/projects/project-lifecycle';

const projectId = { type: 'string', pattern: `^${PROJECT_ID_PREFIX}`, maxLength: PROJECT_ID_MAX_LENGTH, description: 'Project id, starts with p-' } as const;
const product = {
  type: 'object',
  required: ['psp', 'sku', 'marketId', 'marketIdAlt'],
  properties: { psp: { type: 'string' }, sku: { type: 'string' }, marketId: { type: 'integer' }, marketIdAlt: { type: 'string' } },
} as const;
const projectFields = {
  title: { type: 'string' },
  preview: { type: 'string', description: 'Preview image URL; empty until rendered' },
  id: { type: 'string' },
  createdAt: { type: 'integer', description: 'Unix time in milliseconds' },
  updatedAt: { type: 'integer', description: 'Unix time in milliseconds' },
  expiresAt: { type: 'integer', description: 'Unix time in seconds' },
  product,
  link: { type: 'string' },
} as const;
const statusPair = {
  type: 'object',
  required: ['photos', 'project'],
  properties: {
    photos: { type: 'string', enum: PHOTOS_STATUSES },
    project: { type: 'string', enum: PROJECT_STATUSES },
  },
} as const;
const ownedProject = {
  type: 'object',
  required: ['title', 'preview', 'id', 'endUserId', 'createdAt', 'updatedAt', 'expiresAt', 'product', 'link'],
  properties: { ...projectFields, endUserId: { type: 'string' } },
} as const;
const message = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } as const;
const stringOrNumber = { anyOf: [{ type: 'string', minLength: 1, maxLength: 100 }, { type: 'number' }] } as const;
const httpUrl = { type: 'string', maxLength: 2048, pattern: '^https?://' } as const;
/** Authentication is checked in the plugin's onRequest hook, before validation; this documents it. */
const security = [{ XService: [] }];

export const generateSchema = {
  tags: ['projects'],
  summary: 'Create a project and get its editor URL',
  security,
  body: {
    type: 'object',
    required: ['sku', 'psp', 'marketId'],
    properties: {
      email: { type: 'string', maxLength: 320, description: 'Exactly one of email/userId, or neither (an owner id is generated)' },
      userId: { type: 'string', maxLength: 200, description: 'Pattern [-_]?(?:[A-Za-z0-9]+[-_]?)+' },
      language: { type: 'string', maxLength: 35 },
      sku: { ...stringOrNumber, description: 'a sku or renderOptions.productId (string or number)' },
      psp: { type: 'string', minLength: 1, maxLength: 50, description: 'specifications.psp.name or renderOptions.psp' },
      marketId: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', minLength: 1, maxLength: 50 }], description: 'an integer market id or an alternative id string' },
      photos: {
        type: 'array',
        maxItems: MAX_PHOTOS,
        items: {
          description: 'an http(s) URL or an object {id, url}',
          anyOf: [
            httpUrl,
            {
              type: 'object',
              required: ['url'],
              properties: { id: { type: ['string', 'number'] }, url: httpUrl },
            },
          ],
        },
      },
      metadata: { type: 'object' },
      layoutType: { type: 'string', enum: ['fastbook', 'smartbook'] },
      eCommercePlugin: { type: 'boolean' },
      custom: {
        description: 'an object of asset values by id, or an array of {id, value}',
        anyOf: [
          { type: 'object', additionalProperties: { type: 'string', maxLength: 5000 } },
          {
            type: 'array',
            maxItems: 100,
            items: { type: 'object', required: ['id', 'value'], properties: { id: { type: 'string', minLength: 1, maxLength: 100 }, value: { type: 'string', maxLength: 5000 } } },
          },
        ],
      },
    },
  },
  response: {
    200: { type: 'object', required: ['url'], properties: { url: { type: 'string', description: 'Editor URL to open in a webview or iframe' } } },
    ...problemResponses(400, 401, 422),
  },
} as const;

export const listSchema = {
  tags: ['projects'],
  summary: "List a user's projects",
  security,
  querystring: {
    type: 'object',
    required: ['user'],
    properties: { user: { type: 'string', minLength: 1, maxLength: 320 }, cursor: { type: 'string', maxLength: 500 } },
  },
  response: {
    200: {
      type: 'object',
      required: ['data'],
      properties: {
        data: {
          type: 'array',
          items: {
            type: 'object',
            required: ['title', 'preview', 'id', 'status', 'createdAt', 'updatedAt', 'expiresAt', 'product', 'link', 'ordered'],
            properties: { ...projectFields, status: statusPair, ordered: { type: 'boolean' } },
          },
        },
        cursor: { type: 'string', description: 'Present when another page may exist' },
      },
    },
    ...problemResponses(400, 401),
  },
} as const;

export const statusSchema = {
  tags: ['projects'],
  summary: "A project's status",
  security,
  querystring: { type: 'object', required: ['id'], properties: { id: projectId } },
  response: {
    200: {
      type: 'object',
      required: ['id', 'status'],
      properties: {
        id: { type: 'string' },
        status: {
          type: 'object',
          required: ['photos', 'project'],
          properties: { ...statusPair.properties, order: { type: 'string' } },
        },
        user: {
          type: 'object',
          properties: {
            userId: { type: 'string' },
            email: { type: 'string' },
            actualEmail: { type: 'string' },
            firstName: { type: 'string' },
            lastName: { type: 'string' },
            phone: { type: 'string' },
            shippingAddress: {
              type: 'object',
              properties: {
                line1: { type: 'string' },
                city: { type: 'string' },
                state: { type: 'string' },
                postal: { type: 'string' },
                country: { type: 'string' },
                isoCode2: { type: 'string' },
                isoCode3: { type: 'string' },
              },
            },
          },
        },
        tracking: { type: 'string' },
      },
    },
    ...problemResponses(400, 401, 404),
  },
} as const;

export const deleteSchema = {
  tags: ['projects'],
  summary: "Delete some of a user's projects",
  security,
  body: {
    type: 'object',
    required: ['user', 'type', 'ids'],
    properties: {
      user: { type: 'string', minLength: 1, maxLength: 320 },
      type: { type: 'string', enum: DELETE_TYPES },
      ids: { type: 'array', minItems: 1, maxItems: MAX_DELETE_IDS, items: { type: 'string', maxLength: PROJECT_ID_MAX_LENGTH } },
    },
  },
  response: { 200: message, ...problemResponses(400, 401, 404, 409) },
} as const;

export const duplicateSchema = {
  tags: ['projects'],
  summary: 'Copy a project for the same user',
  security,
  body: {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string', maxLength: PROJECT_ID_MAX_LENGTH }, callback: { type: 'string', maxLength: 2048 } },
  },
  response: { 200: ownedProject, ...problemResponses(400, 401, 404, 409) },
} as const;

export const transferSchema = {
  tags: ['projects'],
  summary: 'Give a project to another user',
  security,
  body: {
    type: 'object',
    required: ['id', 'targetUser'],
    properties: {
      id: { type: 'string', maxLength: PROJECT_ID_MAX_LENGTH },
      targetUser: { type: 'string', minLength: 1, maxLength: 320 },
      callback: { type: 'string', maxLength: 2048 },
    },
  },
  response: { 200: ownedProject, ...problemResponses(400, 401, 404) },
} as const;

const money = { type: 'number', minimum: 0 } as const;

export const printSchema = {
  tags: ['orders'],
  summary: 'Print a paid order',
  description: 'Idempotent on orderId: the same order again answers the same confirmation; another payload under the same orderId is a 409.',
  security,
  body: {
    type: 'object',
    required: ['projects', 'payment', 'user', 'orderId'],
    properties: {
      orderId: { type: 'string', minLength: 1, maxLength: ORDER_ID_MAX_LENGTH, description: "The caller's order id" },
      paymentPending: { type: 'boolean', description: 'Extension: the order is placed before payment; its lines wait (waiting, expiring, last call, abandoned) until GraphQL confirmPayment' },
      projects: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_PROJECTS_PER_ORDER,
        items: {
          type: 'object',
          required: ['id', 'lineItemTotal', 'quantity'],
          properties: {
            id: { type: 'string', maxLength: PROJECT_ID_MAX_LENGTH },
            product: {
              type: 'object',
              properties: {
                psp: { type: 'string', maxLength: 50 },
                sku: { ...stringOrNumber, description: 'a sku or renderOptions.productId (string or number)' },
                marketId: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', minLength: 1, maxLength: 50 }], description: 'an integer market id or an alternative id string' },
              },
            },
            lineItemTotal: money,
            quantity: { type: 'integer', minimum: 1 },
            metadata: { type: 'object', properties: { colorCorrection: { type: 'boolean' }, pageCount: { type: 'integer' }, extraPages: { type: 'integer' } } },
            photos: {
              type: 'array',
              maxItems: MAX_PHOTOS,
              items: {
                description: 'an http(s) URL or an object {id, url}',
                anyOf: [httpUrl, { type: 'object', required: ['url'], properties: { id: { type: ['string', 'number'] }, url: httpUrl } }],
              },
            },
          },
        },
      },
      payment: {
        type: 'object',
        required: ['grandTotal'],
        properties: {
          grandTotal: { type: 'number' },
          coupon: { type: 'object', required: ['value', 'code'], properties: { value: money, code: { type: 'string', maxLength: 100 } } },
          method: { type: 'string', maxLength: 100 },
          reference: { type: 'string', maxLength: 200 },
          shipping: { type: 'object', required: ['cost'], properties: { method: { type: 'string', maxLength: 100 }, cost: money } },
        },
      },
      user: {
        type: 'object',
        required: ['address'],
        properties: {
          firstName: { type: 'string', maxLength: 200 },
          lastName: { type: 'string', maxLength: 200 },
          telephone: { type: 'string', maxLength: 50 },
          address: {
            type: 'object',
            required: ['line1', 'postcode', 'countryIso2'],
            properties: {
              line1: { type: 'string', minLength: 1, maxLength: 300 },
              line2: { type: 'string', maxLength: 300 },
              postcode: { type: 'string', minLength: 1, maxLength: 20 },
              city: { type: 'string', maxLength: 200 },
              state: { type: 'string', maxLength: 200 },
              company: { type: 'string', maxLength: 200 },
              countryIso2: { type: 'string', minLength: 2, maxLength: 2 },
            },
          },
        },
      },
    },
  },
  response: { 200: message, ...problemResponses(400, 401, 404, 409, 422) },
} as const;
