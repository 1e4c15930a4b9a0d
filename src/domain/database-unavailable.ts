/**
 * The database being unreachable for a moment (a restart, a failover, a full pool) is a state every
 * transport names to clients the same way: 503 with `Retry-After`, this code and this message.
 * Which errors mean that state is decided in src/services/database-unavailable.ts.
 */

/** Seconds a client should wait before retrying while the database is away (a restart takes a few). */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** How every transport names that state to a client: the error code and its message. */
export const DATABASE_UNAVAILABLE_CODE = 'SERVICE_UNAVAILABLE';
export const DATABASE_UNAVAILABLE_MESSAGE = `the database is not reachable right now; retry in ${DATABASE_RETRY_AFTER_SECONDS} s`;
