/** Id formats the service issues or accepts, and their checks. */

/**
 * Project ids: `p-` and up to 38 URL-safe characters. The service issues `p-` + 24 base62
 * characters (unguessable: they appear in editor links and asset URLs).
 */
export const PROJECT_ID_PREFIX = 'p-';
export const PROJECT_ID_MAX_LENGTH = 40;
const PROJECT_ID = new RegExp(`^${PROJECT_ID_PREFIX}[A-Za-z0-9_-]{1,${PROJECT_ID_MAX_LENGTH - PROJECT_ID_PREFIX.length}}$`);

export function isProjectId(value: unknown): value is string {
  return typeof value === 'string' && PROJECT_ID.test(value);
}

/** The caller's order id: 1 to 200 characters, the idempotency key of `print`. */
export const ORDER_ID_MAX_LENGTH = 200;
