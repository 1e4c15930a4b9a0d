import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { adminQuery } from '../support/global-setup';
import { post, request, serviceHeader } from '../support/http';
import { printBody } from '../support/print-fixtures';
import { freePort } from '../support/private-postgres';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';
import { waitFor } from '../support/wait';
import { waivePhotoMinimum } from '../support/photo-minimum';

const run = promisify(execFile);
const MAX_RECOVERY_ATTEMPTS = 2;

/**
 * Issue 39: a fulfilment whose execution exhausted the heap was resumed at every start and took the
 * service down again, for ever. Here a fulfilment's `planRender` exhausts the heap whenever it runs
 * (TEST_EXHAUST_MEMORY_IN_ACTIVITY, a test-only hook the configuration refuses in production), and
 * the service is restarted after each death, as a supervisor would. With FLOW_MAX_RECOVERY_ATTEMPTS=2
 * the run dies at its start and at two recoveries; at the third restart DBOS parks it instead: the
 * service stays up and serves, the order line shows `failed processing` with a reason, the metric and
 * the log say so, and `flow list --dead` lists it. Once the cause is gone, `flow retry` finishes it.
 */
describe('a flow that exhausts the heap at every recovery', () => {
  const serverUrl = inject('databaseServerUrl');
  const database = `photobook_poison_${process.pid}`;
  let service: ServiceProcess | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    await service?.stop();
    await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('is parked after N restarts while the service stays up, and an operator can retry it', async () => {
    await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await adminQuery(serverUrl, `CREATE DATABASE ${database}`);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'photobook-poison-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: `${serverUrl}/${database}`,
      DATA_DIR: dataDir,
      PORT: String(port),
      TEMPORAL_ADDRESS: undefined,
      SANDBOX_PRINTER_STEP: '200ms',
      FLOW_MAX_RECOVERY_ATTEMPTS: String(MAX_RECOVERY_ATTEMPTS),
    };
    const poisoned = {
      ...env,
      TEST_EXHAUST_MEMORY_IN_ACTIVITY: 'planRender',
      // A small heap, so that exhausting it takes a moment and little of the machine.
      NODE_OPTIONS: '--max-old-space-size=320',
    };

    service = await startServiceProcess(poisoned);
    const demo = JSON.parse(await readFile(path.join(dataDir, 'demo-client.json'), 'utf8'));
    // These orders test the service, not the book: no 20-photo minimum (support/photo-minimum.ts).
    await waivePhotoMinimum(`${serverUrl}/${database}`, demo.clientId);
    const auth = serviceHeader(demo.credentials.dev);
    const generated = await post(
      url,
      '/v2/generate',
      { sku: 'PB-HC-15-S', psp: 'local', marketId: 0, userId: 'poison' },
      auth,
    );
    expect(generated.status).toBe(200);
    const bookId = new URL(generated.body.url).searchParams.get('id')!;
    await waitFor(
      async () =>
        (await request(url, 'GET', `/v2/project/status?id=${bookId}`, { headers: auth })).body.status?.project ===
        'editable',
      60_000,
      'book editable',
    );
    expect((await post(url, '/v2/print', printBody('poison-order', bookId), auth)).status).toBe(200);

    // The first run dies of the heap; the service is started again after each death, as a supervisor
    // would: each recovery dies the same way (perhaps before it listens, since launch resumes the run).
    const first = await service.exited;
    expect(first.code ?? first.signal).not.toBe(0);
    expect(service.stderr()).toMatch(/heap out of memory|Reached heap limit/);
    for (let recovery = 1; recovery <= MAX_RECOVERY_ATTEMPTS; recovery++) {
      const life = await startServiceProcess(poisoned).catch(() => undefined);
      if (!life) continue;
      service = life;
      // While it is up it serves.
      const health = await request(url, 'GET', '/healthz').catch(() => undefined);
      if (health) expect(health.status).toBe(200);
      const death = await life.exited;
      expect(death.code ?? death.signal).not.toBe(0);
    }
    // The third restart.
    service = await startServiceProcess(poisoned);

    // This life parks the run instead of resuming it: it stays up, and serves, for good.
    await waitFor(
      () => Promise.resolve(service!.logs.find((l) => l.msg?.startsWith('flow parked'))),
      60_000,
      'the parked flow logged',
    );
    const parkedLog = service.logs.find((l) => l.msg?.startsWith('flow parked'))!;
    expect(parkedLog).toMatchObject({
      level: 50,
      flow: 'printFulfilment',
      workflowId: expect.stringMatching(/^fulfilment:/),
    });
    const line = async () =>
      (await post(url, '/graphql', { query: '{ order(orderId: "poison-order") { lines { status } } }' }, auth)).body
        .data?.order?.lines?.[0]?.status;
    await waitFor(async () => (await line()) === 'failed processing', 30_000, 'the line failed');
    const events = await post(
      url,
      '/graphql',
      { query: '{ events(orderId: "poison-order", first: 100) { events { type data } } }' },
      auth,
    );
    const failed = events.body.data.events.events.find(
      (e: { data: { line?: { status: string } } }) => e.data.line?.status === 'failed processing',
    );
    expect(failed).toMatchObject({
      type: 'order.line.status_changed',
      data: { reason: expect.stringContaining('an operator retries or cancels it') },
    });
    const metrics = await fetch(service.metricsUrl!);
    expect(await metrics.text()).toMatch(/^photobook_flows_dead_lettered 1$/m);
    // Still up a while later, answering work of every kind.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(service.child.exitCode).toBeNull();
    expect(
      (await post(url, '/v2/generate', { sku: 'PB-HC-15-S', psp: 'local', marketId: 0, userId: 'after-parking' }, auth))
        .status,
    ).toBe(200);
    expect((await request(url, 'GET', '/readyz')).status).toBe(200);

    // The operator sees it with the CLI, fixes the cause (a release without the fault), and retries it.
    const cli = async (...args: string[]) =>
      (
        await run('npm', ['run', '--silent', 'cli', '--', ...args], {
          env: { ...process.env, ...env, DATABASE_URL: env.DATABASE_URL, LOG_LEVEL: 'warn' },
        })
      ).stdout;
    const dead = JSON.parse(await cli('flow', 'list', '--dead', '--json'));
    expect(dead).toEqual([
      expect.objectContaining({
        workflowId: parkedLog.workflowId,
        flow: 'printFulfilment',
        status: 'parked',
        recoveryAttempts: MAX_RECOVERY_ATTEMPTS + 2,
      }),
    ]);
    await service.stop();
    service = await startServiceProcess(env);
    expect(await cli('flow', 'retry', parkedLog.workflowId)).toContain('resumes from its last recorded step');
    await waitFor(async () => (await line()) === 'complete', 120_000, 'the retried order complete');
    expect(JSON.parse(await cli('flow', 'list', '--dead', '--json'))).toEqual([]);
    const parkedMetric = async () => (await fetch(service!.metricsUrl!)).text();
    const back = async () => /^photobook_flows_dead_lettered 0$/m.test(await parkedMetric());
    await waitFor(back, 10_000, 'the metric back to 0');
  }, 420_000);
});
