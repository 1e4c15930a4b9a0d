import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, request, serviceHeader } from '../support/http';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** An npm script as an operator types it, on the embedded PostgreSQL (no DATABASE_URL) of `dataDir`. */
function npm(args: string[], env: Record<string, string>): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    ...env,
  };
  delete childEnv.DATABASE_URL;
  delete childEnv.TEMPORAL_ADDRESS;
  const child = spawn('npm', args, { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** No JavaScript stack frame (`    at fn (file:line:col)`) in what a refused start printed. */
const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

describe('operator tools beside a service running on its embedded PostgreSQL', () => {
  let dataDir: string;
  let otherDataDir: string;
  let service: ServiceProcess;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'photobook-beside-'));
    otherDataDir = await mkdtemp(path.join(os.tmpdir(), 'photobook-beside-other-'));
    // PostgreSQL runs as its own system user when we are root; it must reach the data directories.
    await chmod(dataDir, 0o755);
    await chmod(otherDataDir, 0o755);
    service = await startServiceProcess(
      { DATA_DIR: dataDir, PORT: '0', DATABASE_URL: undefined, TEMPORAL_ADDRESS: undefined },
      120_000,
    );
  }, 150_000);

  afterAll(async () => {
    await service?.stop();
    for (const dir of [dataDir, otherDataDir])
      if (dir) await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  it("the CLI uses the service's database: lists clients and sets shop origins the running editor then allows", async () => {
    const demo = JSON.parse(await readFile(path.join(dataDir, 'demo-client.json'), 'utf8'));
    const list = await npm(['run', '--silent', 'cli', '--', 'client', 'list', '--json'], { DATA_DIR: dataDir });
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).map((client: { clientId: string }) => client.clientId)).toContain(demo.clientId);

    const generated = await post(
      service.url,
      '/v2/generate',
      { sku: 'PB-HC-A4-P', psp: 'local', marketId: 0 },
      serviceHeader(demo.credentials.dev),
    );
    expect(generated.status).toBe(200);
    const projectId = new URL(generated.body.url).searchParams.get('id')!;
    const framers = async () => {
      const editor = await request(service.url, 'GET', `/editor?id=${projectId}`);
      return /frame-ancestors ([^;]*)/.exec(editor.headers.get('content-security-policy') ?? '')?.[1];
    };
    expect(await framers()).toBe("'none'");

    const origins = await npm(
      [
        'run',
        '--silent',
        'cli',
        '--',
        'client',
        'shop-origins',
        '--client',
        demo.clientId,
        '--origin',
        'https://shop.example',
      ],
      {
        DATA_DIR: dataDir,
      },
    );
    expect(origins.code).toBe(0);
    expect(origins.stdout).toBe(`shop origins of ${demo.clientId}: https://shop.example\n`);
    // Read per request from the database both share: no restart, no cache to wait for.
    expect(await framers()).toBe('https://shop.example');
    // The CLI left the service's PostgreSQL running: the service still answers from its database.
    expect(
      (await post(service.url, '/api/v2/misc/get-market.php', { env: 'dev', key: demo.credentials.dev.apiKey })).status,
    ).toBe(200);
  }, 120_000);

  it('a second npm start on the same DATA_DIR says what runs where and exits non-zero, without a stack trace', async () => {
    const twin = await npm(['start'], { DATA_DIR: dataDir, PORT: '0' });
    expect(twin.code).not.toBe(0);
    // The pid is the service's node process (tsx runs it as a child of its own).
    expect(twin.stderr).toMatch(
      new RegExp(
        `A photobook service is already running on DATA_DIR ${dataDir}: pid \\d+, listening at ${service.url} `,
      ),
    );
    expect(twin.stderr).not.toMatch(STACK_FRAME);
    expect((await request(service.url, 'GET', '/healthz')).status).toBe(200);
  }, 120_000);

  it('a start on another DATA_DIR but the same PORT says the port is taken, before building a second database', async () => {
    const port = new URL(service.url).port;
    const twin = await npm(['start'], { DATA_DIR: otherDataDir, PORT: port });
    expect(twin.code).not.toBe(0);
    expect(twin.stderr).toContain(`PORT ${port} is already in use on 127.0.0.1: another process listens there`);
    expect(twin.stderr).not.toMatch(STACK_FRAME);
    expect(twin.stderr).not.toContain('EADDRINUSE');
    // Nothing was built in the other DATA_DIR: no PostgreSQL cluster, no demo client.
    await expect(readFile(path.join(otherDataDir, 'postgres', 'PG_VERSION'))).rejects.toThrow();
    await expect(readFile(path.join(otherDataDir, 'demo-client.json'))).rejects.toThrow();
  }, 120_000);
});
