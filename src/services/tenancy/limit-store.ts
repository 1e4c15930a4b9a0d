import type { Knex } from '@mikro-orm/postgresql';
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** Where the published limits are counted (LIMITS_STORE): in PostgreSQL, shared by every process of the database, or in this process alone. */
export type LimitsStoreKind = 'postgres' | 'memory';

/** The counters table of migration Migration20261127093000. */
const COUNTS_TABLE = 'rate_limit_counts';

export interface WindowCounterOptions {
  /** Tells the counters of one limit from another's in the shared table. */
  keyPrefix: string;
  points: number;
  windowMs: number;
}

/**
 * Fixed-window counters per key for the published limits. With PostgreSQL, a count is one upsert
 * of rate-limiter-flexible's RateLimiterPostgres on an unlogged table (the request budget claims
 * slices of it, BudgetSlices), so a client has one budget whichever process it reaches. Besides:
 * - a key found over its limit is refused from this process's memory until its window resets,
 *   so a flood that is already refused costs no round trip;
 * - when the database cannot be reached, each process counts alone in memory (the limit then
 *   holds per process, as with LIMITS_STORE=memory) rather than refusing everyone (closed) or
 *   nobody (open): the requests that need the database answer 503 DATABASE_UNAVAILABLE anyway.
 */
export class LimitStore {
  private constructor(private readonly knex: Knex | undefined) {}

  static memory(): LimitStore {
    return new LimitStore(undefined);
  }

  /** `knex` is the ORM's (MikroORM's `em.getKnex()`): counters share its pool. */
  static postgres(knex: Knex): LimitStore {
    return new LimitStore(knex);
  }

  get kind(): LimitsStoreKind {
    return this.knex ? 'postgres' : 'memory';
  }

  windowCounter({ keyPrefix, points, windowMs }: WindowCounterOptions): RateLimiterAbstract {
    const window = { keyPrefix, points, duration: windowMs / 1000 };
    if (!this.knex) return new RateLimiterMemory(window);
    return new RateLimiterPostgres({
      ...window,
      storeClient: this.knex,
      storeType: 'knex',
      tableName: COUNTS_TABLE,
      tableCreated: true,
      inMemoryBlockOnConsumed: points + 1,
      insuranceLimiter: new RateLimiterMemory(window),
    });
  }
}
