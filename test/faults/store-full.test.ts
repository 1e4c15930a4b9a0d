import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { open, rm, statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderLine } from '../../src/db/entities';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { editableProject, printBody } from '../support/print-fixtures';
import { waitFor } from '../support/wait';

const run = promisify(execFile);

/** A real small filesystem for DATA_DIR: a tmpfs this test mounts (it runs as root), or none. */
function mountSmallFilesystem(): { dir: string; unmount(): void } | undefined {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'photobook-full-store-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  return {
    dir,
    unmount() {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes a file until the filesystem has no byte left (ENOSPC): the store is full. */
async function fill(file: string): Promise<void> {
  const handle = await open(file, 'w');
  const chunk = Buffer.alloc(1024 * 1024, 1);
  try {
    for (;;) {
      const { bavail, bsize } = await statfs(path.dirname(file));
      const size = Math.min(chunk.length, bavail * bsize);
      if (size === 0) return;
      await handle.write(chunk, 0, size);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    await handle.close();
  }
}

const small = mountSmallFilesystem();
if (!small) console.warn('store-full: tmpfs cannot be mounted here (not root?): the test is skipped');

/**
 * DATA_DIR on a real 96 MiB tmpfs, filled to the last byte while two orders render and a project
 * builds. Before: renders failed 5 times in about 30 s, the runs ended in DBOS's error state and the
 * shop saw `rendering` and `building` for ever, with /readyz 200. Now: the faults are ridden out
 * for RESOURCE_RETRY_WINDOW (3 s here), then the lines are `failed processing` and the project
 * `failed`, each with the reason, the shop's events and /readyz 503 say so; once space is freed the
 * operator's CLI retries them and they reach `complete` and `editable`.
 */
describe.skipIf(!small)('a full file store during renders and a build', () => {
  let api: TestService;
  let auth: Record<string, string>;
  const filler = path.join(small?.dir ?? '', 'filler.bin');

  beforeAll(async () => {
    api = await startTestService({
      DATA_DIR: small!.dir,
      RESOURCE_RETRY_WINDOW: '3s',
      STORE_MIN_FREE_BYTES: String(1024 * 1024),
      SANDBOX_PRINTER_STEP: '100ms',
    });
    auth = serviceHeader((await api.createClient('Full store shop')).credentials.dev);
  });
  afterAll(async () => {
    await api?.stop({ keepData: false });
    small?.unmount();
  });

  const cli = async (...args: string[]) => {
    try {
      const { stdout } = await run('npm', ['run', '--silent', 'cli', '--', ...args, '--json'], {
        env: { ...process.env, DATABASE_URL: api.databaseUrl, DATA_DIR: api.config.dataDir, LOG_LEVEL: 'warn' },
      });
      return { code: 0, out: JSON.parse(stdout) };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, out: failed.stderr };
    }
  };
  const lineOf = async (projectId: string) =>
    (await api.orm()).em.fork().findOneOrFail(OrderLine, { project: projectId });
  const orderStatus = async (orderId: string) =>
    (await request(api.url, 'GET', `/v2/order?orderId=${orderId}`, { headers: auth })).body;
  const projectStatus = async (id: string) =>
    (await request(api.url, 'GET', `/v2/project/status?id=${id}`, { headers: auth })).body.status?.project;
  const events = async () =>
    (await request(api.url, 'GET', '/v2/events?limit=100', { headers: auth })).body.data as {
      type: string;
      data: Record<string, any>;
    }[];

  it('fails the lines and the build with a reason, says so on /readyz, and completes them once space is back and the operator retries', async () => {
    const projects = [
      await editableProject(api, auth, { userId: 'full-1' }),
      await editableProject(api, auth, { userId: 'full-2' }),
    ];
    expect((await request(api.url, 'GET', '/readyz')).status).toBe(200);

    for (const [i, projectId] of projects.entries())
      expect((await post(api.url, '/v2/print', printBody(`full-${i}`, projectId), auth)).status).toBe(200);
    await fill(filler);
    const generated = await post(
      api.url,
      '/v2/generate',
      { sku: 'PB-HC-A4-P', psp: 'local', marketId: 0, userId: 'full-3' },
      auth,
    );
    expect(generated.status).toBe(200);
    const building = new URL(generated.body.url).searchParams.get('id')!;

    // The store answers ENOSPC: ridden out for the window, then failed for good, with the reason.
    for (const projectId of projects)
      await waitFor(
        async () => (await lineOf(projectId)).status === 'failed processing',
        120_000,
        `${projectId} failed processing`,
      );
    for (const projectId of projects)
      expect((await lineOf(projectId)).failureReason).toMatch(/the file store is full \(ENOSPC\)/);
    await waitFor(async () => (await projectStatus(building)) === 'failed', 120_000, 'the build failed');

    // What the shop sees: the status, and an event each with the reason.
    expect((await orderStatus('full-0')).lines[0]).toMatchObject({
      status: 'failed processing',
      failureReason: expect.stringMatching(/ENOSPC/),
    });
    const dashboard = await post(
      api.url,
      '/graphql',
      { query: 'query { order(orderId: "full-1") { lines { status failureReason } } }' },
      auth,
    );
    expect(dashboard.body.data.order.lines[0]).toEqual({
      status: 'failed processing',
      failureReason: expect.stringMatching(/the file store is full/),
    });
    const seen = await events();
    for (const projectId of projects) {
      expect(
        seen.find(
          (e) =>
            e.type === 'order.line.status_changed' &&
            e.data.line.projectId === projectId &&
            e.data.line.status === 'failed processing',
        )?.data.line.failureReason,
      ).toMatch(/ENOSPC/);
    }
    expect(seen.find((e) => e.type === 'project.build_failed' && e.data.projectId === building)?.data.reason).toMatch(
      /ENOSPC/,
    );

    // What the operator's balancer sees.
    const full = await request(api.url, 'GET', '/readyz');
    expect(full.status).toBe(503);
    expect(full.body.detail).toMatch(/STORE_MIN_FREE_BYTES|ENOSPC/);

    // Nothing moves by itself: the retry is the operator's.
    await rm(filler);
    await waitFor(async () => (await request(api.url, 'GET', '/readyz')).status === 200, 10_000, '/readyz ready again');
    for (const projectId of projects) expect((await lineOf(projectId)).status).toBe('failed processing');

    for (const projectId of projects) {
      const retried = await cli('order', 'retry', (await lineOf(projectId)).id);
      expect(retried).toEqual({ code: 0, out: { orderLineId: (await lineOf(projectId)).id, status: 'processing' } });
    }
    const rebuilt = await cli('project', 'rebuild', building);
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.out).toMatchObject({ projectId: building, status: 'building' });

    for (const projectId of projects)
      await waitFor(async () => (await lineOf(projectId)).status === 'complete', 180_000, `${projectId} complete`);
    await waitFor(async () => (await projectStatus(building)) === 'editable', 60_000, 'rebuilt');
    for (const projectId of projects) expect((await lineOf(projectId)).failureReason).toBeNull();

    // A line that has not failed is not retried.
    const again = await cli('order', 'retry', (await lineOf(projects[0])).id);
    expect(again.code).toBe(1);
    expect(again.out).toMatch(/ORDER_STATUS_CONFLICT/);
  }, 600_000);
});
