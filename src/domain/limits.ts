/**
 * Limits the API promises: the services enforce them and the REST schemas and GraphQL arguments
 * publish them, all from here.
 */

/** Project ids per `project/delete` request. */
export const MAX_DELETE_IDS = 10;

/** Projects per `print` order. */
export const MAX_PROJECTS_PER_ORDER = 50;

/** Photos per project (at `generate`, or replacing them with an order). */
export const MAX_PHOTOS = 1000;

/** A page of a user's projects (`project/list`, GraphQL `projects`): the size and its default. */
export const MAX_PROJECT_PAGE_SIZE = 100;

/** A page of GraphQL `orders`: at most this many, `DEFAULT_ORDER_PAGE_SIZE` when not given. */
export const MAX_ORDER_PAGE_SIZE = 100;
export const DEFAULT_ORDER_PAGE_SIZE = 10;

/** A page of the eCommerce order history (`get-order-history`). */
export const ORDER_HISTORY_PAGE_SIZE = 10;

/**
 * Free-form objects a client stores as it sends them (`metadata`, `custom`, GraphQL JSON
 * scalars): nesting at most this deep (an object or array inside the field is one level)...
 */
export const MAX_FREEFORM_DEPTH = 8;

/** ...and at most this many bytes once serialised as JSON (UTF-8). */
export const MAX_FREEFORM_BYTES = 16 * 1024;

/**
 * Copies of one book an order line or a quoted line may ask for. One bound for the quote, the print
 * and `validateOnly`: what the printers' sandbox and live flows size their work by.
 */
export const MAX_COPIES = 1000;

/**
 * Interior pages a client may name (a quote's `pageCount`, a print's `metadata.pageCount`); a
 * product's own `min.pages`…`max.pages` narrows it. Books have an even page count (two pages a leaf).
 */
export const MAX_BOOK_PAGES = 1000;

/**
 * Every amount of an order a client sends (a line total, shipping, coupon, grand total) and the sum
 * of an order's line totals: 0 to this many major units of its currency. Far below what the order
 * columns hold (numeric(14,4): under 10^10) and, in minor units, below 2^53, so no amount reaches
 * the database or the arithmetic out of range.
 */
export const MAX_MONEY = 1_000_000_000;
