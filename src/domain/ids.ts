/** Id formats the service issues or accepts, and their checks. */

/**
 * Project ids: `p-` and up to 38 URL-safe characters. The service issues `p-` + 24 base62
 * characters (unguessable: they appear in editor links and asset URLs).
 */
export const PROJECT_ID_PREFIX = 'p-';
export const PROJECT_ID_MAX_LENGTH = 40;
const PROJECT_ID = new RegExp(
  `^${PROJECT_ID_PREFIX}[A-Za-z0-9_-]{1,${PROJECT_ID_MAX_LENGTH - PROJECT_ID_PREFIX.length}}$`,
);

export function isProjectId(value: unknown): value is string {
  return typeof value === 'string' && PROJECT_ID.test(value);
}

/** The caller's order id: 1 to 200 characters, the idempotency key of `print`. */
export const ORDER_ID_MAX_LENGTH = 200;

/** Campaign ids: `cmp_` and 20 base62 characters. */
export const CAMPAIGN_ID_PREFIX = 'cmp_';
const CAMPAIGN_ID = /^cmp_[0-9A-Za-z]{20}$/;

export function isCampaignId(value: unknown): value is string {
  return typeof value === 'string' && CAMPAIGN_ID.test(value);
}

/** Webhook deliveries are numbered by UUID. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
