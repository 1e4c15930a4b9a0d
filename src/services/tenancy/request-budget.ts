import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Identity } from './authenticate';
import type { LimitStore } from './limit-store';
import { BudgetSlices } from './budget-slices';

/** What one spend left: requests spent this window (this one included) and when the window resets. */
export interface Spent {
  spent: number;
  resetMs: number;
}

/**
 * The published rate limit (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW, docs/operations.md, Limits): one budget per
 * caller (`budgetKeyOf`), shared by every transport, so that REST and GraphQL requests (through
 * @fastify/rate-limit, src/http/rate-limits.ts) and graphql-ws operations spend the same one, in
 * whichever process of the service they arrive (LimitStore).
 */
export class RequestBudget {
  private readonly limiter: RateLimiterAbstract;
  /** Shared by several processes: spent in slices, not a round trip per request. */
  private readonly slices?: BudgetSlices;

  constructor(
    readonly max: number,
    readonly windowMs: number,
    store: LimitStore,
  ) {
    this.limiter = store.windowCounter({ keyPrefix: 'budget', points: max, windowMs });
    if (store.kind === 'postgres') this.slices = new BudgetSlices(this.limiter, max, sliceSizeOf(max));
  }

  /** Spends one request of `key`'s budget; over it when `spent > max`. */
  async spend(key: string): Promise<Spent> {
    if (this.slices) return this.slices.spend(key);
    try {
      const spent = await this.limiter.consume(key);
      return { spent: spent.consumedPoints, resetMs: spent.msBeforeNext };
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      return { spent: refused.consumedPoints, resetMs: refused.msBeforeNext };
    }
  }
}

/** 1% of the budget, at most 100 requests: a client spread over N processes may be refused at most (N - 1) slices early. */
function sliceSizeOf(max: number): number {
  return Math.min(100, Math.max(1, Math.floor(max / 100)));
}

/**
 * Whose budget an authenticated caller spends: its client and environment, or, for an editor
 * session, its project (an end user's editor link never spends the shop's budget).
 */
export function budgetKeyOf(identity: Identity): string {
  return identity.projectScope
    ? `editor:${identity.projectScope}`
    : `client:${identity.tenant.clientId}:${identity.tenant.env}`;
}
