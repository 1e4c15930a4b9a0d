import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { post, request, serviceHeader } from '../support/http';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';
import { waitFor } from '../support/wait';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Issue 39: `kill -9` of the service's node process (what the OOM killer does) left the embedded
 * PostgreSQL running as an orphan, and every later start exited "already running". Now the
 * watchdog stops the server when its service dies, and a start that still finds an orphan on its
 * own DATA_DIR (the watchdog killed too) stops it and goes on.
 */
describe('the service SIGKILLed with the embedded PostgreSQL', () => {
  let service: ServiceProcess | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    await service?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  it('starts again on the same DATA_DIR and serves, whether the watchdog or the next start stops the orphan', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'photobook-orphan-'));
    await chmod(dataDir, 0o755); // as root, PostgreSQL runs as its own user and must reach its data
    const env = { DATA_DIR: dataDir, PORT: '0', DATABASE_URL: undefined, TEMPORAL_ADDRESS: undefined };
    const postmaster = async () =>
      Number((await readFile(path.join(dataDir!, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    /** The node process itself (tsx runs it as a child of its own): the pid in its log lines. */
    const nodePid = (s: ServiceProcess) => s.logs.find((l) => l.msg === 'photobook service listening')!.pid as number;
    const watchdogPid = (s: ServiceProcess) =>
      s.logs.find((l) => l.msg === 'embedded PostgreSQL started')!.watchdogPid as number;

    service = await startServiceProcess(env);
    const demo = JSON.parse(await readFile(path.join(dataDir, 'demo-client.json'), 'utf8'));
    const auth = serviceHeader(demo.credentials.dev);
    const generated = await post(
      service.url,
      '/v2/generate',
      { sku: 'PB-HC-A4-P', psp: 'local', marketId: 0, userId: 'orphan' },
      auth,
    );
    expect(generated.status).toBe(200);
    const projectId = new URL(generated.body.url).searchParams.get('id')!;

    // 1. Only the node process is killed: its watchdog stops the server.
    const firstServer = await postmaster();
    process.kill(nodePid(service), 'SIGKILL');
    await service.exited;
    await waitFor(async () => !alive(firstServer), 20_000, 'the watchdog to stop the server');
    service = await startServiceProcess(env);
    expect((await request(service.url, 'GET', `/v2/project/status?id=${projectId}`, { headers: auth })).status).toBe(
      200,
    );

    // 2. The watchdog dies with it (a kill of both): the server is left an orphan, and the next start reclaims it.
    const orphan = await postmaster();
    process.kill(watchdogPid(service), 'SIGKILL');
    process.kill(nodePid(service), 'SIGKILL');
    await service.exited;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(alive(orphan)).toBe(true);
    service = await startServiceProcess(env);
    expect(service.logs.some((l) => l.msg === 'stopped the orphaned embedded PostgreSQL' && l.pid !== undefined)).toBe(
      true,
    );
    expect(alive(orphan)).toBe(false);
    expect(
      (await request(service.url, 'GET', `/v2/project/status?id=${projectId}`, { headers: auth })).body.status.project,
    ).toBeDefined();
    expect(
      (
        await post(
          service.url,
          '/v2/generate',
          { sku: 'PB-HC-A4-P', psp: 'local', marketId: 0, userId: 'orphan' },
          auth,
        )
      ).status,
    ).toBe(200);
    expect((await request(service.url, 'GET', '/readyz')).status).toBe(200);
  }, 240_000);
});
