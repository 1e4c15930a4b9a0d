/* eslint-disable */
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = T | null | undefined;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** A date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.This scalar is serialized to a string in ISO 8601 format and parsed from a string in ISO 8601 format. */
  DateTimeISO: { input: string; output: string; }
  /** The `JSONObject` scalar type represents JSON objects as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf). */
  JSONObject: { input: Record<string, unknown>; output: Record<string, unknown>; }
};

export type AddressInput = {
  city?: InputMaybe<Scalars['String']['input']>;
  company?: InputMaybe<Scalars['String']['input']>;
  countryIso2: Scalars['String']['input'];
  line1: Scalars['String']['input'];
  line2?: InputMaybe<Scalars['String']['input']>;
  postcode: Scalars['String']['input'];
  state?: InputMaybe<Scalars['String']['input']>;
};

/** A category (first) or a variation such as the size of a product */
export type Attribute = {
  __typename?: 'Attribute';
  carousel?: Maybe<Array<CarouselSlide>>;
  /** Category entries only */
  categoryId?: Maybe<Scalars['Int']['output']>;
  /** Single-string description; use this or descriptionJson */
  description: Scalars['String']['output'];
  descriptionJson: Array<RichTextBlock>;
  disabled: Scalars['Boolean']['output'];
  name: Scalars['String']['output'];
  order: Scalars['Int']['output'];
  subtitle: Scalars['String']['output'];
  tag?: Maybe<Scalars['String']['output']>;
  /** Path; prepend baseUrl */
  thumbnail: Scalars['String']['output'];
  topSeller: Scalars['Boolean']['output'];
  /** `category` for categories, otherwise the variation type (size...) */
  type: Scalars['String']['output'];
};

export type BookCover = {
  __typename?: 'BookCover';
  photoId?: Maybe<Scalars['String']['output']>;
  subtitle?: Maybe<Scalars['String']['output']>;
  texts: Array<TextSlot>;
  title: Scalars['String']['output'];
};

export type BookPage = {
  __typename?: 'BookPage';
  /** Text boxes the customer placed on the page */
  captions: Array<PageCaption>;
  layout: Scalars['String']['output'];
  number: Scalars['Int']['output'];
  photos: Array<PhotoSlot>;
  texts: Array<TextSlot>;
};

/** A new revision of a project's book: an edit, an undo or a redo, as it committed */
export type BookRevision = {
  __typename?: 'BookRevision';
  /** The edit that made it, as its mutation is named (`undo movePage`...) */
  edit: Scalars['String']['output'];
  occurredAt: Scalars['DateTimeISO']['output'];
  projectId: Scalars['ID']['output'];
  revision: Scalars['Int']['output'];
  /** The event sequence, to resume with afterSequence */
  sequence: Scalars['Int']['output'];
};

export type Bound = {
  __typename?: 'Bound';
  pages: Scalars['Int']['output'];
  photos: Scalars['Int']['output'];
};

/** A CSV import: one project per good row, each announced to the webhook */
export type Campaign = {
  __typename?: 'Campaign';
  counts: CampaignCounts;
  createdAt: Scalars['DateTimeISO']['output'];
  csvUrl: Scalars['String']['output'];
  /** Webhook deliveries of this campaign, oldest first, with their attempts */
  deliveries: WebhookDeliveryConnection;
  finishedAt?: Maybe<Scalars['DateTimeISO']['output']>;
  id: Scalars['ID']['output'];
  /** Why the campaign failed (its file, never a row) */
  reason?: Maybe<Scalars['String']['output']>;
  /** Rows in file order, each with its line, reference, project, state and reason */
  rows: CampaignRowConnection;
  status: CampaignStatus;
  updatedAt: Scalars['DateTimeISO']['output'];
};


/** A CSV import: one project per good row, each announced to the webhook */
export type CampaignDeliveriesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
};


/** A CSV import: one project per good row, each announced to the webhook */
export type CampaignRowsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  state?: InputMaybe<CampaignRowState>;
};

export type CampaignConnection = {
  __typename?: 'CampaignConnection';
  edges: Array<CampaignEdge>;
  pageInfo: PageInfo;
};

/** How far a campaign got */
export type CampaignCounts = {
  __typename?: 'CampaignCounts';
  /** Rows whose reference already had a project (not generated or notified again) */
  duplicate: Scalars['Int']['output'];
  /** Rows refused (invalid) plus rows whose project or delivery failed */
  failed: Scalars['Int']['output'];
  /** Rows whose project exists */
  generated: Scalars['Int']['output'];
  /** Rows refused, each with its line and reason */
  invalid: Scalars['Int']['output'];
  /** Rows whose project was announced to the shop's webhook */
  notified: Scalars['Int']['output'];
  /** Data rows in the file (the header not counted) */
  rows: Scalars['Int']['output'];
};

export type CampaignEdge = {
  __typename?: 'CampaignEdge';
  cursor: Scalars['String']['output'];
  node: Campaign;
};

/** A campaign's status and counts, as they change */
export type CampaignProgress = {
  __typename?: 'CampaignProgress';
  campaignId: Scalars['ID']['output'];
  counts: CampaignCounts;
  occurredAt: Scalars['DateTimeISO']['output'];
  reason?: Maybe<Scalars['String']['output']>;
  /** Grows with every report of this campaign */
  sequence: Scalars['Int']['output'];
  status: CampaignStatus;
};

/** One row of the CSV and what became of it */
export type CampaignRow = {
  __typename?: 'CampaignRow';
  /** Line of the row in the file; the header is line 1 */
  line: Scalars['Int']['output'];
  projectId?: Maybe<Scalars['String']['output']>;
  /** Why the row is invalid, duplicate or failed */
  reason?: Maybe<Scalars['String']['output']>;
  reference?: Maybe<Scalars['String']['output']>;
  state: CampaignRowState;
};

export type CampaignRowConnection = {
  __typename?: 'CampaignRowConnection';
  edges: Array<CampaignRowEdge>;
  pageInfo: PageInfo;
};

export type CampaignRowEdge = {
  __typename?: 'CampaignRowEdge';
  cursor: Scalars['String']['output'];
  node: CampaignRow;
};

/** What became of one CSV row */
export type CampaignRowState =
  | 'duplicate'
  | 'failed'
  | 'generated'
  | 'invalid'
  | 'notified'
  | 'pending';

/** importing -> generating -> notifying -> completed, or importing -> failed */
export type CampaignStatus =
  | 'completed'
  | 'failed'
  | 'generating'
  | 'importing'
  | 'notifying';

export type CarouselSlide = {
  __typename?: 'CarouselSlide';
  caption: Scalars['String']['output'];
  /** Path; prepend baseUrl */
  image: Scalars['String']['output'];
};

/** The catalogue as one market sees it */
export type Catalogue = {
  __typename?: 'Catalogue';
  /** Prepend to image paths */
  baseUrl: Scalars['String']['output'];
  categories: Array<CategoryEntry>;
  currency: Currency;
  pricesIncludeTax: Scalars['Boolean']['output'];
  products: Array<Product>;
};

export type CategoryEntry = {
  __typename?: 'CategoryEntry';
  categoryId: Scalars['Int']['output'];
  name: Scalars['String']['output'];
  /** Ids of the products in this category */
  products: Array<Scalars['Int']['output']>;
  thumbnail: Scalars['String']['output'];
  type: Scalars['String']['output'];
};

/** Why a delivered book is claimed */
export type ClaimReason =
  | 'damaged'
  | 'lost'
  | 'misprint'
  | 'other';

/** One event as webhooks send it and GET /v2/events answers it */
export type ClientEvent = {
  __typename?: 'ClientEvent';
  data: Scalars['JSONObject']['output'];
  /** evt_…: stable; the webhook-id of its deliveries */
  id: Scalars['String']['output'];
  occurredAt: Scalars['DateTimeISO']['output'];
  /** The order line's status-event sequence (line events) */
  sequence?: Maybe<Scalars['Int']['output']>;
  type: Scalars['String']['output'];
};

export type ClientEventPage = {
  __typename?: 'ClientEventPage';
  /** Present while more events follow: pass it as after */
  cursor?: Maybe<Scalars['String']['output']>;
  events: Array<ClientEvent>;
};

export type CouponInput = {
  code: Scalars['String']['input'];
  /** 0 to 1000000000, in the currency's major units; at most the line items' subtotal */
  value: Scalars['Float']['input'];
};

/** The cover sheet a book of a product and page count prints on (cover.pdf), REST: GET /v2/product/cover-dimensions */
export type CoverDimensions = {
  __typename?: 'CoverDimensions';
  back: SheetBox;
  /** hardcover, softcover or layflat */
  binding: Scalars['String']['output'];
  bleedMm: Scalars['Float']['output'];
  front: SheetBox;
  heightMm: Scalars['Float']['output'];
  heightPt: Scalars['Float']['output'];
  /** Between each board and the spine; 0 for a softcover */
  hingeMm: Scalars['Float']['output'];
  /** Interior pages the sheet is computed for */
  pages: Scalars['Int']['output'];
  sku: Scalars['String']['output'];
  spine: SheetBox;
  /** Whether the spine carries text; a thinner spine is left blank */
  spineText: Scalars['Boolean']['output'];
  /** Leaves x leafThicknessMm + 2 x boardThicknessMm */
  spineWidthMm: Scalars['Float']['output'];
  /** The sheet as cut (the PDF TrimBox) */
  trim: SheetBox;
  /** The whole sheet, bleed included (the PDF MediaBox) */
  widthMm: Scalars['Float']['output'];
  widthPt: Scalars['Float']['output'];
  /** Turned in over the boards on every side; 0 for a softcover */
  wrapMm: Scalars['Float']['output'];
};

/** The part of the upright photo a slot shows, 0..1 of the photo's width and height */
export type CropRect = {
  __typename?: 'CropRect';
  height: Scalars['Float']['output'];
  left: Scalars['Float']['output'];
  top: Scalars['Float']['output'];
  width: Scalars['Float']['output'];
};

/** How prices are displayed: left + value with `decimals` places + right */
export type Currency = {
  __typename?: 'Currency';
  code: Scalars['String']['output'];
  decimals: Scalars['Int']['output'];
  left: Scalars['String']['output'];
  right: Scalars['String']['output'];
};

export type DayRange = {
  __typename?: 'DayRange';
  max: Scalars['Int']['output'];
  min: Scalars['Int']['output'];
};

export type DeleteProjectsPayload = {
  __typename?: 'DeleteProjectsPayload';
  ids: Array<Scalars['String']['output']>;
};

export type DeleteType =
  | 'async'
  | 'sync';

export type DeliveryRange = {
  __typename?: 'DeliveryRange';
  /** YYYY-MM-DD */
  earliest: Scalars['String']['output'];
  /** YYYY-MM-DD */
  latest: Scalars['String']['output'];
};

/** Statuses the eCommerce side may set */
export type EcommerceOrderStatus =
  | 'cancelled'
  | 'refunded';

/** A face found in a photo: a box in 0..1 of the upright photo's width and height, and the detector's confidence */
export type FaceBox = {
  __typename?: 'FaceBox';
  height: Scalars['Float']['output'];
  /** 0..1 */
  score: Scalars['Float']['output'];
  width: Scalars['Float']['output'];
  x: Scalars['Float']['output'];
  y: Scalars['Float']['output'];
};

/** A photo of the project that could not be used, and why */
export type FailedPhoto = {
  __typename?: 'FailedPhoto';
  /** The id the client gave with the URL */
  clientPhotoId?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  problem: PhotoProblem;
  url: Scalars['String']['output'];
};

export type GenerateProjectInput = {
  /** URL told (signed) when the project is editable */
  callback?: InputMaybe<Scalars['String']['input']>;
  /** Template asset values by id */
  custom?: InputMaybe<Scalars['JSONObject']['input']>;
  eCommercePlugin?: InputMaybe<Scalars['Boolean']['input']>;
  /** Exactly one of email/userId, or neither */
  email?: InputMaybe<Scalars['String']['input']>;
  language?: InputMaybe<Scalars['String']['input']>;
  layoutType?: InputMaybe<LayoutType>;
  /** Integer id or alternative id */
  marketId: Scalars['String']['input'];
  metadata?: InputMaybe<Scalars['JSONObject']['input']>;
  photos?: InputMaybe<Array<PhotoInput>>;
  psp: Scalars['String']['input'];
  /** sku or renderOptions.productId */
  sku: Scalars['String']['input'];
  userId?: InputMaybe<Scalars['String']['input']>;
};

export type GenerateProjectPayload = {
  __typename?: 'GenerateProjectPayload';
  project: Project;
  /** Editor URL */
  url: Scalars['String']['output'];
};

export type IssuedWebhook = {
  __typename?: 'IssuedWebhook';
  /** After a rotation: until when the replaced secret still signs beside the new one (WEBHOOK_SECRET_OVERLAP) */
  previousSecretExpiresAt?: Maybe<Scalars['DateTimeISO']['output']>;
  /** The whsec_ signing secret: shown only when issued (first set, or rotation) */
  secret?: Maybe<Scalars['String']['output']>;
  url: Scalars['String']['output'];
};

/** How the book is laid out from the photos */
export type LayoutType =
  | 'fastbook'
  | 'smartbook';

export type LeadTime = {
  __typename?: 'LeadTime';
  unit: Scalars['String']['output'];
  value: Scalars['Float']['output'];
};

/** How an order line was routed to its printer */
export type LineRouting = {
  __typename?: 'LineRouting';
  decisions: Array<RoutingDecision>;
  /** The printer that holds the job, once one accepted it */
  printer?: Maybe<Scalars['String']['output']>;
  /** The printers chosen, tried in this order */
  printers: Array<Scalars['String']['output']>;
  /** The shop's rule that chose them (0-based); null: the default */
  rule?: Maybe<Scalars['Int']['output']>;
};

export type Market = {
  __typename?: 'Market';
  /** Currency code */
  currency: Scalars['String']['output'];
  isoCode2: Scalars['String']['output'];
  /** 0 is the default market */
  marketId: Scalars['Int']['output'];
  marketIdAlt: Scalars['String']['output'];
  shippingLevels: Array<MarketShippingLevel>;
  shipsWithin: Array<ShipsWithinArea>;
  storeName: Scalars['String']['output'];
};

export type MarketListing = {
  __typename?: 'MarketListing';
  results: Array<Market>;
  /** Present only when latitude and longitude were given */
  suggested?: Maybe<Market>;
};

/** A way of shipping the orders of a market */
export type MarketShippingLevel = {
  __typename?: 'MarketShippingLevel';
  code: Scalars['String']['output'];
  /** the level an order without a known method ships with */
  default: Scalars['Boolean']['output'];
  destinations: Array<ShippingDestination>;
  name: Scalars['String']['output'];
  /** per order, in the market's currency */
  price: Scalars['Float']['output'];
};

export type Mutation = {
  __typename?: 'Mutation';
  /** Insert two blank pages after page `after` (0: at the front), within the product's maximum */
  addPages: Project;
  /** Cancel the order, or the listed projects of it, until the printer starts production (REST: POST /v2/order/cancel) */
  cancelOrder: Order;
  /** Claim delivered lines (all when projectIds is left out) as damaged, misprinted or lost, within the claim window: answers the remake, a new order at no charge that prints the same files again (REST: POST /v2/order/claim) */
  claimOrder: Order;
  /** The payment of an order placed with paymentPending arrived */
  confirmPayment: Order;
  /** Delete some of a user's projects (REST: project/delete) */
  deleteProjects: DeleteProjectsPayload;
  /** Copy a project for the same user (REST: project/duplicate) */
  duplicateProject: Project;
  /** Send events again to the webhook after it was disabled for failing. The events it missed stay on the catch-up feed (events, GET /v2/events); with redeliver, those since its failing began that did not reach it are sent again, in order, as the same events */
  enableWebhook: Webhook;
  /** Create a project and get its editor URL (REST: generate) */
  generateProject: GenerateProjectPayload;
  /** Move an interior page to another position; the pages are renumbered */
  movePage: Project;
  /** Move a photo to a free slot of another page (a blank page becomes a one-photo page) */
  movePhoto: Project;
  /** Put one of the project's photos into the book by its id (an upload's id is its photo's): into `slot` (the photo there goes back to the unused photos, the slot's crop to automatic) or into a free slot of page `toPage`; give one of the two. A photo already in the book moves there instead (swapped with the slot's photo, or moved to the page). The photo must be the project's and analysed (status idle) */
  placePhoto: Project;
  /** Print a paid order (REST: /v2/print); idempotent on orderId */
  printOrder: PrintOrderPayload;
  /** Render the project's print files now; printOrder with projects[].proofId prints exactly them, or is refused with PROOF_STALE once the book changed (REST: POST /v2/project/proof) */
  proofProject: Proof;
  /** Price lines for a market and destination; the answer is stored as a quote an order can name (REST: POST /v2/quote) */
  quote: Quote;
  /** Apply again the latest undone edit (none once an edit came after the undo); a revision itself */
  redo: Project;
  /** Remove an even number of pages, keeping the product's minimum */
  removePages: Project;
  /** Remove the account with a partner; its callback URL stops working */
  removePartnerAccount: Scalars['Boolean']['output'];
  /** Send a failed delivery again: same event and webhook-id, new attempts */
  replayWebhook: WebhookDelivery;
  /** Replace the signing secret; the new one is shown once and signs every later attempt, the replaced one beside it until previousSecretExpiresAt (WEBHOOK_SECRET_OVERLAP, 24 h by default) */
  rotateWebhookSecret: IssuedWebhook;
  /** Send a webhook.test event to the webhook through the usual signed, retried, logged path */
  sendTestWebhook: WebhookDelivery;
  /** The cover's title and subtitle (an empty subtitle removes it) */
  setCoverTexts: Project;
  /** Cancel or refund an order, or one project of it (cancel: the same as cancelOrder) */
  setOrderStatus: Order;
  /** Replace the text boxes (captions) of a page; an empty list removes them. Printed in interior.pdf */
  setPageCaptions: Project;
  /** Lay a page out again: full, two-side-by-side, two-stacked, grid-4, blank, centred, hero-left, hero-top, three-columns, three-rows, hero-top-three, hero-left-three, grid-6, spread (refused when it holds fewer photos than the page has); spread runs one photo across an opening of a layflat book, set on its left-hand (even) page whose right-hand page holds no photo */
  setPageLayout: Project;
  /** Set (or replace) the account with a partner; the credentials are sealed and never shown again */
  setPartnerAccount: PartnerAccount;
  /** Set the print routing and hold window; members left out keep their value, orders already routed keep their routing */
  setPrintRouting: PrintRouting;
  /** Crop, zoom and pan the photo of a slot (printed exactly so: PhotoSlot.cropRect); crop null goes back to the automatic crop */
  setSlotCrop: Project;
  /** Set the webhook URL; the first time, the whsec_ signing secret is issued and shown once */
  setWebhook: IssuedWebhook;
  /** Choose the event types the webhook receives; null for every type (the default). Types: order.line.status_changed, order.line.shipped, order.line.delivered, order.line.routing, order.cancelled, order.updated, order.claim.created, order.remake.created, project.ready, project.build_failed, webhook.test, endpoint.disabled */
  setWebhookEventTypes: Array<Scalars['String']['output']>;
  /** Generate one project per row of a CSV (REST: /v2/campaign/auto-generate) */
  startCampaign: StartCampaignPayload;
  /** Swap the photos of two slots, on one page or two */
  swapPhotos: Project;
  /** Give a project to another user (REST: project/transfer) */
  transferProject: Project;
  /** Take back the latest edit not yet undone (kept on the server: it survives a reload); a revision itself */
  undo: Project;
  /** Take the photo of a slot out of the book: it stays among the project's photos (unused, in the editor's tray); the page closes the gap, or becomes blank */
  unplacePhoto: Project;
  /** Correct the recipient before the print job is sent, checked as printOrder checks it (REST: POST /v2/order/update-recipient) */
  updateOrderRecipient: Order;
  /** Change the shipping method before the print job is sent (REST: POST /v2/order/update-shipping) */
  updateOrderShipping: Order;
};


export type MutationAddPagesArgs = {
  after: Scalars['Int']['input'];
  expectedRevision?: InputMaybe<Scalars['Int']['input']>;
  projectId: Scalars['String']['input'];
};


export type MutationCancelOrderArgs = {
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  orderId: Scalars['String']['input'];
  projectIds?: InputMaybe<Array<Scalars['String']['input']>>;
};


export type MutationClaimOrderArgs = {
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  note?: InputMaybe<Scalars['String']['input']>;
  orderId: Scalars['String']['input'];
  photos?: InputMaybe<Array<Scalars['String']['input']>>;
  projectIds?: InputMaybe<Array<Scalars['String']['input']>>;
  reason: ClaimReason;
};


export type MutationConfirmPaymentArgs = {
  orderId: Scalars['String']['input'];
};


export type MutationDeleteProjectsArgs = {
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  ids: Array<Scalars['String']['input']>;
  type?: DeleteType;
  user: Scalars['String']['input'];
};


export type MutationDuplicateProjectArgs = {
  callback?: InputMaybe<Scalars['String']['input']>;
  id: Scalars['String']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
};


export type MutationEnableWebhookArgs = {
  redeliver?: Scalars['Boolean']['input'];
};


export type MutationGenerateProjectArgs = {
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  input: GenerateProjectInput;
};


export type MutationMovePageArgs = {
  expectedRevision?: InputMaybe<Scalars['Int']['input']>;
  from: Scalars['Int']['input'];
  projectId: Scalars['String']['input'];
  to: Scalars['Int']['input'];
};


export type MutationMovePhotoArgs = {
  expectedRevision?: InputMaybe<Scalars['Int']['input']>;
  from: SlotRefInput;
  projectId: Scalars['String']['input'];
  toPage: Scalars['Int']['input'];
};


export type MutationPlacePhotoArgs = {
  expectedRevision?: InputMaybe<Scalars['Int']['input']>;
  photoId: Scalars['String']['input'];
  projectId: Scalars['String']['input'];
  slot?: InputMaybe<SlotRefInput>;
  toPage?: InputMaybe<Scalars['Int']['input']>;
};


export type MutationPrintOrderArgs = {
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  input: PrintOrderInput;
};


export type MutationProofProjectArgs = {
  colorCorrection?: InputMaybe<Scalars['Boolean']['input']>;
  id: Scalars['String']['input'];
};


export type MutationQuoteArgs = {
  input: QuoteInput;
};


export type MutationRedoArgs = {
  expectedRevision?: InputMaybe<Scalars['Int']['input']>;
  projectId: Scalars['String']['input'];
};


export type MutationRemovePagesArgs = {
  expectedRevision?: InputMaybe<Scalars['Int']['input']>;
  pages: Array<Scalars['Int']['input']>;
  projectId: Scalars['String']['input'];
};


export type MutationRemovePartnerAccountArgs = {
  partner: PrintPartner;
};


export type MutationReplayWebhookArgs = {
  deliveryId: Scalars['String']['input'];
};


export type MutationSetCoverTextsArgs = {
  expectedRevision?: InputMaybe<Scalars['Int']['input']>;
  projectId: Scalars['String']['input'];
  subtitle?: InputMaybe<Scalars['String']['input']>;
  title: Scalars['String']['input'];
};


export type MutationSetOrderStatusArgs = {
  orderId: Scalars['String']['input'];
  projectId?: InputMaybe<Scalars['String']['input']>;
  status: EcommerceOrderStatus;
};


export type MutationSetPageCaptionsArgs = {
  captions: Array<PageCaptionInput>;
  expectedRevision?: InputMaybe<Scalars['Int']['input']>;
  page: Scalars['Int']['input'];
  projectId: Scalars['String']['input'];
};


export type MutationSetPageLayoutArgs = {
  expectedRevision?: InputMaybe<Scalars['Int']['input']>;
  layout: Scalars['String']['input'];
  page: Scalars['Int']['input'];
  projectId: Scalars['String']['input'];
};


export type MutationSetPartnerAccountArgs = {
  input: SetPartnerAccountInput;
};


export type MutationSetPrintRoutingArgs = {
  input: PrintRoutingInput;
};


export type MutationSetSlotCropArgs = {
  crop?: InputMaybe<SlotCropInput>;
  expectedRevision?: InputMaybe<Scalars['Int']['input']>;
  projectId: Scalars['String']['input'];
  slot: SlotRefInput;
};


export type MutationSetWebhookArgs = {
  url: Scalars['String']['input'];
};


export type MutationSetWebhookEventTypesArgs = {
  types?: InputMaybe<Array<Scalars['String']['input']>>;
};


export type MutationStartCampaignArgs = {
  csvUrl: Scalars['String']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
};


export type MutationSwapPhotosArgs = {
  a: SlotRefInput;
  b: SlotRefInput;
  expectedRevision?: InputMaybe<Scalars['Int']['input']>;
  projectId: Scalars['String']['input'];
};


export type MutationTransferProjectArgs = {
  callback?: InputMaybe<Scalars['String']['input']>;
  id: Scalars['String']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  targetUser: Scalars['String']['input'];
};


export type MutationUndoArgs = {
  expectedRevision?: InputMaybe<Scalars['Int']['input']>;
  projectId: Scalars['String']['input'];
};


export type MutationUnplacePhotoArgs = {
  expectedRevision?: InputMaybe<Scalars['Int']['input']>;
  projectId: Scalars['String']['input'];
  slot: SlotRefInput;
};


export type MutationUpdateOrderRecipientArgs = {
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  orderId: Scalars['String']['input'];
  user: OrderUserInput;
};


export type MutationUpdateOrderShippingArgs = {
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  orderId: Scalars['String']['input'];
  shipping: ShippingChoiceInput;
};

export type Order = {
  __typename?: 'Order';
  /** The actions and whether each is available now */
  actions: Array<OrderActionAvailability>;
  /** A remake: the claim it was made for */
  claim?: Maybe<OrderClaim>;
  couponCode?: Maybe<Scalars['String']['output']>;
  couponValue: Scalars['Float']['output'];
  createdAt: Scalars['DateTimeISO']['output'];
  currency: Scalars['String']['output'];
  email?: Maybe<Scalars['String']['output']>;
  firstName?: Maybe<Scalars['String']['output']>;
  grandTotal: Scalars['Float']['output'];
  /** The end of the shop's hold window while it is open: the order goes to the printer then */
  holdUntil?: Maybe<Scalars['DateTimeISO']['output']>;
  lastName?: Maybe<Scalars['String']['output']>;
  lines: Array<OrderLine>;
  /** The caller's order id */
  orderId: Scalars['ID']['output'];
  paymentStatus: Scalars['String']['output'];
  /** the quote the order was checked against */
  quoteId?: Maybe<Scalars['String']['output']>;
  /** A remake: the orderId of the order it remakes */
  remakeOf?: Maybe<Scalars['String']['output']>;
  /** The orderIds of the remakes of this order, oldest first */
  remakes: Array<Scalars['String']['output']>;
  shippingAddress: OrderAddress;
  shippingCost: Scalars['Float']['output'];
  /** the code of the market's shipping level the order ships with; null where the market has none */
  shippingLevel?: Maybe<Scalars['String']['output']>;
  /** payment.shipping.method as sent */
  shippingMethod?: Maybe<Scalars['String']['output']>;
  subTotal: Scalars['Float']['output'];
  telephone?: Maybe<Scalars['String']['output']>;
  warnings: Array<OrderWarning>;
};

/** Whether an action can be taken now and, when not, why */
export type OrderActionAvailability = {
  __typename?: 'OrderActionAvailability';
  /** cancel, update-recipient, update-shipping or claim */
  action: Scalars['String']['output'];
  available: Scalars['Boolean']['output'];
  /** Why not, naming the line and its status */
  reason?: Maybe<Scalars['String']['output']>;
  /** While available, until when: a claim, the end of its window; a cancel or change while the shop's hold window is open, the window's end (the order goes to the printer then) */
  until?: Maybe<Scalars['DateTimeISO']['output']>;
};

export type OrderAddress = {
  __typename?: 'OrderAddress';
  city?: Maybe<Scalars['String']['output']>;
  company?: Maybe<Scalars['String']['output']>;
  /** Country name */
  country: Scalars['String']['output'];
  isoCode2: Scalars['String']['output'];
  isoCode3: Scalars['String']['output'];
  line1: Scalars['String']['output'];
  line2?: Maybe<Scalars['String']['output']>;
  postcode: Scalars['String']['output'];
  state?: Maybe<Scalars['String']['output']>;
};

/** The claim a remake was made for (docs/api.md, Claims and remakes) */
export type OrderClaim = {
  __typename?: 'OrderClaim';
  createdAt: Scalars['DateTimeISO']['output'];
  note?: Maybe<Scalars['String']['output']>;
  /** Evidence photo URLs, as sent */
  photos: Array<Scalars['String']['output']>;
  /** The projects claimed: the lines of the remake */
  projectIds: Array<Scalars['String']['output']>;
  reason: ClaimReason;
};

export type OrderConnection = {
  __typename?: 'OrderConnection';
  edges: Array<OrderEdge>;
  pageInfo: PageInfo;
};

export type OrderEdge = {
  __typename?: 'OrderEdge';
  cursor: Scalars['String']['output'];
  node: Order;
};

/** One project of an order and its fulfilment */
export type OrderLine = {
  __typename?: 'OrderLine';
  deliveredAt?: Maybe<Scalars['DateTimeISO']['output']>;
  displayStatus: Scalars['String']['output'];
  /** While `failed processing` because production gave up (not the printer): why; an operator retries it */
  failureReason?: Maybe<Scalars['String']['output']>;
  lineItemTotal: Scalars['Float']['output'];
  pageCount?: Maybe<Scalars['Int']['output']>;
  /** Carrier, tracking number and URL per parcel */
  parcels: Array<Parcel>;
  /** The print files once rendered (sandbox and live); null before */
  printFiles?: Maybe<PrintFiles>;
  projectId: Scalars['String']['output'];
  psp: Scalars['String']['output'];
  quantity: Scalars['Int']['output'];
  /** How the line was routed to its printer; null before */
  routing?: Maybe<LineRouting>;
  shippedAt?: Maybe<Scalars['DateTimeISO']['output']>;
  sku: Scalars['String']['output'];
  /** One of the 28 order statuses */
  status: Scalars['String']['output'];
  statusChangedAt: Scalars['DateTimeISO']['output'];
  title: Scalars['String']['output'];
  /** The first parcel's tracking URL */
  tracking?: Maybe<Scalars['String']['output']>;
  warnings: Array<PrintWarning>;
};

export type OrderProblem = {
  __typename?: 'OrderProblem';
  /** the error code a print would answer */
  code: Scalars['String']['output'];
  message: Scalars['String']['output'];
  /** the field as sent */
  path: Scalars['String']['output'];
};

/** A committed status change of one project of an order */
export type OrderStatusEvent = {
  __typename?: 'OrderStatusEvent';
  occurredAt: Scalars['DateTimeISO']['output'];
  orderId: Scalars['String']['output'];
  projectId: Scalars['String']['output'];
  sequence: Scalars['Int']['output'];
  status: Scalars['String']['output'];
  tracking?: Maybe<Scalars['String']['output']>;
};

export type OrderUserInput = {
  address: AddressInput;
  firstName?: InputMaybe<Scalars['String']['input']>;
  lastName?: InputMaybe<Scalars['String']['input']>;
  telephone?: InputMaybe<Scalars['String']['input']>;
};

/** Every check of printOrder, nothing written (REST: /v2/print with validateOnly) */
export type OrderValidation = {
  __typename?: 'OrderValidation';
  problems: Array<OrderProblem>;
  valid: Scalars['Boolean']['output'];
};

/** Something the service decided for the order, e.g. UNKNOWN_SHIPPING_METHOD */
export type OrderWarning = {
  __typename?: 'OrderWarning';
  code: Scalars['String']['output'];
  message: Scalars['String']['output'];
};

/** A text box on a page: top-left corner and width 0..1 of the page's trim box, size in points, a font shipped with the project */
export type PageCaption = {
  __typename?: 'PageCaption';
  /** Source Sans 3 or Lora */
  font: Scalars['String']['output'];
  sizePt: Scalars['Float']['output'];
  text: Scalars['String']['output'];
  width: Scalars['Float']['output'];
  x: Scalars['Float']['output'];
  y: Scalars['Float']['output'];
};

/** A text box on a page (PageCaption) */
export type PageCaptionInput = {
  /** Source Sans 3 or Lora */
  font: Scalars['String']['input'];
  /** 6 to 72 points */
  sizePt: Scalars['Float']['input'];
  /** At most 500 characters; line breaks kept */
  text: Scalars['String']['input'];
  /** Width, 0..1 of the trim width (x + width at most 1); lines wrap to it */
  width: Scalars['Float']['input'];
  /** Left edge, 0..1 of the page's trim width */
  x: Scalars['Float']['input'];
  /** Top edge, 0..1 of the page's trim height */
  y: Scalars['Float']['input'];
};

/** Trim size of one page, its bleed and the print resolution */
export type PageFormat = {
  __typename?: 'PageFormat';
  bleedMm: Scalars['Float']['output'];
  dpi: Scalars['Int']['output'];
  heightMm: Scalars['Float']['output'];
  widthMm: Scalars['Float']['output'];
};

export type PageInfo = {
  __typename?: 'PageInfo';
  endCursor?: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
};

/** One shipped parcel; any member may be unknown */
export type Parcel = {
  __typename?: 'Parcel';
  carrier?: Maybe<Scalars['String']['output']>;
  trackingNumber?: Maybe<Scalars['String']['output']>;
  trackingUrl?: Maybe<Scalars['String']['output']>;
};

/** The shop's account with a print partner in this environment; its credentials are never shown */
export type PartnerAccount = {
  __typename?: 'PartnerAccount';
  /** Where the partner posts this account's callbacks; secret: it lets callbacks in. Set it at Gelato and Lulu */
  callbackUrl: Scalars['String']['output'];
  /** The last four characters of the API key (Lulu: client key) */
  credentialHint: Scalars['String']['output'];
  env: PartnerEnvironment;
  partner: PrintPartner;
  /** Empty: the adapter defaults (docs/api.md, Printers) */
  shippingMethods: Array<PartnerShippingMethod>;
  updatedAt: Scalars['DateTimeISO']['output'];
};

/** Prodigi and Gelato: apiKey; Lulu: clientKey and clientSecret */
export type PartnerCredentialsInput = {
  apiKey?: InputMaybe<Scalars['String']['input']>;
  clientKey?: InputMaybe<Scalars['String']['input']>;
  clientSecret?: InputMaybe<Scalars['String']['input']>;
};

/** dev: the partner sandbox; prod: live */
export type PartnerEnvironment =
  | 'dev'
  | 'prod';

/** A shipping level of the shop's markets and the partner's shipping method it ships with */
export type PartnerShippingMethod = {
  __typename?: 'PartnerShippingMethod';
  /** The market shipping level code (standard, express, ...) */
  level: Scalars['String']['output'];
  /** The partner's method (Prodigi shippingMethod, Gelato shipmentMethodUid, Lulu shipping_level) */
  method: Scalars['String']['output'];
};

export type PartnerShippingMethodInput = {
  level: Scalars['String']['input'];
  method: Scalars['String']['input'];
};

export type PaymentInput = {
  coupon?: InputMaybe<CouponInput>;
  /** 0 to 1000000000, in the currency's major units */
  grandTotal: Scalars['Float']['input'];
  method?: InputMaybe<Scalars['String']['input']>;
  reference?: InputMaybe<Scalars['String']['input']>;
  shipping?: InputMaybe<ShippingInput>;
};

export type Photo = {
  __typename?: 'Photo';
  /** Template asset this photo fills (from custom), if any */
  assetId?: Maybe<Scalars['String']['output']>;
  capturedAt?: Maybe<Scalars['DateTimeISO']['output']>;
  /** The id the client gave with the URL */
  clientPhotoId?: Maybe<Scalars['String']['output']>;
  /** The smartbook's decision at the last build; null for a fastbook, an asset photo, or before a build */
  curation?: Maybe<PhotoCuration>;
  exifOrientation?: Maybe<Scalars['Int']['output']>;
  /** Where the photo's faces are (largest first), which automatic crops keep inside the print's safe area: [] when the detector found none; null when unknown (not analysed yet, analysed before faces were looked for, or the detector did not run on it), cropped as a photo without faces until they are detected. Boxes only: no identity */
  faces?: Maybe<Array<FaceBox>>;
  height?: Maybe<Scalars['Int']['output']>;
  id: Scalars['ID']['output'];
  problem?: Maybe<PhotoProblem>;
  /** 0..1 */
  quality?: Maybe<Scalars['Float']['output']>;
  /** 0..1 */
  sharpness?: Maybe<Scalars['Float']['output']>;
  /** uploading, analyzing, idle or failed */
  status: Scalars['String']['output'];
  /** A small JPEG of the photo once analysed, for previews */
  thumbnail?: Maybe<Scalars['String']['output']>;
  url: Scalars['String']['output'];
  width?: Maybe<Scalars['Int']['output']>;
};

/** Why a smartbook kept a photo or left it out (docs/api.md, Curation); a photo left out stays in the project and can be placed in the editor */
export type PhotoCuration = {
  __typename?: 'PhotoCuration';
  /** The photo kept for its group of copies or its burst (that photo itself included); null when it stands alone */
  groupId?: Maybe<Scalars['ID']['output']>;
  /** In the book as built */
  kept: Scalars['Boolean']['output'];
  /** duplicate, burst, blurry, exposure or kept; blurry or exposure with kept true: in the book, demoted (no better photo of that moment) */
  reason: Scalars['String']['output'];
  /** 0..1 importance: quality, halved when blurred or badly exposed; more gets more room */
  score: Scalars['Float']['output'];
};

export type PhotoInput = {
  id?: InputMaybe<Scalars['String']['input']>;
  url: Scalars['String']['input'];
};

/** Why a photo could not be used */
export type PhotoProblem = {
  __typename?: 'PhotoProblem';
  /** DOWNLOAD_FAILED, DOWNLOAD_TIME_LIMIT, HTTP_STATUS, NOT_AN_IMAGE, TOO_LARGE, BLOCKED_ADDRESS, ... */
  code: Scalars['String']['output'];
  message: Scalars['String']['output'];
};

export type PhotoSlot = {
  __typename?: 'PhotoSlot';
  /** The crop the customer chose; null: the automatic crop */
  crop?: Maybe<SlotCrop>;
  /** The part of the upright photo this slot shows, from its crop or the automatic one (which keeps the photo's faces inside the print's safe area): the editor draws it and print prints it from these same numbers. Null until the photo is analysed */
  cropRect?: Maybe<CropRect>;
  height: Scalars['Float']['output'];
  photoId: Scalars['String']['output'];
  width: Scalars['Float']['output'];
  x: Scalars['Float']['output'];
  y: Scalars['Float']['output'];
};

/** Whether the project's book can be printed as it is now (REST: GET /v2/project/preflight) */
export type Preflight = {
  __typename?: 'Preflight';
  /** Every photo of the project that failed, in the client's order, with its reason (as Photo.problem) */
  failedPhotos: Array<FailedPhoto>;
  /** No blocking problem: printing accepts the project as it is now */
  printable: Scalars['Boolean']['output'];
  problems: Array<PreflightProblem>;
  /** Distinct photos placed in the book (pages and cover) that can be printed */
  usablePhotos: Scalars['Int']['output'];
};

/** One problem the preflight found in a book */
export type PreflightProblem = {
  __typename?: 'PreflightProblem';
  /** NO_USABLE_PHOTO, TOO_FEW_PHOTOS, PHOTO_FAILED, PHOTO_MISSING, EMPTY_SLOT, BLANK_PAGE, PAGE_COUNT_ODD, PAGE_COUNT_OUT_OF_RANGE, RESOLUTION_TOO_LOW, LOW_RESOLUTION, TEXT_CUT, FACE_ON_FOLD, BOOK_NOT_BUILT */
  code: Scalars['String']['output'];
  message: Scalars['String']['output'];
  /** Interior page, from 1; 0 is the cover; null: the whole book */
  page?: Maybe<Scalars['Int']['output']>;
  /** blocking: printing refuses the project (NOT_PRINTABLE); warning: it prints, but may disappoint */
  severity: Scalars['String']['output'];
  /** Photo slot on the page, from 0 in reading order */
  slot?: Maybe<Scalars['Int']['output']>;
};

export type Price = {
  __typename?: 'Price';
  /** Cost per page beyond the base pages */
  extraCostPerPage: Scalars['Float']['output'];
  /** Base price in the market currency */
  price: Scalars['Float']['output'];
};

/** Signed URLs of a line's print files, valid until expiresAt; ask again for fresh ones */
export type PrintFiles = {
  __typename?: 'PrintFiles';
  /** cover.pdf: the cover sheet (back, spine, front with wrap and bleed) on one page; null for a line rendered before cover sheets */
  coverPdfUrl?: Maybe<Scalars['String']['output']>;
  /** A 1200 px wide JPEG of the rendered cover sheet, to show the spread as it prints; null with coverPdfUrl */
  coverPreviewUrl?: Maybe<Scalars['String']['output']>;
  /** Unix seconds after which the URLs are refused */
  expiresAt: Scalars['Int']['output'];
  /** interior.pdf: the book's interior pages */
  interiorPdfUrl: Scalars['String']['output'];
  /** The job manifest (JSON) naming both PDFs with their sizes and SHA-256 */
  manifestUrl: Scalars['String']['output'];
  /** Pages printed: the cover plus the interior pages */
  pages: Scalars['Int']['output'];
  /**
   * The same as interiorPdfUrl
   * @deprecated Use interiorPdfUrl and coverPdfUrl
   */
  pdfUrl: Scalars['String']['output'];
};

export type PrintOrderInput = {
  orderId: Scalars['String']['input'];
  payment: PaymentInput;
  /** Placed before payment: lines wait for confirmPayment (waiting, expiring, last call, then abandoned) */
  paymentPending?: InputMaybe<Scalars['Boolean']['input']>;
  projects: Array<PrintProjectInput>;
  /** a quote the order must match (QUOTE_MISMATCH, QUOTE_EXPIRED); replaces the totals check */
  quoteId?: InputMaybe<Scalars['String']['input']>;
  user: OrderUserInput;
};

export type PrintOrderPayload = {
  __typename?: 'PrintOrderPayload';
  message: Scalars['String']['output'];
  order: Order;
};

/** A print partner a shop may hold an account with */
export type PrintPartner =
  | 'gelato'
  | 'lulu'
  | 'prodigi';

export type PrintProductInput = {
  marketId?: InputMaybe<Scalars['String']['input']>;
  psp?: InputMaybe<Scalars['String']['input']>;
  sku?: InputMaybe<Scalars['String']['input']>;
};

export type PrintProjectInput = {
  id: Scalars['String']['input'];
  /** 0 to 1000000000, in the currency's major units */
  lineItemTotal: Scalars['Float']['input'];
  /** colorCorrection, pageCount (even, 2 to 1000), extraPages (0 to 1000) and agreed fields */
  metadata?: InputMaybe<Scalars['JSONObject']['input']>;
  /** Replace the project's photos */
  photos?: InputMaybe<Array<PhotoInput>>;
  product?: InputMaybe<PrintProductInput>;
  /** A proof of this project (proofProject): the printer gets its files byte for byte; PROOF_STALE when the book changed since */
  proofId?: InputMaybe<Scalars['String']['input']>;
  /** copies, 1 to 1000 */
  quantity: Scalars['Int']['input'];
};

/** The shop's print routing and hold window in this environment (docs/api.md, Printers and routing) */
export type PrintRouting = {
  __typename?: 'PrintRouting';
  /** Seconds a printer has to accept a job before the next gets it; null: the operator's default */
  acceptTimeoutSeconds?: Maybe<Scalars['Int']['output']>;
  /** The printers of a line no rule matches; empty: the sandbox in dev, PRINTER in prod */
  defaultPrinters: Array<Scalars['String']['output']>;
  /** Seconds between payment and sending to the printer (0: none) */
  holdWindowSeconds: Scalars['Int']['output'];
  rules: Array<RoutingRule>;
};

/** Members left out keep their value */
export type PrintRoutingInput = {
  /** 0: the operator's PRINTER_ACCEPT_TIMEOUT */
  acceptTimeoutSeconds?: InputMaybe<Scalars['Int']['input']>;
  defaultPrinters?: InputMaybe<Array<Scalars['String']['input']>>;
  holdWindowSeconds?: InputMaybe<Scalars['Int']['input']>;
  /** Replaces every rule; [] removes them */
  rules?: InputMaybe<Array<RoutingRuleInput>>;
};

export type PrintWarning = {
  __typename?: 'PrintWarning';
  effectiveDpi: Scalars['Int']['output'];
  message: Scalars['String']['output'];
  /** Page number, or "cover" */
  page: Scalars['String']['output'];
  photoId: Scalars['String']['output'];
};

export type Printer = {
  __typename?: 'Printer';
  leadTime: LeadTime;
  name: Scalars['String']['output'];
};

export type Product = {
  __typename?: 'Product';
  /** The first element is the parent category */
  attributes: Array<Attribute>;
  description: Scalars['String']['output'];
  descriptionJson: Array<RichTextBlock>;
  /** Shown greyed out (upcoming product) */
  disabled: Scalars['Boolean']['output'];
  id: Scalars['Int']['output'];
  metaTitle: Scalars['String']['output'];
  name: Scalars['String']['output'];
  payment: ProductPayment;
  renderOptions: RenderOptions;
  sku: Scalars['String']['output'];
  specifications: Specifications;
  /** Path; prepend baseUrl */
  thumbnail: Scalars['String']['output'];
};

export type ProductPayment = {
  __typename?: 'ProductPayment';
  prices: Array<Price>;
};

/** Binding and the cover geometry it needs (docs/print-production.md) */
export type Production = {
  __typename?: 'Production';
  /** hardcover (case-wrap), softcover (perfect-bound) or layflat (case-wrap, mounted leaves) */
  binding: Scalars['String']['output'];
  /** Greyboard (case-wrap) or cover card (softcover) on each side of the block, mm */
  boardThicknessMm: Scalars['Float']['output'];
  /** Hinge between each board and the spine, mm (0: softcover) */
  hingeMm: Scalars['Float']['output'];
  /** Thickness of one leaf (two pages), mm */
  leafThicknessMm: Scalars['Float']['output'];
  /** Fewer pages than this: the spine is left blank */
  spineTextMinPages: Scalars['Int']['output'];
  /** Sheet turned in over the boards on every side, mm (0: softcover) */
  wrapMm: Scalars['Float']['output'];
};

export type Project = {
  __typename?: 'Project';
  /** The book's revision: each edit, undo and redo makes the next */
  bookRevision: Scalars['Int']['output'];
  /** Whether the book has an undone edit Redo can apply again */
  canRedo: Scalars['Boolean']['output'];
  /** Whether the book has an edit Undo can take back */
  canUndo: Scalars['Boolean']['output'];
  cover?: Maybe<BookCover>;
  /** The cover sheet of the book as it is now (its product and page count), as cover.pdf will measure it; null while the book is not built */
  coverSheet?: Maybe<CoverDimensions>;
  createdAt: Scalars['DateTimeISO']['output'];
  /** The owner: userId, e-mail or generated id */
  endUserId: Scalars['String']['output'];
  /** When the project will be deleted unless updated */
  expiresAt: Scalars['DateTimeISO']['output'];
  /** The product's page size and page bounds, for the editor */
  format: ProjectFormat;
  id: Scalars['ID']['output'];
  /** The project in the editor */
  link: Scalars['String']['output'];
  /** The order the project was printed in (its newest order line); null until it is ordered */
  order?: Maybe<ProjectOrder>;
  ordered: Scalars['Boolean']['output'];
  /** Interior pages, once the book is built */
  pages: Array<BookPage>;
  /** Photos in the order given, each with its status and any problem */
  photos: Array<Photo>;
  /** The book as it is now, checked for print: whether it is printable and each problem where it sits */
  preflight: Preflight;
  /** Cover preview URL once rendered */
  preview?: Maybe<Scalars['String']['output']>;
  /** Photos placed where they would print soft or pixelated, as the book is now */
  printWarnings: Array<PrintWarning>;
  product: ProjectProduct;
  status: ProjectStatusPair;
  /** From the cover text, else the sku */
  title: Scalars['String']['output'];
  updatedAt: Scalars['DateTimeISO']['output'];
};

export type ProjectConnection = {
  __typename?: 'ProjectConnection';
  edges: Array<ProjectEdge>;
  pageInfo: PageInfo;
};

export type ProjectEdge = {
  __typename?: 'ProjectEdge';
  cursor: Scalars['String']['output'];
  node: Project;
};

/** The product's page: its trim size (the editor draws pages at this aspect ratio) and page bounds */
export type ProjectFormat = {
  __typename?: 'ProjectFormat';
  /** hardcover, softcover or layflat: only a layflat book takes the spread layout (one photo across an opening) */
  binding?: Maybe<Scalars['String']['output']>;
  heightMm: Scalars['Float']['output'];
  /** Even */
  maxPages: Scalars['Int']['output'];
  /** Even, at least 2 */
  minPages: Scalars['Int']['output'];
  widthMm: Scalars['Float']['output'];
};

/** The order a project was printed in (its newest order line): the editor's order status */
export type ProjectOrder = {
  __typename?: 'ProjectOrder';
  /** ISO 4217, the order currency */
  currency: Scalars['String']['output'];
  /** When the order was placed */
  orderedAt: Scalars['DateTimeISO']['output'];
  /** Copies */
  quantity: Scalars['Int']['output'];
  /** The line status (docs/api.md, Order line statuses) */
  status: Scalars['String']['output'];
  statusChangedAt: Scalars['DateTimeISO']['output'];
  /** The line's total for all its copies, in currency's major units */
  total: Scalars['Float']['output'];
};

export type ProjectProduct = {
  __typename?: 'ProjectProduct';
  marketId: Scalars['Int']['output'];
  marketIdAlt: Scalars['String']['output'];
  psp: Scalars['String']['output'];
  sku: Scalars['String']['output'];
};

/** A committed change of a project status or photos status */
export type ProjectStatusEvent = {
  __typename?: 'ProjectStatusEvent';
  occurredAt: Scalars['DateTimeISO']['output'];
  projectId: Scalars['String']['output'];
  sequence: Scalars['Int']['output'];
  status: ProjectStatusPair;
  user: Scalars['String']['output'];
};

export type ProjectStatusPair = {
  __typename?: 'ProjectStatusPair';
  /** none, uploading, analyzing, idle */
  photos: Scalars['String']['output'];
  /** created, building, failed, editable, ordering, expired, deleted */
  project: Scalars['String']['output'];
};

/** A project's print files rendered before the order (REST: POST /v2/project/proof); printOrder with projects[].proofId prints them */
export type Proof = {
  __typename?: 'Proof';
  /** PROOF_TTL after the proof; an order naming it later is PROOF_EXPIRED */
  expiresAt: Scalars['DateTimeISO']['output'];
  files: Array<ProofFile>;
  /** Signed URL of a watermarked, low-resolution (72 DPI) PDF to show the customer */
  previewUrl: Scalars['String']['output'];
  proofId: Scalars['String']['output'];
};

/** One print file of a proof: the printer receives exactly these bytes */
export type ProofFile = {
  __typename?: 'ProofFile';
  bytes: Scalars['Int']['output'];
  /** cover.pdf or interior.pdf */
  name: Scalars['String']['output'];
  pages: Scalars['Int']['output'];
  /** SHA-256 (hex) of the file */
  sha256: Scalars['String']['output'];
};

export type Query = {
  __typename?: 'Query';
  /** One campaign of this client and environment */
  campaign: Campaign;
  /** Campaigns, newest first */
  campaigns: CampaignConnection;
  /** Products, categories, prices and currency of one market (REST: list-product.php) */
  catalogue: Catalogue;
  /** The cover sheet of a product for a page count (even, within the product's bounds) */
  coverDimensions: CoverDimensions;
  /** This client's events, oldest first after the event `after` (REST: GET /v2/events). Types: order.line.status_changed, order.line.shipped, order.line.delivered, order.line.routing, order.cancelled, order.updated, order.claim.created, order.remake.created, project.ready, project.build_failed, webhook.test, endpoint.disabled */
  events: ClientEventPage;
  /** All markets, and the one suggested for a location (REST: get-market.php) */
  markets: MarketListing;
  /** One order of this client */
  order: Order;
  /** Each order action with whether it is available now and why not (REST: GET /v2/order/actions) */
  orderActions: Array<OrderActionAvailability>;
  /** Orders, newest first; a user's when email is given; the filters of GET /v2/order/list */
  orders: OrderConnection;
  /** This client's print partner accounts in this environment */
  partnerAccounts: Array<PartnerAccount>;
  /** This shop’s print routing and hold window in this environment */
  printRouting: PrintRouting;
  /** One project of this client (REST: project/status) */
  project: Project;
  /** A user's projects, newest first (REST: project/list) */
  projects: ProjectConnection;
  /** A proof of the caller, with a fresh preview URL (REST: GET /v2/project/proof) */
  proof: Proof;
  /** Every check of printOrder for this input; nothing is written (REST: /v2/print with validateOnly) */
  validateOrder: OrderValidation;
  /** This client's webhook in this environment; null when none is set */
  webhook?: Maybe<Webhook>;
  /** This client's webhook deliveries in this environment, newest first, with their attempts */
  webhookDeliveries: WebhookDeliveryConnection;
  /** One webhook delivery with its attempts */
  webhookDelivery: WebhookDelivery;
};


export type QueryCampaignArgs = {
  id: Scalars['String']['input'];
};


export type QueryCampaignsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
};


export type QueryCatalogueArgs = {
  language?: Scalars['String']['input'];
  marketId?: Scalars['Int']['input'];
  v?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryCoverDimensionsArgs = {
  pages: Scalars['Int']['input'];
  sku: Scalars['String']['input'];
};


export type QueryEventsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  orderId?: InputMaybe<Scalars['String']['input']>;
  types?: InputMaybe<Array<Scalars['String']['input']>>;
};


export type QueryMarketsArgs = {
  language?: Scalars['String']['input'];
  latitude?: InputMaybe<Scalars['Float']['input']>;
  longitude?: InputMaybe<Scalars['Float']['input']>;
};


export type QueryOrderArgs = {
  orderId: Scalars['String']['input'];
};


export type QueryOrderActionsArgs = {
  orderId: Scalars['String']['input'];
};


export type QueryOrdersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  createdAfter?: InputMaybe<Scalars['String']['input']>;
  createdBefore?: InputMaybe<Scalars['String']['input']>;
  customer?: InputMaybe<Scalars['String']['input']>;
  email?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  orderId?: InputMaybe<Scalars['String']['input']>;
  status?: InputMaybe<Scalars['String']['input']>;
};


export type QueryProjectArgs = {
  id: Scalars['String']['input'];
};


export type QueryProjectsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  user: Scalars['String']['input'];
};


export type QueryProofArgs = {
  id: Scalars['String']['input'];
};


export type QueryValidateOrderArgs = {
  input: PrintOrderInput;
};


export type QueryWebhookDeliveriesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
};


export type QueryWebhookDeliveryArgs = {
  id: Scalars['String']['input'];
};

/** Prices held for an order that names quoteId until expiresAt (REST: POST /v2/quote) */
export type Quote = {
  __typename?: 'Quote';
  countryIso2: Scalars['String']['output'];
  coupon: Scalars['Float']['output'];
  currency: Scalars['String']['output'];
  expiresAt: Scalars['DateTimeISO']['output'];
  grandTotal: Scalars['Float']['output'];
  lines: Array<QuotedLine>;
  marketId: Scalars['Int']['output'];
  pricesIncludeTax: Scalars['Boolean']['output'];
  quoteId: Scalars['String']['output'];
  shipping: Scalars['Float']['output'];
  shippingLevel?: Maybe<Scalars['String']['output']>;
  shippingLevels: Array<QuotedShippingLevel>;
  subTotal: Scalars['Float']['output'];
  tax: Scalars['Float']['output'];
  /** percent */
  taxRate: Scalars['Float']['output'];
};

export type QuoteCouponInput = {
  code?: InputMaybe<Scalars['String']['input']>;
  /** 0 to 1000000000, at most the books' subtotal */
  value: Scalars['Float']['input'];
};

/** What POST /v2/quote takes */
export type QuoteInput = {
  /** the destination country, ISO 3166-1 alpha-2 */
  countryIso2: Scalars['String']['input'];
  coupon?: InputMaybe<QuoteCouponInput>;
  /** for level names; default en */
  language?: InputMaybe<Scalars['String']['input']>;
  lines: Array<QuoteLineInput>;
  /** an integer market id or an alternative id */
  marketId: Scalars['String']['input'];
  /** a level's code or name; default: the market's default level */
  shippingLevel?: InputMaybe<Scalars['String']['input']>;
};

/** A line to price: a project (from its book as it is now), or a sku with a page count */
export type QuoteLineInput = {
  /** interior pages, with sku: even, 2 to 1000 and within the product's min.pages…max.pages */
  pageCount?: InputMaybe<Scalars['Int']['input']>;
  projectId?: InputMaybe<Scalars['String']['input']>;
  /** copies, 1 to 1000 */
  quantity: Scalars['Int']['input'];
  /** a sku or renderOptions.productId */
  sku?: InputMaybe<Scalars['String']['input']>;
};

export type QuotedLine = {
  __typename?: 'QuotedLine';
  basePages: Scalars['Int']['output'];
  basePrice: Scalars['Float']['output'];
  /** the line's share of the coupon */
  discount: Scalars['Float']['output'];
  extraCostPerPage: Scalars['Float']['output'];
  extraPages: Scalars['Int']['output'];
  /** per copy */
  extraPagesCost: Scalars['Float']['output'];
  lineTotal: Scalars['Float']['output'];
  pageCount: Scalars['Int']['output'];
  projectId?: Maybe<Scalars['String']['output']>;
  quantity: Scalars['Int']['output'];
  sku: Scalars['String']['output'];
  tax: Scalars['Float']['output'];
  /** per copy */
  unitPrice: Scalars['Float']['output'];
};

/** A shipping level that reaches the destination, priced */
export type QuotedShippingLevel = {
  __typename?: 'QuotedShippingLevel';
  code: Scalars['String']['output'];
  cost: Scalars['Float']['output'];
  delivery: DeliveryRange;
  /** the grand total with this level */
  grandTotal: Scalars['Float']['output'];
  name: Scalars['String']['output'];
  /** business days */
  productionDays: Scalars['Int']['output'];
  tax: Scalars['Float']['output'];
  /** business days */
  transitDays: DayRange;
};

/** Values to use in generate and print calls */
export type RenderOptions = {
  __typename?: 'RenderOptions';
  productId: Scalars['String']['output'];
  psp: Scalars['String']['output'];
};

/** One block of a structured description */
export type RichTextBlock = {
  __typename?: 'RichTextBlock';
  items?: Maybe<Array<Scalars['String']['output']>>;
  text?: Maybe<Scalars['String']['output']>;
  /** heading, paragraph or list */
  type: Scalars['String']['output'];
};

/** One routing decision of an order line */
export type RoutingDecision = {
  __typename?: 'RoutingDecision';
  at: Scalars['DateTimeISO']['output'];
  /** routed, failed_over, late_acceptance_cancelled or late_acceptance_refused */
  decision: Scalars['String']['output'];
  /** The late job's id at that printer */
  jobId?: Maybe<Scalars['String']['output']>;
  /** failed_over: the printer that gets the job now */
  next?: Maybe<Scalars['String']['output']>;
  printer: Scalars['String']['output'];
  reason?: Maybe<Scalars['String']['output']>;
};

/** Which order lines a routing rule takes: every line when a list is null */
export type RoutingMatch = {
  __typename?: 'RoutingMatch';
  /** Destination countries, ISO 3166 alpha-2 */
  countries?: Maybe<Array<Scalars['String']['output']>>;
  /** Skus */
  products?: Maybe<Array<Scalars['String']['output']>>;
};

export type RoutingMatchInput = {
  countries?: InputMaybe<Array<Scalars['String']['input']>>;
  products?: InputMaybe<Array<Scalars['String']['input']>>;
};

/** A routing rule: the first that matches a line chooses its printers */
export type RoutingRule = {
  __typename?: 'RoutingRule';
  match: RoutingMatch;
  /** printers to try in turn, each one of sandbox, local, http, prodigi, gelato, lulu */
  printers: Array<Scalars['String']['output']>;
};

export type RoutingRuleInput = {
  match: RoutingMatchInput;
  /** printers to try in turn, each one of sandbox, local, http, prodigi, gelato, lulu */
  printers: Array<Scalars['String']['input']>;
};

export type SetPartnerAccountInput = {
  credentials: PartnerCredentialsInput;
  partner: PrintPartner;
  /** Omitted: keep the current mapping; empty: the defaults */
  shippingMethods?: InputMaybe<Array<PartnerShippingMethodInput>>;
};

/** A box on the cover sheet, from the sheet's top-left corner (x right, y down), in mm and PDF points (1/72 in) */
export type SheetBox = {
  __typename?: 'SheetBox';
  heightMm: Scalars['Float']['output'];
  heightPt: Scalars['Float']['output'];
  widthMm: Scalars['Float']['output'];
  widthPt: Scalars['Float']['output'];
  xMm: Scalars['Float']['output'];
  xPt: Scalars['Float']['output'];
  yMm: Scalars['Float']['output'];
  yPt: Scalars['Float']['output'];
};

export type ShippingChoiceInput = {
  /** The shipping level */
  method: Scalars['String']['input'];
};

/** Where a shipping level goes and how many business days it takes there */
export type ShippingDestination = {
  __typename?: 'ShippingDestination';
  /** Country or continent code */
  isoCode2: Scalars['String']['output'];
  transitDays: TransitDays;
};

export type ShippingInput = {
  /** 0 to 1000000000, in the currency's major units */
  cost: Scalars['Float']['input'];
  method?: InputMaybe<Scalars['String']['input']>;
};

/** A country or continent a market ships to */
export type ShipsWithinArea = {
  __typename?: 'ShipsWithinArea';
  /** Country (ISO 3166-1 alpha-2) or continent code */
  isoCode2: Scalars['String']['output'];
  name: Scalars['String']['output'];
};

/** Where a photo sits in its slot: the point of the photo the slot is centred on (0..1 of its width and height) and the zoom (1: the photo just covers the slot, up to 5) */
export type SlotCrop = {
  __typename?: 'SlotCrop';
  x: Scalars['Float']['output'];
  y: Scalars['Float']['output'];
  zoom: Scalars['Float']['output'];
};

/** Where a photo sits in its slot (SlotCrop) */
export type SlotCropInput = {
  /** 0..1 of the photo's width: the point the slot is centred on */
  x: Scalars['Float']['input'];
  /** 0..1 of the photo's height */
  y: Scalars['Float']['input'];
  /** 1 (the photo just covers the slot) to 5 */
  zoom: Scalars['Float']['input'];
};

/** A photo slot: interior page number (from 1) and slot index on it (from 0) */
export type SlotRefInput = {
  page: Scalars['Int']['input'];
  slot: Scalars['Int']['input'];
};

export type Specifications = {
  __typename?: 'Specifications';
  format: PageFormat;
  max: Bound;
  min: Bound;
  production: Production;
  psp: Printer;
};

export type StartCampaignPayload = {
  __typename?: 'StartCampaignPayload';
  campaign: Campaign;
  /** As REST answers: names the URL and the campaign id */
  message: Scalars['String']['output'];
};

/** A committed status change of a project, photo, order or campaign */
export type StatusEvent = {
  __typename?: 'StatusEvent';
  /** Extra facts of the change, such as a tracking URL */
  detail: Scalars['JSONObject']['output'];
  occurredAt: Scalars['DateTimeISO']['output'];
  /** 1, 2, 3... per subject, in commit order */
  sequence: Scalars['Int']['output'];
  status: Scalars['String']['output'];
  subjectId: Scalars['String']['output'];
  /** project, photo, order or campaign */
  subjectType: Scalars['String']['output'];
};

export type Subscription = {
  __typename?: 'Subscription';
  /** Each new revision of a project's book as it commits (an edit, undo or redo, from any editor or app): what keeps two editors of one book in step. With afterSequence it first replays the revisions after that sequence */
  bookRevised: BookRevision;
  /** A campaign's status and counts now, then as they change (at most about twice a second), until it completes or fails */
  campaignProgress: CampaignProgress;
  /** Fulfilment status changes of one order line (orderId and projectId), one order, or every order of this client: the dashboard feed. With orderId, projectId and afterSequence it first replays the line's events after that sequence */
  orderStatusChanged: OrderStatusEvent;
  /** Status changes of one project, or of all a user's projects, as they commit. With projectId and afterSequence it first replays the project's events after that sequence */
  projectStatusChanged: ProjectStatusEvent;
  /** Every committed status change of this client and environment, optionally of one subject. With subjectType, subjectId and afterSequence it first replays the events after that sequence, then goes on live */
  statusEvents: StatusEvent;
};


export type SubscriptionBookRevisedArgs = {
  afterSequence?: InputMaybe<Scalars['Int']['input']>;
  projectId: Scalars['String']['input'];
};


export type SubscriptionCampaignProgressArgs = {
  id: Scalars['String']['input'];
};


export type SubscriptionOrderStatusChangedArgs = {
  afterSequence?: InputMaybe<Scalars['Int']['input']>;
  orderId?: InputMaybe<Scalars['String']['input']>;
  projectId?: InputMaybe<Scalars['String']['input']>;
};


export type SubscriptionProjectStatusChangedArgs = {
  afterSequence?: InputMaybe<Scalars['Int']['input']>;
  projectId?: InputMaybe<Scalars['String']['input']>;
  user?: InputMaybe<Scalars['String']['input']>;
};


export type SubscriptionStatusEventsArgs = {
  afterSequence?: InputMaybe<Scalars['Int']['input']>;
  subjectId?: InputMaybe<Scalars['String']['input']>;
  subjectType?: InputMaybe<Scalars['String']['input']>;
};

export type TextSlot = {
  __typename?: 'TextSlot';
  assetId: Scalars['String']['output'];
  text: Scalars['String']['output'];
};

export type TransitDays = {
  __typename?: 'TransitDays';
  max: Scalars['Int']['output'];
  min: Scalars['Int']['output'];
};

/** Where this client's campaign notifications go in this environment */
export type Webhook = {
  __typename?: 'Webhook';
  /** When it was disabled for failing for WEBHOOK_DISABLE_AFTER (5 days by default): nothing is sent to it until enableWebhook; null while enabled */
  disabledAt?: Maybe<Scalars['DateTimeISO']['output']>;
  /** Why it was disabled (the failing streak and its last error) */
  disabledReason?: Maybe<Scalars['String']['output']>;
  /** The event types sent to it (every type unless it chose some) */
  eventTypes: Array<Scalars['String']['output']>;
  /** Since when every event delivery to it has failed (the first failed attempt since the last success); null while healthy */
  failingSince?: Maybe<Scalars['DateTimeISO']['output']>;
  /** Until when the secret replaced by the last rotation still signs, beside the current one; null when none does */
  previousSecretExpiresAt?: Maybe<Scalars['DateTimeISO']['output']>;
  updatedAt: Scalars['DateTimeISO']['output'];
  url: Scalars['String']['output'];
};

/** One HTTP request of a webhook delivery */
export type WebhookAttempt = {
  __typename?: 'WebhookAttempt';
  attemptedAt: Scalars['DateTimeISO']['output'];
  error?: Maybe<Scalars['String']['output']>;
  latencyMs: Scalars['Int']['output'];
  /** The receiver's HTTP status; null when none came */
  statusCode?: Maybe<Scalars['Int']['output']>;
};

/** One event sent to one URL, signed (Standard Webhooks), with every attempt */
export type WebhookDelivery = {
  __typename?: 'WebhookDelivery';
  attempts: Array<WebhookAttempt>;
  createdAt: Scalars['DateTimeISO']['output'];
  event: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  projectId: Scalars['String']['output'];
  reference: Scalars['String']['output'];
  status: WebhookDeliveryStatus;
  updatedAt: Scalars['DateTimeISO']['output'];
  url: Scalars['String']['output'];
  /** The webhook-id header: the same for every attempt and replay */
  webhookId: Scalars['String']['output'];
};

export type WebhookDeliveryConnection = {
  __typename?: 'WebhookDeliveryConnection';
  edges: Array<WebhookDeliveryEdge>;
  pageInfo: PageInfo;
};

export type WebhookDeliveryEdge = {
  __typename?: 'WebhookDeliveryEdge';
  cursor: Scalars['String']['output'];
  node: WebhookDelivery;
};

export type WebhookDeliveryStatus =
  | 'delivered'
  | 'failed'
  | 'pending';

export type StartCampaignMutationVariables = Exact<{
  csvUrl: Scalars['String']['input'];
}>;


export type StartCampaignMutation = { __typename?: 'Mutation', startCampaign: { __typename?: 'StartCampaignPayload', message: string, campaign: { __typename?: 'Campaign', id: string, status: CampaignStatus, csvUrl: string } } };

export type CampaignQueryVariables = Exact<{
  id: Scalars['String']['input'];
  rowsAfter?: InputMaybe<Scalars['String']['input']>;
  state?: InputMaybe<CampaignRowState>;
}>;


export type CampaignQuery = { __typename?: 'Query', campaign: { __typename?: 'Campaign', id: string, csvUrl: string, status: CampaignStatus, reason?: string | null, createdAt: string, finishedAt?: string | null, counts: { __typename?: 'CampaignCounts', rows: number, generated: number, notified: number, failed: number, invalid: number, duplicate: number }, rows: { __typename?: 'CampaignRowConnection', edges: Array<{ __typename?: 'CampaignRowEdge', cursor: string, node: { __typename?: 'CampaignRow', line: number, reference?: string | null, projectId?: string | null, state: CampaignRowState, reason?: string | null } }>, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean, endCursor?: string | null } }, deliveries: { __typename?: 'WebhookDeliveryConnection', edges: Array<{ __typename?: 'WebhookDeliveryEdge', node: { __typename?: 'WebhookDelivery', id: string, webhookId: string, event: string, url: string, reference: string, projectId: string, status: WebhookDeliveryStatus, createdAt: string, updatedAt: string, attempts: Array<{ __typename?: 'WebhookAttempt', attemptedAt: string, statusCode?: number | null, latencyMs: number, error?: string | null }> } }>, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean, endCursor?: string | null } } } };

export type CampaignsQueryVariables = Exact<{
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type CampaignsQuery = { __typename?: 'Query', campaigns: { __typename?: 'CampaignConnection', edges: Array<{ __typename?: 'CampaignEdge', cursor: string, node: { __typename?: 'Campaign', id: string, status: CampaignStatus, csvUrl: string, createdAt: string, counts: { __typename?: 'CampaignCounts', rows: number, generated: number, notified: number, failed: number } } }>, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean, endCursor?: string | null } } };

export type CampaignProgressSubscriptionVariables = Exact<{
  id: Scalars['String']['input'];
}>;


export type CampaignProgressSubscription = { __typename?: 'Subscription', campaignProgress: { __typename?: 'CampaignProgress', campaignId: string, status: CampaignStatus, reason?: string | null, sequence: number, occurredAt: string, counts: { __typename?: 'CampaignCounts', rows: number, generated: number, notified: number, failed: number, invalid: number, duplicate: number } } };

export type WebhookQueryVariables = Exact<{ [key: string]: never; }>;


export type WebhookQuery = { __typename?: 'Query', webhook?: { __typename?: 'Webhook', url: string, updatedAt: string } | null };

export type SetWebhookMutationVariables = Exact<{
  url: Scalars['String']['input'];
}>;


export type SetWebhookMutation = { __typename?: 'Mutation', setWebhook: { __typename?: 'IssuedWebhook', url: string, secret?: string | null } };

export type RotateWebhookSecretMutationVariables = Exact<{ [key: string]: never; }>;


export type RotateWebhookSecretMutation = { __typename?: 'Mutation', rotateWebhookSecret: { __typename?: 'IssuedWebhook', url: string, secret?: string | null } };

export type WebhookDeliveryQueryVariables = Exact<{
  id: Scalars['String']['input'];
}>;


export type WebhookDeliveryQuery = { __typename?: 'Query', webhookDelivery: { __typename?: 'WebhookDelivery', id: string, webhookId: string, status: WebhookDeliveryStatus, reference: string, projectId: string, url: string, attempts: Array<{ __typename?: 'WebhookAttempt', attemptedAt: string, statusCode?: number | null, latencyMs: number, error?: string | null }> } };

export type ReplayWebhookMutationVariables = Exact<{
  deliveryId: Scalars['String']['input'];
}>;


export type ReplayWebhookMutation = { __typename?: 'Mutation', replayWebhook: { __typename?: 'WebhookDelivery', id: string, webhookId: string, status: WebhookDeliveryStatus, attempts: Array<{ __typename?: 'WebhookAttempt', statusCode?: number | null }> } };

export type CatalogueQueryVariables = Exact<{
  marketId?: InputMaybe<Scalars['Int']['input']>;
  language?: InputMaybe<Scalars['String']['input']>;
  v?: InputMaybe<Scalars['Int']['input']>;
}>;


export type CatalogueQuery = { __typename?: 'Query', catalogue: { __typename?: 'Catalogue', baseUrl: string, pricesIncludeTax: boolean, currency: { __typename?: 'Currency', code: string, left: string, right: string, decimals: number }, products: Array<{ __typename?: 'Product', id: number, sku: string, name: string, disabled: boolean, payment: { __typename?: 'ProductPayment', prices: Array<{ __typename?: 'Price', price: number, extraCostPerPage: number }> }, attributes: Array<{ __typename?: 'Attribute', type: string, categoryId?: number | null, name: string, thumbnail: string, description: string, topSeller: boolean, tag?: string | null, descriptionJson: Array<{ __typename?: 'RichTextBlock', type: string, text?: string | null }> }> }>, categories: Array<{ __typename?: 'CategoryEntry', categoryId: number, type: string, name: string, products: Array<number> }> } };

export type MarketsQueryVariables = Exact<{
  language?: InputMaybe<Scalars['String']['input']>;
  latitude?: InputMaybe<Scalars['Float']['input']>;
  longitude?: InputMaybe<Scalars['Float']['input']>;
}>;


export type MarketsQuery = { __typename?: 'Query', markets: { __typename?: 'MarketListing', results: Array<{ __typename?: 'Market', marketId: number, storeName: string, isoCode2: string, currency: string }>, suggested?: { __typename?: 'Market', marketId: number, storeName: string, isoCode2: string, currency: string } | null } };

export type PrintOrderMutationVariables = Exact<{
  input: PrintOrderInput;
}>;


export type PrintOrderMutation = { __typename?: 'Mutation', printOrder: { __typename?: 'PrintOrderPayload', message: string, order: { __typename?: 'Order', orderId: string, grandTotal: number, currency: string, lines: Array<{ __typename?: 'OrderLine', projectId: string, status: string }> } } };

export type OrderQueryVariables = Exact<{
  orderId: Scalars['String']['input'];
}>;


export type OrderQuery = { __typename?: 'Query', order: { __typename?: 'Order', orderId: string, email?: string | null, grandTotal: number, shippingAddress: { __typename?: 'OrderAddress', line1: string, postcode: string, isoCode2: string, isoCode3: string, country: string }, lines: Array<{ __typename?: 'OrderLine', projectId: string, status: string, displayStatus: string, tracking?: string | null, pageCount?: number | null, quantity: number, warnings: Array<{ __typename?: 'PrintWarning', page: string, effectiveDpi: number, message: string }> }> } };

export type OrderPrintFilesQueryVariables = Exact<{
  orderId: Scalars['String']['input'];
}>;


export type OrderPrintFilesQuery = { __typename?: 'Query', order: { __typename?: 'Order', orderId: string, lines: Array<{ __typename?: 'OrderLine', projectId: string, status: string, pageCount?: number | null, printFiles?: { __typename?: 'PrintFiles', coverPdfUrl?: string | null, coverPreviewUrl?: string | null, interiorPdfUrl: string, pdfUrl: string, manifestUrl: string, pages: number, expiresAt: number } | null }> } };

export type OrdersQueryVariables = Exact<{
  email?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type OrdersQuery = { __typename?: 'Query', orders: { __typename?: 'OrderConnection', edges: Array<{ __typename?: 'OrderEdge', cursor: string, node: { __typename?: 'Order', orderId: string, lines: Array<{ __typename?: 'OrderLine', projectId: string, status: string }> } }>, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean, endCursor?: string | null } } };

export type SetOrderStatusMutationVariables = Exact<{
  orderId: Scalars['String']['input'];
  status: EcommerceOrderStatus;
  projectId?: InputMaybe<Scalars['String']['input']>;
}>;


export type SetOrderStatusMutation = { __typename?: 'Mutation', setOrderStatus: { __typename?: 'Order', orderId: string, lines: Array<{ __typename?: 'OrderLine', projectId: string, status: string }> } };

export type OrderStatusChangedSubscriptionVariables = Exact<{
  orderId?: InputMaybe<Scalars['String']['input']>;
}>;


export type OrderStatusChangedSubscription = { __typename?: 'Subscription', orderStatusChanged: { __typename?: 'OrderStatusEvent', orderId: string, projectId: string, status: string, tracking?: string | null, sequence: number } };

export type ConfirmPaymentMutationVariables = Exact<{
  orderId: Scalars['String']['input'];
}>;


export type ConfirmPaymentMutation = { __typename?: 'Mutation', confirmPayment: { __typename?: 'Order', orderId: string, paymentStatus: string, lines: Array<{ __typename?: 'OrderLine', projectId: string, status: string }> } };

export type CoverDimensionsQueryVariables = Exact<{
  sku: Scalars['String']['input'];
  pages: Scalars['Int']['input'];
}>;


export type CoverDimensionsQuery = { __typename?: 'Query', coverDimensions: { __typename?: 'CoverDimensions', sku: string, binding: string, pages: number, widthMm: number, heightMm: number, widthPt: number, heightPt: number, spineWidthMm: number, bleedMm: number, wrapMm: number, hingeMm: number, spineText: boolean, trim: { __typename?: 'SheetBox', xMm: number, yMm: number, widthMm: number, heightMm: number, xPt: number, yPt: number, widthPt: number, heightPt: number }, back: { __typename?: 'SheetBox', xMm: number, yMm: number, widthMm: number, heightMm: number, xPt: number, yPt: number, widthPt: number, heightPt: number }, spine: { __typename?: 'SheetBox', xMm: number, yMm: number, widthMm: number, heightMm: number, xPt: number, yPt: number, widthPt: number, heightPt: number }, front: { __typename?: 'SheetBox', xMm: number, yMm: number, widthMm: number, heightMm: number, xPt: number, yPt: number, widthPt: number, heightPt: number } } };

export type ProjectPreflightQueryVariables = Exact<{
  id: Scalars['String']['input'];
}>;


export type ProjectPreflightQuery = { __typename?: 'Query', project: { __typename?: 'Project', id: string, preflight: { __typename?: 'Preflight', printable: boolean, usablePhotos: number, problems: Array<{ __typename?: 'PreflightProblem', code: string, severity: string, page?: number | null, slot?: number | null, message: string }>, failedPhotos: Array<{ __typename?: 'FailedPhoto', id: string, clientPhotoId?: string | null, url: string, problem: { __typename?: 'PhotoProblem', code: string, message: string } }> } } };

export type ProjectQueryVariables = Exact<{
  id: Scalars['String']['input'];
}>;


export type ProjectQuery = { __typename?: 'Query', project: { __typename?: 'Project', id: string, title: string, preview?: string | null, link: string, endUserId: string, ordered: boolean, createdAt: string, expiresAt: string, status: { __typename?: 'ProjectStatusPair', project: string, photos: string }, product: { __typename?: 'ProjectProduct', psp: string, sku: string, marketId: number, marketIdAlt: string }, photos: Array<{ __typename?: 'Photo', id: string, clientPhotoId?: string | null, url: string, status: string, width?: number | null, height?: number | null, problem?: { __typename?: 'PhotoProblem', code: string, message: string } | null }>, pages: Array<{ __typename?: 'BookPage', number: number, layout: string, photos: Array<{ __typename?: 'PhotoSlot', photoId: string }> }>, cover?: { __typename?: 'BookCover', title: string, photoId?: string | null } | null } };

export type ProjectsQueryVariables = Exact<{
  user: Scalars['String']['input'];
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type ProjectsQuery = { __typename?: 'Query', projects: { __typename?: 'ProjectConnection', edges: Array<{ __typename?: 'ProjectEdge', cursor: string, node: { __typename?: 'Project', id: string, title: string, status: { __typename?: 'ProjectStatusPair', project: string, photos: string }, photos: Array<{ __typename?: 'Photo', id: string, status: string }> } }>, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean, endCursor?: string | null } } };

export type GenerateProjectMutationVariables = Exact<{
  input: GenerateProjectInput;
}>;


export type GenerateProjectMutation = { __typename?: 'Mutation', generateProject: { __typename?: 'GenerateProjectPayload', url: string, project: { __typename?: 'Project', id: string, endUserId: string, status: { __typename?: 'ProjectStatusPair', project: string, photos: string } } } };

export type DeleteProjectsMutationVariables = Exact<{
  user: Scalars['String']['input'];
  ids: Array<Scalars['String']['input']> | Scalars['String']['input'];
  type?: InputMaybe<DeleteType>;
}>;


export type DeleteProjectsMutation = { __typename?: 'Mutation', deleteProjects: { __typename?: 'DeleteProjectsPayload', ids: Array<string> } };

export type DuplicateProjectMutationVariables = Exact<{
  id: Scalars['String']['input'];
  callback?: InputMaybe<Scalars['String']['input']>;
}>;


export type DuplicateProjectMutation = { __typename?: 'Mutation', duplicateProject: { __typename?: 'Project', id: string, endUserId: string, title: string } };

export type TransferProjectMutationVariables = Exact<{
  id: Scalars['String']['input'];
  targetUser: Scalars['String']['input'];
}>;


export type TransferProjectMutation = { __typename?: 'Mutation', transferProject: { __typename?: 'Project', id: string, endUserId: string } };

export type ProjectStatusChangedSubscriptionVariables = Exact<{
  projectId?: InputMaybe<Scalars['String']['input']>;
  user?: InputMaybe<Scalars['String']['input']>;
}>;


export type ProjectStatusChangedSubscription = { __typename?: 'Subscription', projectStatusChanged: { __typename?: 'ProjectStatusEvent', projectId: string, user: string, sequence: number, status: { __typename?: 'ProjectStatusPair', project: string, photos: string } } };

export type StatusEventsSubscriptionVariables = Exact<{
  subjectType?: InputMaybe<Scalars['String']['input']>;
  subjectId?: InputMaybe<Scalars['String']['input']>;
  afterSequence?: InputMaybe<Scalars['Int']['input']>;
}>;


export type StatusEventsSubscription = { __typename?: 'Subscription', statusEvents: { __typename?: 'StatusEvent', subjectType: string, subjectId: string, status: string, sequence: number, detail: Record<string, unknown>, occurredAt: string } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}

export const StartCampaignDocument = new TypedDocumentString(`
    mutation StartCampaign($csvUrl: String!) {
  startCampaign(csvUrl: $csvUrl) {
    message
    campaign {
      id
      status
      csvUrl
    }
  }
}
    `) as unknown as TypedDocumentString<StartCampaignMutation, StartCampaignMutationVariables>;
export const CampaignDocument = new TypedDocumentString(`
    query Campaign($id: String!, $rowsAfter: String, $state: CampaignRowState) {
  campaign(id: $id) {
    id
    csvUrl
    status
    reason
    createdAt
    finishedAt
    counts {
      rows
      generated
      notified
      failed
      invalid
      duplicate
    }
    rows(first: 100, after: $rowsAfter, state: $state) {
      edges {
        cursor
        node {
          line
          reference
          projectId
          state
          reason
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
    deliveries(first: 100) {
      edges {
        node {
          id
          webhookId
          event
          url
          reference
          projectId
          status
          createdAt
          updatedAt
          attempts {
            attemptedAt
            statusCode
            latencyMs
            error
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
}
    `) as unknown as TypedDocumentString<CampaignQuery, CampaignQueryVariables>;
export const CampaignsDocument = new TypedDocumentString(`
    query Campaigns($first: Int, $after: String) {
  campaigns(first: $first, after: $after) {
    edges {
      cursor
      node {
        id
        status
        csvUrl
        createdAt
        counts {
          rows
          generated
          notified
          failed
        }
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<CampaignsQuery, CampaignsQueryVariables>;
export const CampaignProgressDocument = new TypedDocumentString(`
    subscription CampaignProgress($id: String!) {
  campaignProgress(id: $id) {
    campaignId
    status
    reason
    sequence
    occurredAt
    counts {
      rows
      generated
      notified
      failed
      invalid
      duplicate
    }
  }
}
    `) as unknown as TypedDocumentString<CampaignProgressSubscription, CampaignProgressSubscriptionVariables>;
export const WebhookDocument = new TypedDocumentString(`
    query Webhook {
  webhook {
    url
    updatedAt
  }
}
    `) as unknown as TypedDocumentString<WebhookQuery, WebhookQueryVariables>;
export const SetWebhookDocument = new TypedDocumentString(`
    mutation SetWebhook($url: String!) {
  setWebhook(url: $url) {
    url
    secret
  }
}
    `) as unknown as TypedDocumentString<SetWebhookMutation, SetWebhookMutationVariables>;
export const RotateWebhookSecretDocument = new TypedDocumentString(`
    mutation RotateWebhookSecret {
  rotateWebhookSecret {
    url
    secret
  }
}
    `) as unknown as TypedDocumentString<RotateWebhookSecretMutation, RotateWebhookSecretMutationVariables>;
export const WebhookDeliveryDocument = new TypedDocumentString(`
    query WebhookDelivery($id: String!) {
  webhookDelivery(id: $id) {
    id
    webhookId
    status
    reference
    projectId
    url
    attempts {
      attemptedAt
      statusCode
      latencyMs
      error
    }
  }
}
    `) as unknown as TypedDocumentString<WebhookDeliveryQuery, WebhookDeliveryQueryVariables>;
export const ReplayWebhookDocument = new TypedDocumentString(`
    mutation ReplayWebhook($deliveryId: String!) {
  replayWebhook(deliveryId: $deliveryId) {
    id
    webhookId
    status
    attempts {
      statusCode
    }
  }
}
    `) as unknown as TypedDocumentString<ReplayWebhookMutation, ReplayWebhookMutationVariables>;
export const CatalogueDocument = new TypedDocumentString(`
    query Catalogue($marketId: Int, $language: String, $v: Int) {
  catalogue(marketId: $marketId, language: $language, v: $v) {
    baseUrl
    pricesIncludeTax
    currency {
      code
      left
      right
      decimals
    }
    products {
      id
      sku
      name
      disabled
      payment {
        prices {
          price
          extraCostPerPage
        }
      }
      attributes {
        type
        categoryId
        name
        thumbnail
        description
        descriptionJson {
          type
          text
        }
        topSeller
        tag
      }
    }
    categories {
      categoryId
      type
      name
      products
    }
  }
}
    `) as unknown as TypedDocumentString<CatalogueQuery, CatalogueQueryVariables>;
export const MarketsDocument = new TypedDocumentString(`
    query Markets($language: String, $latitude: Float, $longitude: Float) {
  markets(language: $language, latitude: $latitude, longitude: $longitude) {
    results {
      marketId
      storeName
      isoCode2
      currency
    }
    suggested {
      marketId
      storeName
      isoCode2
      currency
    }
  }
}
    `) as unknown as TypedDocumentString<MarketsQuery, MarketsQueryVariables>;
export const PrintOrderDocument = new TypedDocumentString(`
    mutation PrintOrder($input: PrintOrderInput!) {
  printOrder(input: $input) {
    message
    order {
      orderId
      grandTotal
      currency
      lines {
        projectId
        status
      }
    }
  }
}
    `) as unknown as TypedDocumentString<PrintOrderMutation, PrintOrderMutationVariables>;
export const OrderDocument = new TypedDocumentString(`
    query Order($orderId: String!) {
  order(orderId: $orderId) {
    orderId
    email
    grandTotal
    shippingAddress {
      line1
      postcode
      isoCode2
      isoCode3
      country
    }
    lines {
      projectId
      status
      displayStatus
      tracking
      pageCount
      quantity
      warnings {
        page
        effectiveDpi
        message
      }
    }
  }
}
    `) as unknown as TypedDocumentString<OrderQuery, OrderQueryVariables>;
export const OrderPrintFilesDocument = new TypedDocumentString(`
    query OrderPrintFiles($orderId: String!) {
  order(orderId: $orderId) {
    orderId
    lines {
      projectId
      status
      pageCount
      printFiles {
        coverPdfUrl
        coverPreviewUrl
        interiorPdfUrl
        pdfUrl
        manifestUrl
        pages
        expiresAt
      }
    }
  }
}
    `) as unknown as TypedDocumentString<OrderPrintFilesQuery, OrderPrintFilesQueryVariables>;
export const OrdersDocument = new TypedDocumentString(`
    query Orders($email: String, $first: Int, $after: String) {
  orders(email: $email, first: $first, after: $after) {
    edges {
      cursor
      node {
        orderId
        lines {
          projectId
          status
        }
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<OrdersQuery, OrdersQueryVariables>;
export const SetOrderStatusDocument = new TypedDocumentString(`
    mutation SetOrderStatus($orderId: String!, $status: EcommerceOrderStatus!, $projectId: String) {
  setOrderStatus(orderId: $orderId, status: $status, projectId: $projectId) {
    orderId
    lines {
      projectId
      status
    }
  }
}
    `) as unknown as TypedDocumentString<SetOrderStatusMutation, SetOrderStatusMutationVariables>;
export const OrderStatusChangedDocument = new TypedDocumentString(`
    subscription OrderStatusChanged($orderId: String) {
  orderStatusChanged(orderId: $orderId) {
    orderId
    projectId
    status
    tracking
    sequence
  }
}
    `) as unknown as TypedDocumentString<OrderStatusChangedSubscription, OrderStatusChangedSubscriptionVariables>;
export const ConfirmPaymentDocument = new TypedDocumentString(`
    mutation ConfirmPayment($orderId: String!) {
  confirmPayment(orderId: $orderId) {
    orderId
    paymentStatus
    lines {
      projectId
      status
    }
  }
}
    `) as unknown as TypedDocumentString<ConfirmPaymentMutation, ConfirmPaymentMutationVariables>;
export const CoverDimensionsDocument = new TypedDocumentString(`
    query CoverDimensions($sku: String!, $pages: Int!) {
  coverDimensions(sku: $sku, pages: $pages) {
    sku
    binding
    pages
    widthMm
    heightMm
    widthPt
    heightPt
    spineWidthMm
    bleedMm
    wrapMm
    hingeMm
    spineText
    trim {
      xMm
      yMm
      widthMm
      heightMm
      xPt
      yPt
      widthPt
      heightPt
    }
    back {
      xMm
      yMm
      widthMm
      heightMm
      xPt
      yPt
      widthPt
      heightPt
    }
    spine {
      xMm
      yMm
      widthMm
      heightMm
      xPt
      yPt
      widthPt
      heightPt
    }
    front {
      xMm
      yMm
      widthMm
      heightMm
      xPt
      yPt
      widthPt
      heightPt
    }
  }
}
    `) as unknown as TypedDocumentString<CoverDimensionsQuery, CoverDimensionsQueryVariables>;
export const ProjectPreflightDocument = new TypedDocumentString(`
    query ProjectPreflight($id: String!) {
  project(id: $id) {
    id
    preflight {
      printable
      problems {
        code
        severity
        page
        slot
        message
      }
      usablePhotos
      failedPhotos {
        id
        clientPhotoId
        url
        problem {
          code
          message
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ProjectPreflightQuery, ProjectPreflightQueryVariables>;
export const ProjectDocument = new TypedDocumentString(`
    query Project($id: String!) {
  project(id: $id) {
    id
    title
    preview
    link
    endUserId
    ordered
    createdAt
    expiresAt
    status {
      project
      photos
    }
    product {
      psp
      sku
      marketId
      marketIdAlt
    }
    photos {
      id
      clientPhotoId
      url
      status
      problem {
        code
        message
      }
      width
      height
    }
    pages {
      number
      layout
      photos {
        photoId
      }
    }
    cover {
      title
      photoId
    }
  }
}
    `) as unknown as TypedDocumentString<ProjectQuery, ProjectQueryVariables>;
export const ProjectsDocument = new TypedDocumentString(`
    query Projects($user: String!, $first: Int, $after: String) {
  projects(user: $user, first: $first, after: $after) {
    edges {
      cursor
      node {
        id
        title
        status {
          project
          photos
        }
        photos {
          id
          status
        }
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<ProjectsQuery, ProjectsQueryVariables>;
export const GenerateProjectDocument = new TypedDocumentString(`
    mutation GenerateProject($input: GenerateProjectInput!) {
  generateProject(input: $input) {
    url
    project {
      id
      status {
        project
        photos
      }
      endUserId
    }
  }
}
    `) as unknown as TypedDocumentString<GenerateProjectMutation, GenerateProjectMutationVariables>;
export const DeleteProjectsDocument = new TypedDocumentString(`
    mutation DeleteProjects($user: String!, $ids: [String!]!, $type: DeleteType) {
  deleteProjects(user: $user, ids: $ids, type: $type) {
    ids
  }
}
    `) as unknown as TypedDocumentString<DeleteProjectsMutation, DeleteProjectsMutationVariables>;
export const DuplicateProjectDocument = new TypedDocumentString(`
    mutation DuplicateProject($id: String!, $callback: String) {
  duplicateProject(id: $id, callback: $callback) {
    id
    endUserId
    title
  }
}
    `) as unknown as TypedDocumentString<DuplicateProjectMutation, DuplicateProjectMutationVariables>;
export const TransferProjectDocument = new TypedDocumentString(`
    mutation TransferProject($id: String!, $targetUser: String!) {
  transferProject(id: $id, targetUser: $targetUser) {
    id
    endUserId
  }
}
    `) as unknown as TypedDocumentString<TransferProjectMutation, TransferProjectMutationVariables>;
export const ProjectStatusChangedDocument = new TypedDocumentString(`
    subscription ProjectStatusChanged($projectId: String, $user: String) {
  projectStatusChanged(projectId: $projectId, user: $user) {
    projectId
    user
    sequence
    status {
      project
      photos
    }
  }
}
    `) as unknown as TypedDocumentString<ProjectStatusChangedSubscription, ProjectStatusChangedSubscriptionVariables>;
export const StatusEventsDocument = new TypedDocumentString(`
    subscription StatusEvents($subjectType: String, $subjectId: String, $afterSequence: Int) {
  statusEvents(
    subjectType: $subjectType
    subjectId: $subjectId
    afterSequence: $afterSequence
  ) {
    subjectType
    subjectId
    status
    sequence
    detail
    occurredAt
  }
}
    `) as unknown as TypedDocumentString<StatusEventsSubscription, StatusEventsSubscriptionVariables>;