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
