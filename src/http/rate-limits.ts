import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors';
import { budgetKeyOf, type RequestBudget } from '../services/tenancy/request-budget';

/**
 * Probes of a supervisor are never throttled: a busy client must not get the service restarted.
 * Prometheus scrapes the metrics listener, which has no limits; /metrics on this port (METRICS_TOKEN)
 * spends its address's budget like any request, so guessing the token is throttled.
 */
const UNLIMITED_ROUTES = new Set(['/healthz', '/readyz']);

/**
 * Per-client rate limits (docs/operations.md, Limits), spent from the RequestBudget that graphql-ws operations
 * spend too: one budget per authenticated client and environment, whichever credential it presents
 * (`X-Service` or the eCommerce `key`; an editor session: per project), per address for requests
 * without any (unknown routes too: app.ts spends it in the 404 handler through `app.rateLimit()`). Requests that fail authentication
 * never get here: they count as failures of their address instead (AUTH_FAILURES_MAX), so another
 * shop's accessKey with a wrong secret spends nothing of that shop's budget. Counted before
 * validation, so that malformed floods count too. Headers of the IETF draft (`RateLimit-Limit`,
 * `-Remaining`, `-Reset`, `RateLimit-Policy`) on every answer; a 429 problem with `Retry-After`
 * once the budget is spent.
 */
export async function registerRateLimits(app: FastifyInstance, budget: RequestBudget): Promise<void> {
  const windowSeconds = Math.max(1, Math.round(budget.windowMs / 1000));
  const policy = `${budget.max};w=${windowSeconds}`;
  await app.register(rateLimit, {
    global: true,
    hook: 'preValidation',
    max: budget.max,
    timeWindow: budget.windowMs,
    enableDraftSpec: true,
    keyGenerator: rateLimitKeyOf,
    store: budgetStore(budget),
    allowList: (request) => UNLIMITED_ROUTES.has(request.routeOptions.url ?? ''),
    errorResponseBuilder: (_request, context) =>
      new DomainError(
        'rate_limited',
        'RATE_LIMITED',
        `more than ${context.max} requests in ${windowSeconds}s from this client; retry in ${context.after}`,
      ),
  });
  // A callback hook: an async one costs every answer a promise and its microtasks.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!UNLIMITED_ROUTES.has(request.routeOptions.url ?? '')) reply.header('ratelimit-policy', policy);
    done(null, payload);
  });
}

/** @fastify/rate-limit's store interface over the shared budget. */
function budgetStore(budget: RequestBudget) {
  return class BudgetStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void): void {
      budget.spend(key).then(
        ({ spent, resetMs }) => callback(null, { current: spent, ttl: resetMs }),
        (error: Error) => callback(error),
      );
    }

    child(): BudgetStore {
      return this;
    }
  };
}

/**
 * The budget a request spends: its authenticated caller (an eCommerce key is authenticated before
 * this count, so it spends its shop's budget as the shop's X-Service does), else its address.
 * Never anything a caller makes up: a fresh garbage key per request would be a fresh budget.
 */
function rateLimitKeyOf(request: FastifyRequest): string {
  if (request.tenant) return budgetKeyOf({ tenant: request.tenant, projectScope: request.projectScope });
  return `ip:${request.ip}`;
}
