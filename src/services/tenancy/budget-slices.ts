import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** The numbers of the requests a slice admits, in the window that ends at `endsAt`. */
interface Slice {
  next: number;
  last: number;
  endsAt: number;
}

/** Sweep finished slices once this many keys are held. */
const SWEEP_AT = 10_000;

/**
 * Spends a counter shared by all processes (LimitStore's PostgreSQL one) in slices, so that a
 * request costs a database round trip only once per slice: each process claims `sliceSize` points
 * of a key's window at once and admits them from memory. Every point admitted was claimed in the
 * shared count, so no process admits past the limit; a client spread over N processes may be
 * refused up to (N - 1) unspent slices early (those other processes hold) and, near the limit, a
 * claim is cut to what is left. Concurrent requests of one key wait for one claim rather than each
 * making its own.
 */
export class BudgetSlices {
  private readonly slices = new Map<string, Slice>();
  private readonly claims = new Map<string, Promise<void>>();

  constructor(
    private readonly counter: RateLimiterAbstract,
    private readonly max: number,
    private readonly sliceSize: number,
  ) {}

  /** As RequestBudget.spend: the number of this request in its key's window, and when the window resets. */
  async spend(key: string): Promise<{ spent: number; resetMs: number }> {
    for (;;) {
      const slice = this.slices.get(key);
      const now = Date.now();
      if (slice && slice.endsAt > now) {
        if (slice.next <= slice.last) return { spent: slice.next++, resetMs: slice.endsAt - now };
        if (slice.last >= this.max) return { spent: this.max + 1, resetMs: slice.endsAt - now };
      }
      let claim = this.claims.get(key);
      if (!claim) {
        claim = this.claim(key).finally(() => this.claims.delete(key));
        this.claims.set(key, claim);
      }
      await claim;
    }
  }

  private async claim(key: string): Promise<void> {
    let result: RateLimiterRes;
    try {
      result = await this.counter.consume(key, this.sliceSize);
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      result = refused;
    }
    if (this.slices.size >= SWEEP_AT) this.sweep();
    // Refused from the counter's memory (already over), it reports no points: the window is spent.
    const claimedTo = result.consumedPoints > 0 ? result.consumedPoints : this.max + this.sliceSize;
    const first = claimedTo - this.sliceSize + 1;
    this.slices.set(key, {
      next: first,
      last: Math.min(claimedTo, Math.max(this.max, first - 1)),
      endsAt: Date.now() + result.msBeforeNext,
    });
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, slice] of this.slices) if (slice.endsAt <= now) this.slices.delete(key);
  }
}
