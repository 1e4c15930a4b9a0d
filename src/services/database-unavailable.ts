import { WorkflowEngineUnavailableError } from '../domain/flows';

/**
 * Whether an error means "the database cannot be reached right now" (a restart, a failover, a
 * full pool) rather than a fault of the request or of our code. Transports answer those with 503 and
 * `Retry-After` instead of 500: the same request will succeed once the database is back.
 *
 * Errors arrive wrapped in several ways (pg's own, MikroORM's DriverException copying pg's
 * properties, knex's pool timeout, `cause` chains, GraphQL's `originalError`), so the chain is walked.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof WorkflowEngineUnavailableError) return true;
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const current = pending.pop();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const candidate = current as {
      code?: unknown;
      name?: unknown;
      message?: unknown;
      cause?: unknown;
      originalError?: unknown;
      errors?: unknown;
    };
    if (typeof candidate.code === 'string' && UNAVAILABLE_CODES.has(candidate.code)) return true;
    if (candidate.name === 'KnexTimeoutError') return true;
    if (
      typeof candidate.message === 'string' &&
      UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(candidate.message as string))
    )
      return true;
    pending.push(candidate.cause, candidate.originalError);
    if (Array.isArray(candidate.errors)) pending.push(...candidate.errors);
  }
  return false;
}

const UNAVAILABLE_CODES = new Set([
  // Sockets: nothing listens (restart), the peer went away, or the network does not answer.
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // SQLSTATE class 08 (connection exception) and 57P0x (operator intervention: shutdown, crash,
  // starting up), 53300 (too many connections).
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  '57P05',
  '53300',
]);

const UNAVAILABLE_MESSAGES = [
  // pg: the server closed the socket (shutdown, kill); MikroORM puts the SQL before the message.
  /Connection terminated (unexpectedly|due to connection timeout)/i,
  /Client has encountered a connection error and is not queryable/i,
  /Client was closed and is not queryable/i,
  /Timeout acquiring a connection/i, // knex: the pool could not hand out a connection in time
  /the database system is (starting up|shutting down|in recovery mode)/i,
  // knex: a query on a transaction whose connection died under it (the transaction was rolled back).
  /Transaction query already complete/i,
];
