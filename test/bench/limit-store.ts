/**
 * `npx tsx test/bench/limit-store.ts`: what one request's budget spend costs in each LIMITS_STORE,
 * measured in this process against DATABASE_URL's server (its own database photobook_bench_limits):
 * memory, PostgreSQL counting every request (what a slice of one costs, RATE_LIMIT_MAX < 200), and
 * PostgreSQL in slices of 100 (RATE_LIMIT_MAX >= 10000). 50 requests in flight, as the status bench
 * sends, over one client key (its counter row is the hot one) and over 50 keys. Sides interleaved,
 * medians of 3 rounds. Prints figures; asserts nothing.
 */
import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig } from '../../src/db/orm-config';
import { LimitStore } from '../../src/services/tenancy/limit-store';
import { RequestBudget } from '../../src/services/tenancy/request-budget';
import { benchDatabase, median } from './bench-env';

const IN_FLIGHT = 50;
const SPENDS = 40_000;

const url = await benchDatabase('photobook_bench_limits');
const orm = await MikroORM.init(ormConfig(url));
await orm.getMigrator().up();
const shared = LimitStore.postgres(orm.em.getKnex());
const sides = {
  memory: () => new RequestBudget(1e9, 60_000, LimitStore.memory()),
  'postgres, every request': () => new RequestBudget(150, 60_000, shared),
  'postgres, slices of 100': () => new RequestBudget(1e9, 60_000, shared),
};

/** Microseconds per spend with IN_FLIGHT spends always pending, over `keys` keys. */
async function perSpend(budget: RequestBudget, keys: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  const runner = async (lane: number) => {
    while (next < SPENDS) {
      next++;
      await budget.spend(`client:bench-${lane % keys}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, (_, lane) => runner(lane)));
  return ((performance.now() - started) * 1000) / SPENDS;
}

try {
  for (const keys of [1, IN_FLIGHT]) {
    const results = new Map<string, number[]>();
    for (let round = 0; round < 3; round++) {
      for (const [name, make] of Object.entries(sides)) {
        await orm.em.getConnection().execute('TRUNCATE rate_limit_counts');
        // "every request" admits only 150 per key and window: past it, refusals from memory would be measured instead.
        const budget = make();
        const micros =
          name === 'postgres, every request' ? await perSpendUnderLimit(budget, keys) : await perSpend(budget, keys);
        results.set(name, [...(results.get(name) ?? []), micros]);
      }
    }
    for (const [name, micros] of results)
      console.log(
        `${keys === 1 ? 'one key ' : `${keys} keys`} | ${name.padEnd(24)} | ${median(micros).toFixed(1)} µs per request`,
      );
  }
} finally {
  await orm.close();
}

/** As perSpend, with a fresh key every 150 spends so that every spend is admitted and counted in the database. */
async function perSpendUnderLimit(budget: RequestBudget, keys: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  const runner = async (lane: number) => {
    while (next < SPENDS / 4) {
      const n = next++;
      await budget.spend(`client:exact-${lane % keys}-${Math.floor(n / (150 * Math.min(keys, IN_FLIGHT)))}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, (_, lane) => runner(lane)));
  return ((performance.now() - started) * 1000) / (SPENDS / 4);
}
