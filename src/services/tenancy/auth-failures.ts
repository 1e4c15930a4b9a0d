import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimitedError } from '../../domain/errors';
import type { LimitStore } from './limit-store';

/**
 * Failed authentications per address (AUTH_FAILURES_MAX per AUTH_FAILURES_WINDOW, docs/operations.md, Limits).
 * An address that spent its failures is refused with 429 before its next credential reaches the
 * database, and for a wrong secret of a credential held in memory too (CredentialCache); that
 * credential with its right secret still passes, so callers that share an address with a guesser
 * keep working once their key is known. Counted for all processes of the database (LimitStore): a
 * guesser spread over N processes gets no N times the tries. Both calls sit on paths that query
 * the database anyway (an uncached credential, a failure).
 */
export class AuthFailureLimiter {
  private readonly failures: RateLimiterAbstract;

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    store: LimitStore,
  ) {
    this.failures = store.windowCounter({ keyPrefix: 'auth-failures', points: max, windowMs });
  }

  /** Throws a RATE_LIMITED error while `address` has no failures left. */
  async refuseWhenSpent(address: string): Promise<void> {
    const spent = await this.failures.get(address);
    if (!spent || spent.consumedPoints < this.max) return;
    const retryAfterSeconds = Math.max(1, Math.ceil(spent.msBeforeNext / 1000));
    throw new RateLimitedError(
      `more than ${this.max} failed authentications from this address in ${Math.round(this.windowMs / 1000)}s; retry in ${retryAfterSeconds}s`,
      retryAfterSeconds,
    );
  }

  async count(address: string): Promise<void> {
    await this.failures.penalty(address);
  }
}
