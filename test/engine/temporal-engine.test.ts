import { fileURLToPath } from 'node:url';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemporalEngine } from '../../src/engine/temporal-engine';
import { createFlowWorker } from '../../src/engine/temporal-worker';
import { WorkflowNotFoundError } from '../../src/engine/workflow-engine';
import { createTestActivities } from './fixtures/test-activities';
import { APPROVE, GO, compensateFlow, orderFlow, signalFlow, type OrderResult } from './fixtures/test-flows';

/** Whose work the test runs are: every start names a tenant. */
const TENANT = { tenant: { clientId: 'engine-test-client', env: 'prod' as const } };

/**
 * The same test flows as the embedded engine's tests, on a real Temporal server: only when
 * TEMPORAL_ADDRESS is set (e.g. `docker compose up temporal`, then TEMPORAL_ADDRESS=localhost:7233).
 */
const address = process.env.TEMPORAL_ADDRESS;
const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';
const workflowsPath = fileURLToPath(new URL('./fixtures/temporal-index.ts', import.meta.url));

describe.skipIf(!address)('flows on a real Temporal server', () => {
  const taskQueue = `engine-test-${process.pid}-${Date.now()}`;
  const test = createTestActivities();
  let connection: NativeConnection;
  let worker: Worker;
  let running: Promise<void>;
  let engine: TemporalEngine;

  const uniqueId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

  async function waitFor(probe: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!probe()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeAll(async () => {
    connection = await NativeConnection.connect({ address: address! });
    worker = await createFlowWorker({ connection, namespace, taskQueue, workflowsPath, activities: test.activities });
    running = worker.run();
    // A worker that dies early fails the suite in afterAll, not as an unhandled rejection.
    running.catch(() => {});
    engine = await TemporalEngine.connect({
      address: address!,
      namespace,
      taskQueue,
      flowNames: ['testOrder', 'testCompensate', 'testSignal'],
      log: pino({ level: 'silent' }),
    });
  }, 120_000);

  afterAll(async () => {
    await engine?.stop();
    if (worker?.getState() === 'RUNNING') worker.shutdown();
    await running;
    await connection?.close();
  }, 60_000);

  it('runs a flow with activities, a sleep and a signal to completion', async () => {
    const id = uniqueId('order');
    await engine.start(orderFlow.contract, { runId: id, orderId: id, sleepMs: 500 }, TENANT);
    await waitFor(() => test.calls(`charge:${id}`) === 1, 'charge');
    await engine.signal(APPROVE, id, { by: 'ops' });
    const outcome = await engine.waitForCompletion(id, 30_000);

    expect(outcome).toMatchObject({
      status: 'completed',
      result: { reserved: `reserved:${id}`, charged: `charged:${id}`, shipped: `shipped:${id}:ops`, approvedBy: 'ops' },
    });
    expect((outcome.result as OrderResult).elapsedMs).toBeGreaterThanOrEqual(500);
    expect([test.calls(`reserve:${id}`), test.calls(`charge:${id}`), test.calls(`ship:${id}`)]).toEqual([1, 1, 1]);
  }, 60_000);

  it('hands the flow an activity error by name, without retrying a non-retryable one', async () => {
    const id = uniqueId('compensate');
    await engine.start(compensateFlow.contract, { runId: id, orderId: id }, TENANT);
    const outcome = await engine.waitForCompletion(id, 30_000);

    expect(outcome).toEqual({
      status: 'completed',
      result: {
        outcome: 'compensated',
        error: `CardDeclined: card of ${id} declined`,
        refund: `refunded ${id} (CardDeclined: card of ${id} declined)`,
      },
    });
    expect(test.calls(`chargeCard:${id}`)).toBe(1);
  }, 60_000);

  it('delivers a signal sent before the wait, and times a wait out', async () => {
    const early = uniqueId('early-signal');
    await engine.start(signalFlow.contract, { runId: early, sleepMs: 1_000, timeoutMs: 10_000 }, TENANT);
    await engine.signal(GO, early, { n: 1 });
    expect(await engine.waitForCompletion(early, 30_000)).toMatchObject({
      status: 'completed',
      result: { payload: { n: 1 }, timedOut: false },
    });

    const late = uniqueId('signal-timeout');
    await engine.start(signalFlow.contract, { runId: late, sleepMs: 1, timeoutMs: 500 }, TENANT);
    expect(await engine.waitForCompletion(late, 30_000)).toMatchObject({
      status: 'completed',
      result: { payload: null, timedOut: true },
    });
  }, 60_000);

  it('starts a workflowId once, and refuses signals to runs that are not running', async () => {
    const id = uniqueId('idempotent');
    await engine.start(compensateFlow.contract, { runId: id, orderId: `${id}-first` }, TENANT);
    await engine.start(compensateFlow.contract, { runId: id, orderId: `${id}-second` }, TENANT);
    expect((await engine.waitForCompletion(id, 30_000)).status).toBe('completed');
    await engine.start(compensateFlow.contract, { runId: id, orderId: `${id}-third` }, TENANT);
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    expect(test.calls(`reserve:${id}-first`)).toBe(1);
    expect(test.calls(`reserve:${id}-second`)).toBe(0);
    expect(test.calls(`reserve:${id}-third`)).toBe(0);
    await expect(engine.signal(GO, id, undefined)).rejects.toBeInstanceOf(WorkflowNotFoundError);
    await expect(engine.signal(GO, uniqueId('never-started'), undefined)).rejects.toBeInstanceOf(WorkflowNotFoundError);
  }, 60_000);
});
