import type { MikroORM } from '@mikro-orm/postgresql';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATUS_EVENT_LISTENER, StatusEventBus } from '../../src/events/status-event-bus';
import { recordStatusChange, type StatusEventMessage } from '../../src/events/status-event-log';
import type { Tenant } from '../../src/services/context';
import { startTestService, type TestService } from '../support/harness';
import { waitFor } from '../support/wait';

describe('status event bus', () => {
  let api: TestService;
  let orm: MikroORM;
  let tenant: Tenant;
  let bus: StatusEventBus;
  let subjectCounter = 0;

  beforeAll(async () => {
    api = await startTestService();
    const client = await api.createClient('Bus shop');
    tenant = { clientId: client.clientId, clientName: client.name, env: 'prod' };
    // Commits go through another connection pool than the one the bus listens on.
    orm = await api.orm();
    bus = new StatusEventBus(api.databaseUrl, pino({ level: 'silent' }));
    await bus.start();
  });
  afterAll(async () => {
    await bus?.stop();
    await api?.stop();
  });

  /** The next event this subject's subscription hears. */
  function nextEventOf(subjectId: string): Promise<StatusEventMessage> {
    const events = bus.subscribe({ ...tenant, subject: { subjectType: 'project', subjectId } }, () => true);
    return events.next().then(async (result) => {
      await events.return?.();
      return result.value as StatusEventMessage;
    });
  }

  const commit = (subjectId: string, status: string) =>
    orm.em.fork().transactional((tx) => recordStatusChange(tx, tenant, { subjectType: 'project', subjectId, status }));

  it('delivers an event committed through another pool, and never one that was rolled back', async () => {
    const subjectId = `bus-${++subjectCounter}`;
    const heard = nextEventOf(subjectId);

    await expect(
      orm.em.fork().transactional(async (tx) => {
        await recordStatusChange(tx, tenant, { subjectType: 'project', subjectId, status: 'rolled back' });
        throw new Error('abandon the transaction');
      }),
    ).rejects.toThrow('abandon');
    await commit(subjectId, 'committed');

    // NOTIFY is delivered in commit order: had the rolled-back event been sent, it would come first.
    expect(await heard).toMatchObject({
      subjectId,
      status: 'committed',
      sequence: 1,
      clientId: tenant.clientId,
      env: 'prod',
    });
  });

  it('hands an event to the listeners of its tenant and of its subject only', async () => {
    const subjectId = `bus-${++subjectCounter}`;
    const otherSubject = `bus-${++subjectCounter}`;
    const heard = {
      subject: [] as string[],
      tenant: [] as string[],
      otherSubject: [] as string[],
      otherEnv: [] as string[],
      otherEnvSubject: [] as string[],
    };
    const record = (into: string[]) => ({
      statusEvent: (event: StatusEventMessage) => into.push(`${event.subjectId}:${event.status}`),
    });
    const listening = [
      [{ ...tenant, subject: { subjectType: 'project', subjectId } }, record(heard.subject)],
      [tenant, record(heard.tenant)],
      [{ ...tenant, subject: { subjectType: 'project', subjectId: otherSubject } }, record(heard.otherSubject)],
      [{ ...tenant, env: 'dev' }, record(heard.otherEnv)],
      [{ ...tenant, env: 'dev', subject: { subjectType: 'project', subjectId } }, record(heard.otherEnvSubject)],
    ] as const;
    for (const [audience, listener] of listening) bus.on(audience, listener);
    await commit(subjectId, 'first');
    await commit(subjectId, 'second');
    // Every listener is called in the same dispatch: once these two have heard both, the others had their chance.
    await waitFor(async () => heard.subject.length === 2 && heard.tenant.length === 2, 5_000, 'both events');
    for (const [audience, listener] of listening) bus.off(audience, listener);

    expect(heard.subject).toEqual([`${subjectId}:first`, `${subjectId}:second`]);
    expect(heard.tenant).toEqual(heard.subject);
    expect(heard.otherSubject).toEqual([]);
    expect(heard.otherEnv).toEqual([]);
    expect(heard.otherEnvSubject).toEqual([]);
  });

  it('listens again after its connection is terminated, and hears the next event', async () => {
    const db = orm.em.getConnection();
    const listeners = () =>
      db.execute<{ pid: number; listening: boolean }[]>(
        `SELECT pid, state = 'idle' AND query ILIKE 'LISTEN %' AS listening FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = ?`,
        [STATUS_EVENT_LISTENER],
      );
    const before = await listeners();
    expect(before.length).toBeGreaterThan(0); // this test's bus and the service's

    const terminated = await db.execute<{ done: boolean }[]>(
      'SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE datname = current_database() AND application_name = ?',
      [STATUS_EVENT_LISTENER],
    );
    expect(terminated.every((row) => row.done)).toBe(true);

    const old = new Set(before.map((row) => row.pid));
    await waitFor(
      async () => {
        const now = await listeners();
        return now.filter((row) => !old.has(row.pid) && row.listening).length === before.length;
      },
      30_000,
      'the listeners to connect again and LISTEN',
    );

    const subjectId = `bus-${++subjectCounter}`;
    const heard = nextEventOf(subjectId);
    await commit(subjectId, 'after the reconnect');
    expect(await heard).toMatchObject({ subjectId, status: 'after the reconnect' });
  });
  it("hands an event to its subject's guards before any other listener, even one that listened first", async () => {
    const subjectId = `bus-${++subjectCounter}`;
    const heard: string[] = [];
    const subject = { subjectType: 'project', subjectId };
    const tenantWide = { statusEvent: () => heard.push('tenant listener') };
    const ofSubject = { statusEvent: () => heard.push('subject listener') };
    const guard = { statusEvent: () => heard.push('guard') };
    bus.on(tenant, tenantWide);
    bus.on({ ...tenant, subject }, ofSubject);
    bus.guard({ ...tenant, subject }, guard);
    try {
      await commit(subjectId, 'editable');
      await waitFor(async () => heard.length === 3, 10_000, 'the event to reach all three');
      // An editor socket's guard closes it before its subscriptions are handed the event (src/graphql/editor-socket-watch.ts).
      expect(heard).toEqual(['guard', 'tenant listener', 'subject listener']);
    } finally {
      bus.off(tenant, tenantWide);
      bus.off({ ...tenant, subject }, ofSubject);
      bus.unguard({ ...tenant, subject }, guard);
    }
  });
});
