import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { DomainError } from '../domain/errors';

/** Probes of a supervisor are never throttled: a busy client must not get the service restarted. */
const UNLIMITED_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Per-client rate limits (README, Limits): one budget per credential as presented (the X-Service
 * accessKey, or the digest of an eCommerce `key`), one per address for requests without any.
 * Counted before validation, so that malformed floods count too. Headers of the IETF draft
 * (`RateLimit-Limit`, `-Remaining`, `-Reset`, `RateLimit-Policy`) on every answer; a 429 problem
 * with `Retry-After` once the budget is spent.
 */
export async function registerRateLimits(app: FastifyInstance, limits: Config['limits']): Promise<void> {
  const windowSeconds = Math.max(1, Math.round(limits.rateLimitWindowMs / 1000));
  const policy = `${limits.rateLimitMax};w=${windowSeconds}`;
  await app.register(rateLimit, {
    global: true,
    hook: 'preValidation',
    max: limits.rateLimitMax,
    timeWindow: limits.rateLimitWindowMs,
    enableDraftSpec: true,
    keyGenerator: rateLimitKeyOf,
    allowList: (request) => UNLIMITED_ROUTES.has(request.routeOptions.url ?? ''),
    errorResponseBuilder: (_request, context) =>
      new DomainError('rate_limited', 'RATE_LIMITED', `more than ${context.max} requests in ${windowSeconds}s from this client; retry in ${context.after}`),
  });
  app.addHook('onSend', async (request, reply) => {
    if (!UNLIMITED_ROUTES.has(request.routeOptions.url ?? '')) reply.header('ratelimit-policy', policy);
  });
}

/** The budget a request spends: its credential as presented, else its address. */
export function rateLimitKeyOf(request: FastifyRequest): string {
  const header = request.headers['x-service'];
  if (typeof header === 'string') {
    try {
      const { accessKey } = JSON.parse(header) as { accessKey?: unknown };
      if (typeof accessKey === 'string' && accessKey) return `access:${accessKey}`;
    } catch {
      // Not a credential: counted by address below.
    }
  }
  const key = (request.body as { key?: unknown } | undefined)?.key;
  if (typeof key === 'string' && key) return `api:${createHash('sha256').update(key).digest('hex')}`;
  return `ip:${request.ip}`;
}
