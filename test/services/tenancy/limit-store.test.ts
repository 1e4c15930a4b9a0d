import net from 'node:net';
import { MikroORM, knex, type Knex } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ormConfig } from '../../../src/db/orm-config';
import { RateLimitedError } from '../../../src/domain/errors';
import { AuthFailureLimiter } from '../../../src/services/tenancy/auth-failures';
import { LimitStore } from '../../../src/services/tenancy/limit-store';
import { RequestBudget } from '../../../src/services/tenancy/request-budget';
import { createTestDatabase } from '../../support/harness';

/**
 * LIMITS_STORE=postgres: counters that two processes of one database share. Each "process" here is
 * an ORM of its own (its own pool and connections) over the same database, as two services have;
 * the budgets are those the transports spend (RequestBudget, AuthFailureLimiter).
 */
describe('limits shared through PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const orms: MikroORM[] = [];
  let processA: LimitStore;
  let processB: LimitStore;

  beforeAll(async () => {
    database = await createTestDatabase();
    for (let i = 0; i < 2; i++) orms.push(await MikroORM.init(ormConfig(database.url, { poolMax: 2 })));
    [processA, processB] = orms.map((orm) => LimitStore.postgres(orm.em.getKnex()));
  });
  afterAll(async () => {
    await Promise.all(orms.map((orm) => orm.close()));
    await database?.drop();
  });

  it('spends one budget per key whichever process counts it, refusing past the limit on both', async () => {
    const a = new RequestBudget(6, 60_000, processA);
    const b = new RequestBudget(6, 60_000, processB);
    const spent = [];
    for (let i = 0; i < 3; i++)
      spent.push((await a.spend('client:shared')).spent, (await b.spend('client:shared')).spent);
    expect(spent).toEqual([1, 2, 3, 4, 5, 6]);

    const overOnA = await a.spend('client:shared');
    const overOnB = await b.spend('client:shared');
    expect(overOnA.spent).toBeGreaterThan(6);
    expect(overOnB.spent).toBeGreaterThan(6);
    expect(overOnA.resetMs).toBeGreaterThan(0);
    // A key already over is refused from A's memory after that, and still reads as over.
    expect((await a.spend('client:shared')).spent).toBeGreaterThan(6);

    // Another key has its own budget.
    expect((await b.spend('client:other')).spent).toBe(1);
  });

  it('claims a large budget in slices (1% of it) yet admits no request past it, however the requests spread', async () => {
    const a = new RequestBudget(200, 60_000, processA);
    const b = new RequestBudget(200, 60_000, processB);
    const admitted = [];
    for (let i = 0; i < 100; i++)
      admitted.push((await a.spend('client:sliced')).spent, (await b.spend('client:sliced')).spent);
    expect(admitted.every((spent) => spent <= 200)).toBe(true);
    expect(new Set(admitted).size).toBe(200);
    expect((await a.spend('client:sliced')).spent).toBeGreaterThan(200);
    expect((await b.spend('client:sliced')).spent).toBeGreaterThan(200);

    // Concurrent requests on both: never more than the budget, at most one slice (2) per other process short of it.
    const burst = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 2 ? a : b).spend('client:burst')));
    const through = burst.filter(({ spent }) => spent <= 200).length;
    expect(through).toBeLessThanOrEqual(200);
    expect(through).toBeGreaterThanOrEqual(198);
  });

  it('starts a fresh window for both processes once the window has passed', async () => {
    const a = new RequestBudget(2, 1_000, processA);
    const b = new RequestBudget(2, 1_000, processB);
    await a.spend('client:window');
    await b.spend('client:window');
    expect((await a.spend('client:window')).spent).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await b.spend('client:window')).spent).toBe(1);
  });

  it('counts failed authentications of an address on every process: a guesser gets no more tries by changing process', async () => {
    const a = new AuthFailureLimiter(3, 60_000, processA);
    const b = new AuthFailureLimiter(3, 60_000, processB);
    await a.count('203.0.113.7');
    await b.count('203.0.113.7');
    await expect(a.refuseWhenSpent('203.0.113.7')).resolves.toBeUndefined();
    await a.count('203.0.113.7');
    await expect(b.refuseWhenSpent('203.0.113.7')).rejects.toBeInstanceOf(RateLimitedError);
    await expect(a.refuseWhenSpent('203.0.113.7')).rejects.toBeInstanceOf(RateLimitedError);
    await expect(b.refuseWhenSpent('203.0.113.8')).resolves.toBeUndefined();
  });
});

describe('limits when PostgreSQL cannot be reached', () => {
  let unreachable: Knex;

  beforeAll(async () => {
    const port = await closedPort();
    unreachable = knex({
      client: 'pg',
      connection: `postgres://postgres@127.0.0.1:${port}/nowhere`,
      pool: { min: 0, max: 2 },
      acquireConnectionTimeout: 2_000,
    });
  });
  afterAll(() => unreachable?.destroy());

  it('counts in this process alone: neither refusing everyone nor letting a flood through', async () => {
    const budget = new RequestBudget(3, 60_000, LimitStore.postgres(unreachable));
    const spent = [];
    for (let i = 0; i < 5; i++) spent.push((await budget.spend('client:during-outage')).spent);
    expect(spent.slice(0, 3)).toEqual([1, 2, 3]);
    expect(spent.slice(3).every((n) => n > 3)).toBe(true);

    const failures = new AuthFailureLimiter(1, 60_000, LimitStore.postgres(unreachable));
    await failures.count('198.51.100.1');
    await expect(failures.refuseWhenSpent('198.51.100.1')).rejects.toBeInstanceOf(RateLimitedError);
  });
});

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
