import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { post, request, serviceHeader } from '../support/http';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';
import { waitFor } from '../support/wait';

/**
 * The embedded PostgreSQL (no DATABASE_URL, as the README starts the service) is SIGKILLed, as the
 * kernel's OOM killer would: the service restarts it and serves again, with every project it had
 * acknowledged; `/readyz` does not stay 503 behind a `/healthz` that keeps saying 200.
 */
describe('the embedded PostgreSQL killed', () => {
  let service: ServiceProcess | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    await service?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  it('comes back by itself with everything acknowledged', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'photobook-embedded-kill-'));
    await chmod(dataDir, 0o755); // as root, PostgreSQL runs as its own user and must reach its data
    service = await startServiceProcess({
      DATA_DIR: dataDir,
      PORT: '0',
      DATABASE_URL: undefined,
      TEMPORAL_ADDRESS: undefined,
    });
    const url = service.url;
    const demo = JSON.parse(await readFile(path.join(dataDir, 'demo-client.json'), 'utf8'));
    const auth = serviceHeader(demo.credentials.dev);
    const generate = async (userId: string) => {
      const response = await post(url, '/v2/generate', { sku: 'PB-HC-A4-P', psp: 'local', marketId: 0, userId }, auth);
      return response.status === 200 ? new URL(response.body.url).searchParams.get('id')! : undefined;
    };
    const acknowledged: string[] = [];
    for (let i = 0; i < 3; i++) acknowledged.push((await generate('before-kill'))!);

    const postmasterPid = Number(
      (await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0],
    );
    process.kill(postmasterPid, 'SIGKILL');
    await waitFor(
      async () => (await request(url, 'GET', '/readyz').catch(() => ({ status: 0 }))).status !== 200,
      10_000,
      'readiness to notice',
    );
    // Meanwhile requests are "try again", never 500.
    const during = await post(url, '/v2/generate', { sku: 'PB-HC-A4-P', psp: 'local', marketId: 0 }, auth);
    expect([200, 503]).toContain(during.status);
    if (during.status === 200) acknowledged.push(new URL(during.body.url).searchParams.get('id')!);

    await waitFor(
      async () => (await request(url, 'GET', '/readyz')).status === 200,
      60_000,
      'ready again after the kill',
    );
    expect(service.child.exitCode).toBeNull();
    expect(service.logs.some((l) => l.msg === 'the embedded PostgreSQL is running again')).toBe(true);
    const newPid = Number((await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    expect(newPid).not.toBe(postmasterPid);

    const after = await waitFor(() => generate('after-kill'), 30_000, 'a project generated after the restart');
    acknowledged.push(after);
    for (const id of acknowledged) {
      await waitFor(
        async () =>
          (await request(url, 'GET', `/v2/project/status?id=${id}`, { headers: auth })).body.status?.project ===
          'editable',
        60_000,
        `${id} editable`,
      );
    }
    expect((await request(url, 'GET', '/healthz')).status).toBe(200);
  }, 150_000);
});
