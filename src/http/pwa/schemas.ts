import { Type } from 'typebox';
import { MAX_DELETE_IDS, MAX_PROJECT_PAGE_SIZE, MAX_PROJECTS_PER_ORDER } from '../../domain/limits';
import { ORDER_ID_MAX_LENGTH, PROJECT_ID_MAX_LENGTH, PROJECT_ID_PREFIX } from '../../domain/ids';
import { DELETE_TYPES } from '../../services/projects/project-lifecycle';
import { MAX_EMAIL_LENGTH } from '../../services/projects/user-identity';
import { MAX_URL_LENGTH } from '../../services/projects/photo-input';
import { OwnedProject, ProjectList, ProjectStatusRecord } from '../../services/projects/project-view';
import { PrintInput } from '../../services/orders/print-input';
import { OrderPrintFiles } from '../../services/orders/print-files';
import { CoverDimensionsView } from '../../services/production/cover-dimensions';
import { PreflightView } from '../../services/preflight/preflight-view';
import { ProofView } from '../../services/production/proof-view';
import { OrderValidation } from '../../services/orders/order-validation';
import { QuoteInput } from '../../services/orders/quote-input';
import { ClaimInput } from '../../services/orders/claim-input';
import { GenerateInput } from '../../services/projects/generate-input';
import { QuoteView } from '../../services/orders/quote-view';
import { ActionView, OrderListPage, OrderView } from '../../services/orders/order-view';
import { EventPage, MAX_EVENT_PAGE_SIZE } from '../../services/webhooks/event-log';
import { ORDER_STATUSES } from '../../domain/order-status';
import { MAX_ORDER_PAGE_SIZE } from '../../domain/limits';
import { Message, problemResponses, type OpenApiTag } from '../shared-schemas';

/** The PWA backend family: request and response schemas of each route. */

/** The PWA backend's OpenAPI tags, one per concern. */
export const PWA_TAGS = {
  campaigns: {
    name: 'campaigns',
    description:
      'PWA backend: a CSV becomes one project per row, each announced by a signed webhook; authenticated by the X-Service header',
  },
  orders: { name: 'orders', description: 'PWA backend: printing paid orders; authenticated by the X-Service header' },
  production: {
    name: 'production',
    description:
      'PWA backend: cover sheets and the preflight of a book before it is ordered; authenticated by the X-Service header',
  },
  projects: { name: 'projects', description: 'PWA backend: projects; authenticated by the X-Service header' },
} as const satisfies Record<string, OpenApiTag>;

/** The service checks the full id format, so a malformed id gets its INVALID_PROJECT_ID code. */
const ProjectIdField = Type.String({ maxLength: PROJECT_ID_MAX_LENGTH });
/** A user as queries name it: the userId, or the e-mail used at creation. */
const UserField = Type.String({
  minLength: 1,
  maxLength: MAX_EMAIL_LENGTH,
  description: 'The userId, or the e-mail used at creation',
});
const Callback = Type.String({
  maxLength: MAX_URL_LENGTH,
  description: "An http(s) URL; replaces the project's callback URL",
});
/** Authentication is checked in the plugin's onRequest hook, before validation; this documents it. */
const security = [{ XService: [] }];

export const generateSchema = {
  operationId: 'generateProject',
  tags: [PWA_TAGS.projects.name],
  summary: 'Create a project and get its editor URL',
  description:
    'Creates a project for an end user from a product (sku, psp, market) and optional photos, and answers the URL of the editor to open in a webview or iframe. The photos are downloaded and analysed and the book laid out in the background; the status endpoint reports the progress.',
  security,
  body: GenerateInput,
  response: {
    200: Type.Object({ url: Type.String({ description: 'Editor URL to open in a webview or iframe' }) }),
    ...problemResponses(400, 401, 422),
  },
} as const;

export const listSchema = {
  operationId: 'listProjects',
  tags: [PWA_TAGS.projects.name],
  summary: "List a user's projects",
  description: `Newest first, deleted projects left out, at most ${MAX_PROJECT_PAGE_SIZE} per page; pass the returned cursor for the next page.`,
  security,
  querystring: Type.Object({
    user: UserField,
    cursor: Type.Optional(Type.String({ maxLength: 500, description: 'The cursor of the previous page' })),
  }),
  response: { 200: ProjectList, ...problemResponses(400, 401) },
} as const;

export const statusSchema = {
  operationId: 'getProjectStatus',
  tags: [PWA_TAGS.projects.name],
  summary: "A project's status",
  description:
    'The status of the project and of its photos; once the project was sent to print, also its order status, owner, shipping address and tracking URL.',
  security,
  querystring: Type.Object({
    id: Type.String({
      pattern: `^${PROJECT_ID_PREFIX}`,
      maxLength: PROJECT_ID_MAX_LENGTH,
      description: `Project id, starts with ${PROJECT_ID_PREFIX}`,
    }),
  }),
  response: { 200: ProjectStatusRecord, ...problemResponses(400, 401, 404) },
} as const;

export const printFilesSchema = {
  operationId: 'getOrderPrintFiles',
  tags: [PWA_TAGS.orders.name],
  summary: 'Signed URLs of the print files of an order',
  description:
    "For each line of one of this client's orders (sandbox and live alike): the print-ready PDF and the manifest once rendered, as URLs signed for this caller that expire after FILE_URL_TTL (default 15 minutes). Ask again for fresh ones.",
  security,
  querystring: Type.Object({
    orderId: Type.String({
      minLength: 1,
      maxLength: ORDER_ID_MAX_LENGTH,
      description: "The caller's order id, as sent to /v2/print",
    }),
    projectId: Type.Optional(
      Type.String({ maxLength: PROJECT_ID_MAX_LENGTH, description: 'Only this project of the order' }),
    ),
  }),
  response: { 200: OrderPrintFiles, ...problemResponses(400, 401, 404) },
} as const;

export const deleteSchema = {
  operationId: 'deleteProjects',
  tags: [PWA_TAGS.projects.name],
  summary: "Delete some of a user's projects",
  description:
    'All ids are checked first; then every project is marked deleted at once, leaves the listings, and its data is removed after the retention period. sync answers once the deletion is committed, async as soon as it is accepted.',
  security,
  body: Type.Object({
    user: UserField,
    type: Type.Enum(DELETE_TYPES, { type: 'string' }),
    ids: Type.Array(ProjectIdField, { minItems: 1, maxItems: MAX_DELETE_IDS }),
  }),
  response: { 200: Message, ...problemResponses(400, 401, 404, 409) },
} as const;

export const duplicateSchema = {
  operationId: 'duplicateProject',
  tags: [PWA_TAGS.projects.name],
  summary: 'Copy a project for the same user',
  description:
    'A copy with a new id, its photos and its book, for the same owner. A project still being built cannot be copied yet (409).',
  security,
  body: Type.Object({ id: ProjectIdField, callback: Type.Optional(Callback) }),
  response: { 200: OwnedProject, ...problemResponses(400, 401, 404, 409) },
} as const;

export const transferSchema = {
  operationId: 'transferProject',
  tags: [PWA_TAGS.projects.name],
  summary: 'Give a project to another user',
  description: "Same id, new owner (a userId or an e-mail address); the project leaves the previous owner's list.",
  security,
  body: Type.Object({ id: ProjectIdField, targetUser: UserField, callback: Type.Optional(Callback) }),
  response: { 200: OwnedProject, ...problemResponses(400, 401, 404) },
} as const;

export const printSchema = {
  operationId: 'printOrder',
  tags: [PWA_TAGS.orders.name],
  summary: 'Print a paid order',
  description:
    'Idempotent on orderId: the same order again answers the same confirmation; another payload under the same orderId is a 409. ' +
    'With quoteId the order must match that quote (409 QUOTE_MISMATCH, QUOTE_EXPIRED). ' +
    "With projects[].proofId the printer gets that proof's files byte for byte, nothing is rendered again; a book changed since the proof is 409 PROOF_STALE (PROOF_EXPIRED, PROOF_USED) and nothing is written. With validateOnly: true every check runs and the answer is {valid, problems}; nothing is written.",
  security,
  body: PrintInput,
  response: { 200: Type.Union([Message, OrderValidation]), ...problemResponses(400, 401, 404, 409, 422) },
} as const;

export const quoteSchema = {
  operationId: 'quoteOrder',
  tags: [PWA_TAGS.orders.name],
  summary: 'Price lines for a market and destination, with shipping levels, tax and delivery dates',
  description:
    'Prices each line (a project, from its book as it is now, or a sku and page count) with exact decimal money, lists every shipping level that reaches the destination with its cost and estimated delivery range, the tax, and the totals for the chosen level. ' +
    'The answer is stored under quoteId until expiresAt; an order sent to /v2/print with that quoteId must match it.',
  security,
  body: QuoteInput,
  response: { 200: QuoteView, ...problemResponses(400, 401, 404, 409) },
} as const;

export const campaignSchema = {
  operationId: 'startCampaign',
  tags: [PWA_TAGS.campaigns.name],
  summary: 'Generate one project per row of a CSV',
  description:
    'Answers at once, naming the URL and the new campaign id; the CSV is then downloaded and worked through. ' +
    "Each good row's project is announced to the client's webhook (signed, Standard Webhooks) when it is editable. " +
    'A webhook must be set for the environment first (409 WEBHOOK_NOT_CONFIGURED otherwise). Progress: GraphQL campaign(id) and campaignProgress(id).',
  security,
  body: Type.Object({
    csvUrl: Type.String({ minLength: 1, maxLength: MAX_URL_LENGTH, description: 'http(s) URL of the CSV to download' }),
  }),
  response: { 200: Message, ...problemResponses(400, 401, 409) },
} as const;

export const coverDimensionsSchema = {
  operationId: 'getCoverDimensions',
  tags: [PWA_TAGS.production.name],
  summary: 'The cover sheet of a product for a page count',
  description:
    "The full cover sheet a book of this product and page count prints on (cover.pdf): total width and height, spine width, bleed, wrap and hinge, and the back, spine and front panels' boxes, in mm and PDF points. The spine grows with the page count by the product's leaf thickness.",
  security,
  querystring: Type.Object({
    sku: Type.String({ minLength: 1, maxLength: 100, description: "The product's sku" }),
    pages: Type.Integer({
      minimum: 0,
      maximum: 100_000,
      description: "Interior pages: even, within the product's min.pages..max.pages",
    }),
  }),
  response: { 200: CoverDimensionsView, ...problemResponses(400, 401, 422) },
} as const;

export const preflightSchema = {
  operationId: 'getProjectPreflight',
  tags: [PWA_TAGS.production.name],
  summary: "Is a project's book ready to print?",
  description:
    "The project's book as it is now, checked for print before it is ordered: failed or missing photos, empty slots, page count, cover texts cut, effective resolution. printable is false when a blocking problem would make POST /v2/print refuse the project (422 NOT_PRINTABLE).",
  security,
  querystring: Type.Object({
    id: Type.String({
      pattern: `^${PROJECT_ID_PREFIX}`,
      maxLength: PROJECT_ID_MAX_LENGTH,
      description: `Project id, starts with ${PROJECT_ID_PREFIX}`,
    }),
  }),
  response: { 200: PreflightView, ...problemResponses(400, 401, 404) },
} as const;

export const proofSchema = {
  operationId: 'proofProject',
  tags: [PWA_TAGS.production.name],
  summary: "Render a project's print files now, to show and to hold the order to",
  description:
    "Renders cover.pdf and interior.pdf from the book as it is now, with the same code and bytes an order's fulfilment would produce, and keeps them until expiresAt (PROOF_TTL). " +
    'Answers each file with its SHA-256, and a signed URL of a watermarked 72 DPI preview PDF to show the customer. ' +
    '/v2/print with projects[].proofId then sends these very files to the printer, or answers 409 PROOF_STALE when the book changed since. ' +
    'Takes about as long as rendering the book (seconds per page); refused like /v2/print for a book not built (409 PROJECT_BUILDING) or not printable (422 NOT_PRINTABLE).',
  security,
  body: Type.Object({
    id: Type.String({
      pattern: `^${PROJECT_ID_PREFIX}`,
      maxLength: PROJECT_ID_MAX_LENGTH,
      description: `Project id, starts with ${PROJECT_ID_PREFIX}`,
    }),
    colorCorrection: Type.Optional(
      Type.Boolean({
        description: "Render as an order with metadata.colorCorrection would (default false); the order's must match",
      }),
    ),
  }),
  response: { 200: ProofView, ...problemResponses(400, 401, 404, 409, 422) },
} as const;

export const readProofSchema = {
  operationId: 'getProof',
  tags: [PWA_TAGS.production.name],
  summary: 'A proof made earlier, with a fresh preview URL',
  description: "One of the client's proofs until it expires (409 PROOF_EXPIRED after); another client's is not found.",
  security,
  querystring: Type.Object({
    proofId: Type.String({ minLength: 1, maxLength: 30, description: 'As POST /v2/project/proof answered it' }),
  }),
  response: { 200: ProofView, ...problemResponses(400, 401, 404, 409) },
} as const;

const OrderIdField = Type.String({
  minLength: 1,
  maxLength: ORDER_ID_MAX_LENGTH,
  description: "The caller's order id, as sent to /v2/print",
});
const DateFilter = (what: string) =>
  Type.String({
    maxLength: 40,
    description: `${what}: an ISO 8601 date (2026-11-01, UTC midnight) or date-time with a time zone`,
  });
const actionsNote =
  "Allowed along the order-status table (docs/api.md, Order actions); a refused action is a 409 ACTION_NOT_AVAILABLE naming the action and the line's status, and changes nothing. Idempotent with an Idempotency-Key.";

export const orderSchema = {
  operationId: 'getOrder',
  tags: [PWA_TAGS.orders.name],
  summary: 'One order',
  description:
    'The order with its lines, statuses, display statuses, tracking (carrier, tracking number and URL per parcel, shipped and delivered times), the shipping level, the print files and the actions available now.',
  security,
  querystring: Type.Object({ orderId: OrderIdField }),
  response: { 200: OrderView, ...problemResponses(400, 401, 404) },
} as const;

export const orderListSchema = {
  operationId: 'listOrders',
  tags: [PWA_TAGS.orders.name],
  summary: "The client's orders",
  description:
    `Newest first, keyset-paged (at most ${MAX_ORDER_PAGE_SIZE} a page, 20 by default); pass the returned cursor for the next page. ` +
    "Filters: a line in `status`, created in [createdAfter, createdBefore), the owner's e-mail, the order id, " +
    "the customer's name or e-mail (words, any case).",
  security,
  querystring: Type.Object({
    status: Type.Optional(
      Type.Enum(ORDER_STATUSES, { type: 'string', description: 'Orders with a line in this status' }),
    ),
    createdAfter: Type.Optional(DateFilter('Created at or after')),
    createdBefore: Type.Optional(DateFilter('Created before')),
    email: Type.Optional(Type.String({ maxLength: MAX_EMAIL_LENGTH, description: "The owner's e-mail" })),
    orderId: Type.Optional(
      Type.String({ minLength: 1, maxLength: ORDER_ID_MAX_LENGTH, description: 'The order with this id' }),
    ),
    customer: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 320,
        description: 'Each word found, in any case, in the first name, last name or e-mail',
      }),
    ),
    cursor: Type.Optional(Type.String({ maxLength: 500, description: 'The cursor of the previous page' })),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_ORDER_PAGE_SIZE, description: 'Orders a page (default 20)' }),
    ),
  }),
  response: { 200: OrderListPage, ...problemResponses(400, 401) },
} as const;

export const orderActionsSchema = {
  operationId: 'getOrderActions',
  tags: [PWA_TAGS.orders.name],
  summary: 'What can still be done to an order',
  description:
    "Each action (cancel, update-recipient, update-shipping, claim) with `available` and, when not, the reason naming the line and its status; an available claim says `until` when; while the shop's hold window is open, `holdUntil` and each available action's `until` say until when.",
  security,
  querystring: Type.Object({ orderId: OrderIdField }),
  response: {
    200: Type.Object({
      orderId: Type.String(),
      holdUntil: Type.Optional(
        Type.Integer({
          description:
            "Unix milliseconds: the end of the shop's hold window while it is open; cancel and recipient or shipping changes are free until then, and the order goes to the printer then",
        }),
      ),
      actions: Type.Array(ActionView),
    }),
    ...problemResponses(400, 401, 404),
  },
} as const;

export const cancelOrderSchema = {
  operationId: 'cancelOrder',
  tags: [PWA_TAGS.orders.name],
  summary: 'Cancel an order or some of its lines',
  description: `Until the printer starts production; a job the printer already holds is withdrawn from the printer first. Emits order.line.status_changed per line and order.cancelled. ${actionsNote}`,
  security,
  body: Type.Object({
    orderId: OrderIdField,
    projectIds: Type.Optional(
      Type.Array(ProjectIdField, {
        minItems: 1,
        maxItems: MAX_PROJECTS_PER_ORDER,
        description: 'Only these lines; the whole order when left out',
      }),
    ),
  }),
  response: { 200: OrderView, ...problemResponses(400, 401, 404, 409) },
} as const;

export const updateRecipientSchema = {
  operationId: 'updateOrderRecipient',
  tags: [PWA_TAGS.orders.name],
  summary: "Correct the recipient's name, telephone or address",
  description: `Until the print job is sent, checked as /v2/print checks it; the print job then carries the new recipient. Emits order.updated. ${actionsNote}`,
  security,
  body: Type.Object({ orderId: OrderIdField, user: PrintInput.properties.user }),
  response: { 200: OrderView, ...problemResponses(400, 401, 404, 409) },
} as const;

export const updateShippingSchema = {
  operationId: 'updateOrderShipping',
  tags: [PWA_TAGS.orders.name],
  summary: 'Change the shipping method',
  description: `Until the print job is sent; the cost paid stays as it was. Emits order.updated. ${actionsNote}`,
  security,
  body: Type.Object({
    orderId: OrderIdField,
    shipping: Type.Object({ method: Type.String({ minLength: 1, maxLength: 100, description: 'The shipping level' }) }),
  }),
  response: { 200: OrderView, ...problemResponses(400, 401, 404, 409) },
} as const;

export const claimOrderSchema = {
  operationId: 'claimOrder',
  tags: [PWA_TAGS.orders.name],
  summary: 'Claim a damaged, misprinted or lost book: get a remake',
  description: `From delivering until the claim window after delivery (CLAIM_WINDOW, 30 days by default). Answers the remake: a new order at no charge, to the same recipient, that prints the original lines' files again (the same bytes, nothing rendered again) and is sent to the printer like any order; its remakeOf names the original, whose remakes list it. Emits order.claim.created (the original) and order.remake.created (the remake). ${actionsNote}`,
  security,
  body: ClaimInput,
  response: { 200: OrderView, ...problemResponses(400, 401, 404, 409) },
} as const;

export const eventsSchema = {
  operationId: 'listEvents',
  tags: [PWA_TAGS.orders.name],
  summary: "Events the client's webhook was sent, to catch up",
  description: `In the order they happened, after the event \`after\` (the last one the caller has), at most ${MAX_EVENT_PAGE_SIZE} a page; \`cursor\` is present while more follow. \`types\` is a comma-separated list of event types.`,
  security,
  querystring: Type.Object({
    after: Type.Optional(Type.String({ maxLength: 40, description: 'An event id (evt_…)' })),
    types: Type.Optional(
      Type.String({ maxLength: 500, description: 'Comma-separated event types; every type when left out' }),
    ),
    orderId: Type.Optional(OrderIdField),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_EVENT_PAGE_SIZE })),
  }),
  response: { 200: EventPage, ...problemResponses(400, 401, 404) },
} as const;
