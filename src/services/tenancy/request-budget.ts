import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Identity } from './authenticate';

/** What one spend left: requests spent this window (this one included) and when the window resets. */
export interface Spent {
  spent: number;
  resetMs: number;
}

/**
 * The published rate limit (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW, docs/operations.md, Limits): one budget per
 * caller (`budgetKeyOf`), shared by every transport, so that REST and GraphQL requests (through
 * @fastify/rate-limit, src/http/rate-limits.ts) and graphql-ws operations spend the same one.
 */
export class RequestBudget {
  private readonly limiter: RateLimiterMemory;

  constructor(
    readonly max: number,
    readonly windowMs: number,
  ) {
    this.limiter = new RateLimiterMemory({ points: max, duration: windowMs / 1000 });
  }

  /** Spends one request of `key`'s budget; over it when `spent > max`. */
  async spend(key: string): Promise<Spent> {
    try {
      const spent = await this.limiter.consume(key);
      return { spent: spent.consumedPoints, resetMs: spent.msBeforeNext };
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      return { spent: refused.consumedPoints, resetMs: refused.msBeforeNext };
    }
  }
}

/**
 * Whose budget an authenticated caller spends: its client and environment, or, for an editor
 * session, its project (an end user's editor link never spends the shop's budget).
 */
export function budgetKeyOf(identity: Identity): string {
  return identity.projectScope ? `editor:${identity.projectScope}` : `client:${identity.tenant.clientId}:${identity.tenant.env}`;
}
