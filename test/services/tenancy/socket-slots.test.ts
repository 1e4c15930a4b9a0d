import { MikroORM } from '@mikro-orm/postgresql';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ormConfig } from '../../../src/db/orm-config';
import { SharedSlots } from '../../../src/services/tenancy/socket-slots';
import { createTestDatabase } from '../../support/harness';

const log = pino({ level: 'silent' });
const FAST = { heartbeatMs: 100, expiryMs: 600 };

/**
 * LIMITS_STORE=postgres: graphql-ws slots counted for every process of one database. Each "process"
 * is an ORM of its own over the same database, as two services have.
 */
describe('graphql-ws slots shared through PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const orms: MikroORM[] = [];
  const slots: SharedSlots[] = [];
  let client = 0;
  const freshClient = () => `client:slots-${++client}`;

  /** A process of the service: its own pool, its own process id. */
  async function startProcess(timing = FAST): Promise<SharedSlots> {
    const orm = await MikroORM.init(ormConfig(database.url, { poolMax: 3 }));
    orms.push(orm);
    const process = new SharedSlots(orm.em.getKnex(), log, timing);
    slots.push(process);
    return process;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const process of slots) await process.close();
    await Promise.all(orms.map((orm) => orm.close()));
    await database?.drop();
  });

  it('holds a cap across processes, each slot given back freeing one for any process', async () => {
    const [a, b] = [await startProcess(), await startProcess()];
    const key = freshClient();
    expect(await a.take(key, 'connections', 3)).toBe(true);
    expect(await b.take(key, 'connections', 3)).toBe(true);
    expect(await a.take(key, 'connections', 3)).toBe(true);
    expect(await b.take(key, 'connections', 3)).toBe(false);
    expect(await a.take(key, 'connections', 3)).toBe(false);
    // Subscriptions and other clients are counted apart.
    expect(await b.take(key, 'subscriptions', 1)).toBe(true);
    expect(await a.take(freshClient(), 'connections', 3)).toBe(true);

    a.release(key, 'connections', 1);
    await eventually(async () => (await b.take(key, 'connections', 3)) === true);
    expect(await a.take(key, 'connections', 3)).toBe(false);
  });

  it('never lets concurrent takes on several processes pass the cap', async () => {
    const [a, b] = [await startProcess(), await startProcess()];
    const key = freshClient();
    const takes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).take(key, 'subscriptions', 7)),
    );
    expect(takes.filter(Boolean)).toHaveLength(7);
  });

  it('stops counting the slots of a process that went silent (died) once its heartbeat is expiryMs old', async () => {
    // A heartbeat that never comes again after the first: what a SIGKILLed process leaves.
    const dead = await startProcess({ heartbeatMs: 3_600_000, expiryMs: FAST.expiryMs });
    const live = await startProcess();
    const key = freshClient();
    expect(await dead.take(key, 'connections', 2)).toBe(true);
    expect(await dead.take(key, 'connections', 2)).toBe(true);
    expect(await live.take(key, 'connections', 2)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, FAST.expiryMs + 300));
    expect(await live.take(key, 'connections', 2)).toBe(true);
    // Its rows are gone too, not only ignored.
    const [{ count }] = await orms[0].em
      .getConnection()
      .execute('SELECT count(*)::int AS count FROM socket_slot_processes WHERE process_id = ?', [dead.processId]);
    expect(count).toBe(0);
  });

  it('writes its slots again when it finds its row gone (an unlogged table emptied by a database crash)', async () => {
    const a = await startProcess();
    const b = await startProcess();
    const key = freshClient();
    expect(await a.take(key, 'connections', 2)).toBe(true);
    expect(await a.take(key, 'connections', 2)).toBe(true);
    await orms[0].em.getConnection().execute('TRUNCATE socket_slots, socket_slot_processes');
    await eventually(async () => {
      const [{ held }] = await orms[0].em
        .getConnection()
        .execute('SELECT coalesce(sum(connections), 0)::int AS held FROM socket_slots WHERE client_key = ?', [key]);
      return held === 2;
    });
    expect(await b.take(key, 'connections', 2)).toBe(false);
  });
});

/** Polls `condition` every 50 ms for up to 5 s. */
async function eventually(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
