/**
 * What each error code of the vocabulary (errors.ts) means: its HTTP status and when it is
 * answered, one entry per (status, codes) as docs/api.md's "Error codes" table lists them (a test
 * holds the two equal). `GET /problems/<code>` serves these explanations, so a problem's `type`
 * resolves to them. Text is Markdown: `code` spans and [links](#anchor) into docs/api.md.
 */
export interface ErrorExplanation {
  status: number;
  codes: readonly string[];
  when: string;
}

export const ERROR_EXPLANATIONS: readonly ErrorExplanation[] = [
  {
    status: 400,
    codes: ['VALIDATION_FAILED'],
    when:
      'a field is missing, of the wrong type, out of its limits or not one of its allowed values; one ' +
      '`errors[]` entry per field',
  },
  {
    status: 400,
    codes: ['MALFORMED_JSON'],
    when: 'the body is not JSON, or is empty while declared as JSON (path `(body)`)',
  },
  {
    status: 400,
    codes: ['AMBIGUOUS_OWNER'],
    when: 'generate: both `email` and `userId` given (both paths listed)',
  },
  {
    status: 400,
    codes: ['INVALID_EMAIL'],
    when: 'an e-mail address (`email`, `user`, `targetUser`) is not one',
  },
  {
    status: 400,
    codes: ['INVALID_USER_ID'],
    when:
      'a `userId` (or `user`, `targetUser`) does not match `[-_]?(?:[A-Za-z0-9]+[-_]?)+` or is longer ' + 'than 200',
  },
  {
    status: 400,
    codes: ['INVALID_PROJECT_ID'],
    when: 'a project id does not have the project id format',
  },
  {
    status: 400,
    codes: ['UNKNOWN_CURSOR'],
    when:
      '`cursor` (or GraphQL `after`) is not a cursor this service issued: not one we encoded, or one ' +
      'whose values are not a date-time and an id of the list (a forged cursor never reaches the query)',
  },
  {
    status: 400,
    codes: ['TOO_MANY_IDS'],
    when: 'delete: more than 10 ids (GraphQL; REST says `VALIDATION_FAILED`)',
  },
  {
    status: 400,
    codes: ['UNKNOWN_DELETE_TYPE'],
    when: 'delete: `type` is neither `async` nor `sync` (REST says `VALIDATION_FAILED`)',
  },
  {
    status: 400,
    codes: ['UNKNOWN_ENV'],
    when: 'eCommerce: `env` is neither `dev` nor `prod` (REST says `VALIDATION_FAILED`)',
  },
  {
    status: 400,
    codes: ['INVALID_TEXT'],
    when:
      'a string anywhere in the body, the query or GraphQL variables holds a NUL character (`\\u0000`) ' +
      'or an unpaired UTF-16 surrogate; the path names it (GraphQL string literals: the argument path, ' +
      'as a validation error)',
  },
  {
    status: 400,
    codes: ['INVALID_TEXT'],
    when:
      'an object key anywhere in the body, the query, GraphQL variables or a GraphQL object literal ' +
      '(`metadata`, `custom`) is `__proto__`, `constructor` or `prototype`; the path names it (GraphQL ' +
      'object literals: as a validation error)',
  },
  {
    status: 400,
    codes: ['INVALID_IDEMPOTENCY_KEY'],
    when: 'the `Idempotency-Key` header is not 1 to 255 visible ASCII characters (path `Idempotency-Key`)',
  },
  {
    status: 400,
    codes: ['MALFORMED_EVENT'],
    when: 'printer event: the signed body is not a valid event (path `(body)`)',
  },
  {
    status: 400,
    codes: ['NO_SUCH_PAGE', 'NO_SUCH_SLOT'],
    when:
      'GraphQL book edits: a page number or a photo slot the book does not have (path `from`, `to`, ' +
      '`page`, `a.slot`, …)',
  },
  {
    status: 400,
    codes: ['PAGE_FULL', 'SAME_PAGE'],
    when: "`movePhoto`, `placePhoto` with `toPage`: the target page has no free slot, or is the photo's own page",
  },
  {
    status: 400,
    codes: ['SAME_SLOT'],
    when: '`placePhoto` (REST `POST /v2/project/book/place`): the photo is in that slot already (path `photoId`)',
  },
  {
    status: 400,
    codes: ['ODD_PAGE_COUNT'],
    when: '`removePages`: an odd number of pages; books keep an even page count',
  },
  {
    status: 400,
    codes: ['PAGE_LIMIT'],
    when: "`addPages` / `removePages`: the book would leave the product's `min.pages`…`max.pages`",
  },
  {
    status: 400,
    codes: ['INVALID_PAGE_COUNT'],
    when: "cover dimensions: `pages` is odd or outside the product's `min.pages`…`max.pages` (path `pages`)",
  },
  {
    status: 400,
    codes: ['UNKNOWN_COUNTRY'],
    when: 'quote: `countryIso2` is not an ISO 3166-1 alpha-2 country',
  },
  {
    status: 400,
    codes: ['COUNTRY_NOT_SHIPPED'],
    when: "quote: the market's `shipsWithin` does not cover `countryIso2` (print: 422)",
  },
  {
    status: 400,
    codes: ['UNKNOWN_SHIPPING_LEVEL'],
    when: "quote: `shippingLevel` is no level's code or name in the market",
  },
  {
    status: 400,
    codes: ['SHIPPING_LEVEL_UNAVAILABLE'],
    when: 'quote: the level asked for does not reach `countryIso2` (print: 422)',
  },
  {
    status: 400,
    codes: ['NOT_SOLD_IN_MARKET'],
    when: 'quote: the product has no price in the market',
  },
  {
    status: 400,
    codes: ['COUPON_TOO_LARGE'],
    when: "quote: `coupon.value` is more than the books' subtotal (print: 422, path `payment.coupon.value`)",
  },
  {
    status: 400,
    codes: ['UNKNOWN_LAYOUT', 'LAYOUT_TOO_SMALL'],
    when: '`setPageLayout`: not a page layout, or one with fewer slots than the page has photos',
  },
  {
    status: 400,
    codes: ['SPREAD_NEEDS_LAYFLAT', 'SPREAD_ON_RIGHT_PAGE', 'SPREAD_NEEDS_FACING_PAGE'],
    when:
      '`setPageLayout` with `spread`: the product is not layflat (path `layout`), the page is a right-hand page or ' +
      'the last page, or the page after it holds photos (path `page`) ([spreads](#spreads))',
  },
  {
    status: 400,
    codes: ['SPREAD_HALF', 'SPREAD_SPLIT'],
    when:
      'book edits: the page is the right half of a spread, which has no layout or slot of its own (path `page`, ' +
      '`toPage`); the edit would leave half a spread or start one on a right-hand page (path `to`, `after`, `pages`)',
  },
  {
    status: 400,
    codes: ['UNKNOWN_FONT'],
    when:
      '`setPageCaptions` (REST `POST /v2/project/book/captions`): a font that does not ship with the project ' +
      '(`Source Sans 3`, `Lora`); the path names the caption',
  },
  {
    status: 400,
    codes: ['INVALID_SHOP_ORIGIN'],
    when:
      'operator CLI `client shop-origins`: an `--origin` is not an origin (`https://host[:port]`, ' +
      '`http` only for localhost, `https://*.host` for subdomains; no path, query or fragment); the ' +
      'path names it (`origin[1]`)',
  },
  {
    status: 400,
    codes: ['INVALID_CATALOGUE'],
    when:
      "operator CLI `catalogue import`: the file is not valid JSON, breaks the catalogue's schema or its rules, " +
      'or drops a market that projects or orders are in; `errors[]` lists every problem by path',
  },
  {
    status: 401,
    codes: ['UNAUTHENTICATED'],
    when:
      'credentials missing, malformed, unknown or wrong; printer signature missing, wrong or older than ' +
      '5 minutes; no secret configured for that printer',
  },
  {
    status: 403,
    codes: ['FILE_URL_UNSIGNED'],
    when: 'a `/files/…` path without `expires` and `signature`: only the signed URLs the API hands out are ' + 'served',
  },
  {
    status: 403,
    codes: ['FILE_URL_INVALID'],
    when: 'a `/files/…` URL whose signature does not match its key and expiry (changed, or missing a part)',
  },
  {
    status: 403,
    codes: ['FILE_URL_EXPIRED'],
    when: 'a signed `/files/…` URL past its `expires`; ask the API again for a fresh one',
  },
  {
    status: 404,
    codes: ['NOT_FOUND'],
    when:
      'an id that is unknown, deleted or belongs to another client or environment: project, order, ' +
      'print job, stored file; the path names the field',
  },
  {
    status: 404,
    codes: ['NO_SUCH_ROUTE'],
    when: 'no endpoint has this method and path',
  },
  {
    status: 409,
    codes: ['PROJECT_BUILDING'],
    when:
      'duplicate: the project is still `created` or `building`; quote, proof: its book is not laid out yet; ' +
      'print: the order states a page count (`metadata.pageCount`, `extraPages`) for a book not laid ' +
      'out yet (path `projects[i].id`)',
  },
  {
    status: 409,
    codes: ['PRINT_JOB_BEING_SENT'],
    when:
      'printer event naming only `jobId`: its status is earlier than the status of the line that id names, and not a move ' +
      "the table allows, while a job to this printer is still being sent, so the event may be that job's; retry it (or send `jobKey`)",
  },
  {
    status: 409,
    codes: ['PROJECT_LOCKED'],
    when: "delete: the project's status does not allow deletion",
  },
  {
    status: 409,
    codes: ['PROJECT_EXPIRED'],
    when:
      'print: a project has expired; GraphQL book edits: the project passed its expiry ' +
      '(`PROJECT_TTL`) after the editor session was opened; [uploads](#uploads): the project has ' +
      'expired',
  },
  {
    status: 409,
    codes: ['PROJECT_ORDERED'],
    when: 'GraphQL book edits, [uploads](#uploads): the project was ordered; its book belongs to the ' + 'order',
  },
  {
    status: 409,
    codes: ['REVISION_CONFLICT'],
    when:
      "book edits, undo and redo: `expectedRevision` is not the book's latest revision (another editor changed it " +
      'first); nothing was written, and `currentRevision` names the revision to reload',
  },
  {
    status: 409,
    codes: ['NOTHING_TO_UNDO', 'NOTHING_TO_REDO'],
    when:
      'undo: the book has no edit left to take back (none yet, all undone, or a rebuild ended the history); ' +
      'redo: no undone edit to apply again (an edit after the undo ends what can be redone)',
  },
  {
    status: 409,
    codes: ['PROJECT_DELETED'],
    when:
      'GraphQL book edits: the project was deleted after the editor session was opened; ' +
      '[uploads](#uploads): the project was deleted',
  },
  {
    status: 409,
    codes: ['IDEMPOTENCY_CONFLICT'],
    when: 'print: this `orderId` was already used for a different order',
  },
  {
    status: 409,
    codes: ['PAGE_COUNT_MISMATCH'],
    when:
      'print: `projects[i].metadata.pageCount` (or `extraPages`) differs from the book as it is now, ' +
      'also when an editor edit committed while the order was being placed (checked again on the book ' +
      'as locked for the order); with `quoteId`, the book changed under the order (path ' +
      '`projects[i].id`); nothing is written',
  },
  {
    status: 409,
    codes: ['QUOTE_MISMATCH'],
    when:
      'print: the order differs from the quote named by `quoteId`; `errors[]` lists every difference by ' +
      "the order's field",
  },
  {
    status: 409,
    codes: ['QUOTE_EXPIRED'],
    when: 'print: the quote named by `quoteId` is past its `expiresAt`; ask for a new quote',
  },
  {
    status: 409,
    codes: ['PROOF_STALE'],
    when:
      'print: the project changed since the proof named by `projects[i].proofId` (its book, its product, or ' +
      "the order's `metadata.colorCorrection` differs from the proof's); path `projects[i].proofId`; nothing is " +
      'written: make a new proof (`POST /v2/project/proof`) and show it again',
  },
  {
    status: 409,
    codes: ['PROOF_EXPIRED'],
    when:
      'print: the proof named by `projects[i].proofId` is past its `expiresAt` (`PROOF_TTL`); proof read: the ' +
      'same, path `proofId`; make a new proof',
  },
  {
    status: 409,
    codes: ['PROOF_USED'],
    when: 'print: the proof named by `projects[i].proofId` is printed by another order already; a proof holds one order',
  },
  {
    status: 409,
    codes: ['IDEMPOTENCY_KEY_REUSED'],
    when: 'this `Idempotency-Key` was used for another request (another route or body) within its retention',
  },
  {
    status: 409,
    codes: ['IDEMPOTENCY_KEY_IN_FLIGHT'],
    when: 'a request with this `Idempotency-Key` is still being handled; retry later',
  },
  {
    status: 409,
    codes: ['UPLOAD_FINISHED'],
    when:
      '[uploads](#uploads): `PATCH` or `DELETE` of an upload whose last byte already arrived; it ' +
      'is a photo of the project now (`HEAD` answers its full offset)',
  },
  {
    status: 409,
    codes: ['PROJECT_STATUS_CONFLICT'],
    when: "a project's status does not allow the change (the project status table refuses it)",
  },
  {
    status: 409,
    codes: ['ORDER_STATUS_CONFLICT'],
    when: "GraphQL `setOrderStatus` / `confirmPayment`: the order line's status does not allow the change",
  },
  {
    status: 409,
    codes: ['WEBHOOK_NOT_CONFIGURED'],
    when: 'campaign, `sendTestWebhook`: no webhook URL is set for this client and environment',
  },
  {
    status: 409,
    codes: ['ACTION_NOT_AVAILABLE'],
    when:
      'an [order action](#order-actions) the order-status table (or the printer) does not allow now; ' +
      'the message names the action, the line and its status, and why',
  },
  {
    status: 409,
    codes: ['PRINTER_UNAVAILABLE'],
    when:
      'cancel: the printer holding the job could not be asked now (unreachable, 5xx); nothing changed, ' +
      'retry later',
  },
  {
    status: 409,
    codes: ['PROJECT_NOT_EDITABLE'],
    when:
      'GraphQL book edits (`movePage`, …), [uploads](#uploads): the project is not `editable` ' +
      '(still building, ordered, expired)',
  },
  {
    status: 409,
    codes: ['DELIVERY_NOT_FAILED'],
    when: 'GraphQL `replayWebhook`: only a failed delivery can be sent again',
  },
  {
    status: 409,
    codes: ['WEBHOOK_DISABLED'],
    when:
      '`sendTestWebhook`, `replayWebhook` of an event: the webhook endpoint was disabled for failing; ' +
      '`enableWebhook` first ([disabling](#disabling-a-failing-endpoint))',
  },
  {
    status: 413,
    codes: ['PAYLOAD_TOO_LARGE'],
    when:
      'the body is larger than `BODY_LIMIT` (default 1 MiB) on a route authenticated by a header, or ' +
      'than `UNAUTHENTICATED_BODY_LIMIT` (default 64 KiB) elsewhere. The answer comes before the body ' +
      'is read; the connection stays open while the rest arrives (up to 8 MiB), so the client can read ' +
      'it',
  },
  {
    status: 413,
    codes: ['UPLOAD_TOO_LARGE'],
    when:
      '[uploads](#uploads): `Upload-Length` is more than `UPLOAD_MAX_BYTES` (default 64 MiB); ' +
      'refused before a byte is taken',
  },
  {
    status: 415,
    codes: ['UNSUPPORTED_MEDIA_TYPE'],
    when: 'the body is not sent as `application/json`',
  },
  {
    status: 422,
    codes: ['PHOTO_NOT_READY', 'PHOTO_FAILED'],
    when:
      '`placePhoto` (REST `POST /v2/project/book/place`): the photo is still uploading or being analysed (place it ' +
      'once it is `idle`), or it failed (the message gives its problem); path `photoId`',
  },
  {
    status: 422,
    codes: ['PHOTO_PIXEL_LIMIT'],
    when:
      '[uploads](#uploads): the uploaded image declares more than 100,000,000 pixels (width × ' +
      'height); refused at its last byte, nothing is kept',
  },
  {
    status: 422,
    codes: ['NOT_AN_IMAGE'],
    when:
      '[uploads](#uploads): the uploaded file is empty, not an image, in an unsupported format or ' +
      'truncated; refused at its last byte, nothing is kept',
  },
  {
    status: 422,
    codes: ['PROJECT_PHOTO_LIMIT'],
    when:
      '[uploads](#uploads): the project has `UPLOAD_MAX_PHOTOS_PER_PROJECT` photos (default ' +
      '1000), open uploads included',
  },
  {
    status: 422,
    codes: ['UNKNOWN_SKU'],
    when: "`sku` is neither a sku nor a `renderOptions.productId` of the client's catalogue (quote: 400)",
  },
  {
    status: 422,
    codes: ['PRODUCT_UNAVAILABLE'],
    when: 'the product exists but is `disabled` (upcoming)',
  },
  {
    status: 422,
    codes: ['UNKNOWN_PSP'],
    when: '`psp` does not print that product',
  },
  {
    status: 422,
    codes: ['UNKNOWN_MARKET'],
    when: '`marketId` is not a market (nor an alternative market id) of the client (quote: 400)',
  },
  {
    status: 422,
    codes: ['MIXED_MARKETS'],
    when: 'print: the projects of one order are in different markets',
  },
  {
    status: 422,
    codes: ['NOT_PRINTABLE'],
    when:
      "print: a project's book has a blocking preflight problem; one `errors[]` entry per problem, path " +
      '`projects[i].id`, message naming the page, the problem and its preflight code; nothing is ' +
      'written',
  },
  {
    status: 422,
    codes: ['COUNTRY_NOT_SHIPPED'],
    when: "print: the market's `shipsWithin` does not cover `user.address.countryIso2`",
  },
  {
    status: 422,
    codes: ['SHIPPING_LEVEL_UNAVAILABLE'],
    when:
      'print: the level `payment.shipping.method` names does not reach the destination (path ' +
      '`payment.shipping.method`), or no level of the market does (path `user.address.countryIso2`)',
  },
  {
    status: 422,
    codes: ['INVALID_POSTCODE'],
    when: "print: `user.address.postcode` does not have the country's format",
  },
  {
    status: 422,
    codes: ['STATE_REQUIRED'],
    when: 'print: `user.address.state` is missing for a country whose carriers need it (US, CA, AU, BR, IN, ' + 'MX)',
  },
  {
    status: 422,
    codes: ['INVALID_STATE'],
    when:
      'print: `user.address.state` is no ISO 3166-2 subdivision of the country (by code, `CA` or ' +
      '`US-CA`, or by name)',
  },
  {
    status: 422,
    codes: ['INVALID_PHONE'],
    when: 'print: `user.telephone` is not a valid telephone number',
  },
  {
    status: 422,
    codes: ['TOTALS_MISMATCH'],
    when:
      'print: `payment.grandTotal` differs from the line items + shipping − coupon; the message names ' + 'all amounts',
  },
  {
    status: 422,
    codes: ['COUPON_TOO_LARGE'],
    when: "print: `payment.coupon.value` is more than the line items' subtotal (no grand total is negative)",
  },
  {
    status: 422,
    codes: ['UNSUPPORTED_PRINT_TYPE'],
    when: 'product list: `printType` other than `photobook`',
  },
  {
    status: 422,
    codes: ['UNSUPPORTED_SCHEMA'],
    when: 'product list: `schema` other than `1`',
  },
  {
    status: 429,
    codes: ['RATE_LIMITED'],
    when:
      'the client and environment (an editor link: its project; the eCommerce `key`; without ' +
      'credentials, the address) spent its `RATE_LIMIT_MAX` requests of the window, graphql-ws ' +
      'operations included; or the address spent its failed authentications (`AUTH_FAILURES_MAX`). ' +
      '`Retry-After` says when to try again. graphql-ws: an operation over the rate limit or over ' +
      "`WS_MAX_SUBSCRIPTIONS_PER_CLIENT` gets it as the operation's error " +
      '(`extensions.retryAfterSeconds`); an upgrade over `WS_CONNECTS_PER_ADDRESS` is answered HTTP 429',
  },
  {
    status: 429,
    codes: ['PROOF_IN_PROGRESS'],
    when:
      '[proof](#proof): a proof of the same client and environment is still being made; one renders at a ' +
      'time per client (and a few per API process, in turn), so that one client cannot hold back ' +
      "others' proofs; `Retry-After` (5 s), or send the next once the first is answered",
  },
  {
    status: 429,
    codes: ['UPLOAD_DAILY_LIMIT'],
    when:
      '[uploads](#uploads): the upload would pass `UPLOAD_BYTES_PER_DAY` (default 20 GiB), what a ' +
      'client and environment may upload in 24 hours, counted on `Upload-Length`; `Retry-After` ' +
      'says when the window resets',
  },
  {
    status: 500,
    codes: ['INTERNAL'],
    when: 'a fault of ours; it is logged with the `requestId` and never caused by input',
  },
  {
    status: 503,
    codes: ['SERVICE_UNAVAILABLE'],
    when:
      'the database cannot be reached right now (a restart, a failover, an exhausted pool): nothing is ' +
      "wrong with the request; retry after the `Retry-After` header's seconds. GraphQL answers HTTP 503 " +
      'with `extensions.code` `SERVICE_UNAVAILABLE` (over graphql-ws, the same code in the error; a ' +
      'connection that cannot be authenticated meanwhile closes with 1013 Try Again Later). `GET ' +
      '/readyz` answers 503 `{"status":"unavailable"}` meanwhile',
  },
];
