import type { Config } from '../config';

/** How often Node looks for requests past their time at most (its own default is 30 s, which would stretch a short timeout). */
const MAX_CHECK_INTERVAL_MS = 5_000;

/**
 * Fastify's server options that bound how long a request may take to arrive (REQUEST_TIMEOUT,
 * HEADERS_TIMEOUT; docs/operations.md, Limits). Fastify's own requestTimeout is 0, never: a body
 * trickled a byte a second would hold its socket forever. Past the bound Node answers 408 (or
 * closes the connection when an answer was already sent, such as a 401 decided from the headers).
 * Node checks for late requests every `connectionsCheckingInterval`, so a request is cut off
 * within its timeout plus at most a quarter of it (5 s at most).
 */
export function requestTimeoutOptions(limits: Pick<Config['limits'], 'requestTimeoutMs' | 'headersTimeoutMs'>) {
  const checkEvery = Math.max(50, Math.min(MAX_CHECK_INTERVAL_MS, Math.floor(limits.requestTimeoutMs / 4)));
  return {
    requestTimeout: limits.requestTimeoutMs,
    http: {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: checkEvery,
    },
  };
}
