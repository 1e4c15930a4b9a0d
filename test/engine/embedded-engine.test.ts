import { MikroORM } from '@mikro-orm/postgresql';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FlowDefinition } from '../../workflows/flow-context';
import { ormConfig } from '../../src/db/orm-config';
import { WorkflowRun, WorkflowSignal, WorkflowStep } from '../../src/db/entities';
import { EmbeddedEngine } from '../../src/engine/embedded-engine';
import { retryDelayMs } from '../../src/engine/activity-attempts';
import { UnknownFlowError, WorkflowNotFoundError } from '../../src/engine/workflow-engine';
import { createTestDatabase } from '../support/harness';
import { createTestActivities } from './fixtures/test-activities';
import {
  batchFlow,
  compensateFlow,
  orderFlow,
  retryFlow,
  signalFlow,
  timeoutFlow,
  versionedFlowV1,
  versionedFlowV2,
} from './fixtures/test-flows';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFlow = FlowDefinition<any, any, any>;
const ALL_FLOWS: AnyFlow[] = [orderFlow, retryFlow, timeoutFlow, compensateFlow, signalFlow, batchFlow];
const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: MikroORM;
const engines: EmbeddedEngine[] = [];
const extraOrms: MikroORM[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  orm = await MikroORM.init(ormConfig(database.url, { poolMax: 4 }));
});

afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.stop()));
});

afterAll(async () => {
  await Promise.all(extraOrms.map((other) => other.close()));
  await orm?.close();
  await database?.drop();
});

let counter = 0;
function uniqueId(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

function newEngine(activities: ReturnType<typeof createTestActivities>['activities'], options: { orm?: MikroORM; flows?: AnyFlow[] } = {}) {
  const engine = new EmbeddedEngine({ orm: options.orm ?? orm, flows: options.flows ?? ALL_FLOWS, activities, log, signalPollMs: 100 });
  engines.push(engine);
  return engine;
}

/** A second ORM on the same database: what another process (or the restarted one) would have. */
async function anotherProcessOrm(): Promise<MikroORM> {
  const other = await MikroORM.init(ormConfig(database.url, { poolMax: 4 }));
  extraOrms.push(other);
  return other;
}

async function waitFor<T>(probe: () => Promise<T> | T, what: string, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function stepsOf(workflowId: string) {
  return orm.em.fork().find(WorkflowStep, { run: workflowId }, { orderBy: { seq: 'asc' } });
}

function runOf(workflowId: string) {
  return orm.em.fork().findOneOrFail(WorkflowRun, { workflowId });
}

describe('embedded engine', () => {
  it('runs a flow with activities, a sleep and a signal to completion and records it', async () => {
    const test = createTestActivities();
    const engine = newEngine(test.activities);
    const id = uniqueId('order');

    await engine.start('testOrder', id, { orderId: id, sleepMs: 300 });
    await waitFor(() => test.calls(`charge:${id}`) === 1, 'charge');
    await engine.signal(id, 'approve', { by: 'ops' });
    const outcome = await engine.waitForCompletion(id, 10_000);

    expect(outcome).toMatchObject({
      status: 'completed',
      result: { reserved: `reserved:${id}`, charged: `charged:${id}`, shipped: `shipped:${id}:ops`, approvedBy: 'ops' },
    });
    expect((outcome.result as { elapsedMs: number }).elapsedMs).toBeGreaterThanOrEqual(300);
    expect([test.calls(`reserve:${id}`), test.calls(`charge:${id}`), test.calls(`ship:${id}`)]).toEqual([1, 1, 1]);

    const run = await runOf(id);
    expect(run.status).toBe('completed');
    expect(run.result).toEqual(outcome.result);
    const steps = await stepsOf(id);
    expect(steps.map((s) => [s.seq, s.kind, s.name])).toEqual([
      [1, 'activity', 'reserve'],
      [2, 'sleep', 'sleep'],
      [3, 'activity', 'charge'],
      [4, 'signal', 'approve'],
      [5, 'activity', 'ship'],
    ]);
    expect(steps.every((s) => s.completedAt instanceof Date)).toBe(true);
    expect(steps[3].outcome).toMatchObject({ received: true, payload: { by: 'ops' } });
    const signals = await orm.em.fork().find(WorkflowSignal, { run: id });
    expect(signals).toHaveLength(1);
    expect(signals[0].consumedAt).toBeInstanceOf(Date);
  });

  it('retries a failing activity with exponential backoff until it succeeds', async () => {
    const test = createTestActivities();
    const engine = newEngine(test.activities);
    const id = uniqueId('retry');

    await engine.start('testRetry', id, { key: id, failures: 2 });
    const outcome = await engine.waitForCompletion(id, 10_000);

    expect(outcome).toEqual({ status: 'completed', result: 'ok after 3 attempts' });
    const [first, second, third] = test.times(`flaky:${id}`);
    expect(test.calls(`flaky:${id}`)).toBe(3);
    // initialIntervalMs 60, coefficient 2: 60 ms, then 120 ms (timers may fire a little early).
    expect(second - first).toBeGreaterThanOrEqual(55);
    expect(third - second).toBeGreaterThanOrEqual(115);
    const steps = await stepsOf(id);
    expect(steps).toHaveLength(1);
    expect(steps[0].outcome).toEqual({ value: 'ok after 3 attempts' });
  });

  it('fails the run when an activity still fails after maximumAttempts', async () => {
    const test = createTestActivities();
    const engine = newEngine(test.activities);
    const id = uniqueId('exhausted');

    await engine.start('testRetry', id, { key: id, failures: 100 });
    const outcome = await engine.waitForCompletion(id, 10_000);

    expect(outcome).toEqual({ status: 'failed', error: 'TransientError: attempt 4 failed' });
    expect(test.calls(`flaky:${id}`)).toBe(4);
    const [step] = await stepsOf(id);
    expect(step.error).toBe('attempt 4 failed');
    expect(step.outcome).toEqual({ errorName: 'TransientError' });
    expect((await runOf(id)).error).toBe('TransientError: attempt 4 failed');
  });

  it('retries an attempt that runs longer than startToCloseTimeoutMs', async () => {
    const test = createTestActivities();
    const engine = newEngine(test.activities);
    const id = uniqueId('timeout');

    await engine.start('testTimeout', id, { key: id });
    const outcome = await engine.waitForCompletion(id, 10_000);

    expect(outcome).toEqual({ status: 'completed', result: 'attempt 2' });
    const [first, second] = test.times(`slowOnce:${id}`);
    expect(second - first).toBeGreaterThanOrEqual(200);
    expect(second - first).toBeLessThan(900);
  });

  it('does not retry a non-retryable error, and the flow can catch it and compensate', async () => {
    const test = createTestActivities();
    const engine = newEngine(test.activities);
    const id = uniqueId('compensate');

    await engine.start('testCompensate', id, { orderId: id });
    const outcome = await engine.waitForCompletion(id, 10_000);

    expect(outcome).toEqual({
      status: 'completed',
      result: {
        outcome: 'compensated',
        error: `CardDeclined: card of ${id} declined`,
        refund: `refunded ${id} (CardDeclined: card of ${id} declined)`,
      },
    });
    expect(test.calls(`chargeCard:${id}`)).toBe(1);
    expect(test.calls(`refund:${id}`)).toBe(1);
  });

  it('delivers a signal sent before the flow waits for it', async () => {
    const test = createTestActivities();
    const engine = newEngine(test.activities);
    const id = uniqueId('early-signal');

    await engine.start('testSignal', id, { sleepMs: 400, timeoutMs: 5_000 });
    await waitFor(async () => (await stepsOf(id)).some((s) => s.kind === 'sleep'), 'the sleep to start');
    await engine.signal(id, 'go', { n: 1 });
    // The flow was still sleeping when the signal came.
    expect((await stepsOf(id)).map((s) => s.kind)).toEqual(['sleep']);
    const outcome = await engine.waitForCompletion(id, 10_000);

    expect(outcome.status).toBe('completed');
    expect(outcome.result).toMatchObject({ payload: { n: 1 }, timedOut: false });
    expect((outcome.result as { waitedMs: number }).waitedMs).toBeLessThan(400);
  });

  it('hands signals of the same name to consecutive waits in the order they were sent', async () => {
    const twoSignals: FlowDefinition<Record<string, never>, unknown[], Record<string, never>> = {
      name: 'testTwoSignals',
      activityOptions: {},
      async run({ sleep, waitForSignal }) {
        await sleep(200);
        return [await waitForSignal('go', 2_000), await waitForSignal('go', 2_000), await waitForSignal('go', 100)];
      },
    };
    const engine = newEngine(createTestActivities().activities, { flows: [twoSignals] });
    const id = uniqueId('two-signals');

    await engine.start('testTwoSignals', id, {});
    await engine.signal(id, 'go', 'first');
    await engine.signal(id, 'go', 'second');

    expect(await engine.waitForCompletion(id, 10_000)).toEqual({ status: 'completed', result: ['first', 'second', null] });
  });

  it('wakes a waiting flow for a signal that another process sent', async () => {
    const executing = newEngine(createTestActivities().activities);
    const otherProcess = newEngine(createTestActivities().activities, { orm: await anotherProcessOrm() });
    const id = uniqueId('remote-signal');

    await executing.start('testSignal', id, { sleepMs: 0, timeoutMs: 5_000 });
    await waitFor(async () => (await stepsOf(id)).some((s) => s.kind === 'signal'), 'the signal wait');
    await otherProcess.signal(id, 'go', 'from elsewhere');
    const outcome = await executing.waitForCompletion(id, 10_000);

    expect(outcome.result).toMatchObject({ payload: 'from elsewhere', timedOut: false });
    expect((outcome.result as { waitedMs: number }).waitedMs).toBeLessThan(2_000);
  });

  it('returns undefined from waitForSignal once its timeout has passed', async () => {
    const engine = newEngine(createTestActivities().activities);
    const id = uniqueId('signal-timeout');

    await engine.start('testSignal', id, { sleepMs: 0, timeoutMs: 300 });
    const outcome = await engine.waitForCompletion(id, 10_000);

    expect(outcome.status).toBe('completed');
    expect(outcome.result).toMatchObject({ payload: null, timedOut: true });
    expect((outcome.result as { waitedMs: number }).waitedMs).toBeGreaterThanOrEqual(300);
    const steps = await stepsOf(id);
    expect(steps[1].outcome).toMatchObject({ timedOut: true });
  });

  it('refuses signals to runs that are not running, and unknown flows', async () => {
    const test = createTestActivities();
    const engine = newEngine(test.activities);
    const id = uniqueId('finished');

    await expect(engine.signal(uniqueId('never-started'), 'go')).rejects.toBeInstanceOf(WorkflowNotFoundError);
    await engine.start('testCompensate', id, { orderId: id });
    expect((await engine.waitForCompletion(id, 10_000)).status).toBe('completed');
    await expect(engine.signal(id, 'go')).rejects.toBeInstanceOf(WorkflowNotFoundError);
    await expect(engine.start('noSuchFlow', uniqueId('x'), {})).rejects.toBeInstanceOf(UnknownFlowError);
  });

  it('starts a workflowId once: starting it again, running or finished, is a no-op', async () => {
    const test = createTestActivities();
    const engine = newEngine(test.activities);
    const id = uniqueId('idempotent');

    await engine.start('testCompensate', id, { orderId: 'first' });
    await Promise.all([
      engine.start('testCompensate', id, { orderId: 'second' }),
      engine.start('testCompensate', id, { orderId: 'third' }),
    ]);
    expect((await engine.waitForCompletion(id, 10_000)).status).toBe('completed');
    await engine.start('testCompensate', id, { orderId: 'fourth' });
    await engine.resumeUnfinished();
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(test.calls('reserve:first')).toBe(1);
    expect(test.calls('chargeCard:first')).toBe(1);
    for (const other of ['second', 'third', 'fourth']) expect(test.calls(`reserve:${other}`)).toBe(0);
    expect((await runOf(id)).input).toEqual({ orderId: 'first' });
  });

  it('executes a run in one place only, across engines on the same database', async () => {
    const test = createTestActivities();
    const engineA = newEngine(test.activities);
    const engineB = newEngine(test.activities, { orm: await anotherProcessOrm() });
    const id = uniqueId('exclusive');

    await engineA.start('testOrder', id, { orderId: id, sleepMs: 600 });
    await waitFor(() => test.calls(`reserve:${id}`) === 1, 'reserve');
    await waitFor(async () => (await stepsOf(id)).some((s) => s.kind === 'sleep'), 'the sleep to start');
    // Another process looking for unfinished runs, and this one again: neither may run it too.
    await engineB.resumeUnfinished();
    await engineA.resumeUnfinished();
    await waitFor(() => test.calls(`charge:${id}`) >= 1, 'charge');
    await engineB.signal(id, 'approve', { by: 'b' });
    const outcome = await engineB.waitForCompletion(id, 10_000);

    expect(outcome.status).toBe('completed');
    expect([test.calls(`reserve:${id}`), test.calls(`charge:${id}`), test.calls(`ship:${id}`)]).toEqual([1, 1, 1]);
  });

  it('resumes after a crash during a sleep without repeating activities, honouring the remaining sleep', async () => {
    const test = createTestActivities();
    const crashed = newEngine(test.activities);
    const id = uniqueId('crash-sleep');
    const sleepMs = 2_000;

    await crashed.start('testOrder', id, { orderId: id, sleepMs });
    const sleepStep = await waitFor(async () => (await stepsOf(id)).find((s) => s.kind === 'sleep'), 'the sleep to start');
    const wakeAt = (sleepStep.outcome as { wakeAt: number }).wakeAt;
    await new Promise((resolve) => setTimeout(resolve, 200));
    await crashed.stop();

    expect((await runOf(id)).status).toBe('running');
    expect(test.calls(`reserve:${id}`)).toBe(1);
    // Down for a while, well into the sleep.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, wakeAt - 1_000 - Date.now())));
    const restarted = newEngine(test.activities, { orm: await anotherProcessOrm() });
    await restarted.resumeUnfinished();
    await waitFor(() => test.calls(`charge:${id}`) === 1, 'charge');
    await restarted.signal(id, 'approve', { by: 'after-restart' });
    const outcome = await restarted.waitForCompletion(id, 10_000);

    expect(outcome).toMatchObject({ status: 'completed', result: { shipped: `shipped:${id}:after-restart` } });
    expect([test.calls(`reserve:${id}`), test.calls(`charge:${id}`), test.calls(`ship:${id}`)]).toEqual([1, 1, 1]);
    // The sleep ended when first planned, not a full sleep after the restart (which would be ~wakeAt + 1000).
    const [chargedAt] = test.times(`charge:${id}`);
    expect(chargedAt).toBeGreaterThanOrEqual(wakeAt);
    expect(chargedAt).toBeLessThan(wakeAt + 600);
    expect((outcome.result as { elapsedMs: number }).elapsedMs).toBeGreaterThanOrEqual(sleepMs);
  });

  it('discards the outcome of an activity in flight at a crash and runs it again on resume', async () => {
    const test = createTestActivities();
    const crashed = newEngine(test.activities);
    const id = uniqueId('crash-activity');
    const gate = test.gate(`charge:${id}`);

    await crashed.start('testOrder', id, { orderId: id, sleepMs: 10 });
    await gate.entered;
    await crashed.stop();
    gate.open();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await stepsOf(id)).map((s) => s.name)).toEqual(['reserve', 'sleep']);

    const restarted = newEngine(test.activities, { orm: await anotherProcessOrm() });
    await restarted.resumeUnfinished();
    await restarted.signal(id, 'approve', { by: 'x' });
    const outcome = await restarted.waitForCompletion(id, 10_000);

    expect(outcome.status).toBe('completed');
    expect(test.calls(`reserve:${id}`)).toBe(1);
    expect(test.calls(`charge:${id}`)).toBe(2);
  });

  it('replays concurrent activities in the order they completed', async () => {
    const test = createTestActivities();
    const crashed = newEngine(test.activities);
    const id = uniqueId('batch');
    const gate = test.gate('fetchItem:slow');
    // fail-after-0 fails first, so its markFailed call is made (and numbered) before fail-after-150's.
    const items = ['fail-after-150', 'fail-after-0', 'slow'];

    await crashed.start('testBatch', id, { items });
    await waitFor(
      async () => (await stepsOf(id)).filter((s) => s.name === 'markFailed' && s.completedAt).length === 2,
      'both markFailed steps',
    );
    await gate.entered;
    await crashed.stop();
    gate.open();

    const restarted = newEngine(test.activities, { orm: await anotherProcessOrm() });
    await restarted.resumeUnfinished();
    const outcome = await restarted.waitForCompletion(id, 10_000);

    expect(outcome).toEqual({ status: 'completed', result: ['failed:fail-after-150', 'failed:fail-after-0', 'fetched:slow'] });
    expect(test.calls('markFailed:fail-after-150')).toBe(1);
    expect(test.calls('markFailed:fail-after-0')).toBe(1);
    expect(test.calls('fetchItem:fail-after-0')).toBe(1);
    expect(test.calls('fetchItem:slow')).toBe(2);
  });

  it('leaves a run whose flow no longer matches its journal running, without doing other work', async () => {
    const test = createTestActivities();
    const old = newEngine(test.activities, { flows: [versionedFlowV1] });
    const id = uniqueId('versioned');

    await old.start('testVersioned', id, {});
    await waitFor(async () => (await stepsOf(id)).some((s) => s.kind === 'signal'), 'the signal wait');
    await old.stop();
    const changed = newEngine(test.activities, { flows: [versionedFlowV2], orm: await anotherProcessOrm() });
    await changed.resumeUnfinished();

    expect(await changed.waitForCompletion(id, 500)).toEqual({ status: 'running' });
    expect(test.calls('reserve:v')).toBe(1);
    expect(test.calls('charge:v')).toBe(0);
    expect(test.calls('charge:v2')).toBe(0);
    expect((await runOf(id)).status).toBe('running');
  });

  it('refuses flows whose activities it was not given', () => {
    const { activities } = createTestActivities();
    const { charge: _charge, ...withoutCharge } = activities;
    expect(() => new EmbeddedEngine({ orm, flows: [orderFlow], activities: withoutCharge, log })).toThrow(/activity "charge"/);
  });
});

describe('retry delays', () => {
  it('grow by the backoff coefficient and stop at maximumIntervalMs', () => {
    const retry = { maximumAttempts: 10, initialIntervalMs: 100, backoffCoefficient: 3, maximumIntervalMs: 500 };
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(retry, attempt))).toEqual([100, 300, 500, 500]);
  });
});
