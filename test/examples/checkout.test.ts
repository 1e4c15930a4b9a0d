import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkout } from '../../examples/checkout';
import type { IssuedClient } from '../../src/services/clients/client-admin';
import { startTestService, type TestService } from '../support/harness';
import { makePhoto, startPhotoServer, type PhotoServer } from '../support/photo-server';

const run = promisify(execFile);

/**
 * examples/checkout.ts as a shop would run it, against the whole service on loopback: real photos
 * fetched over HTTP, a real book, a real print job in the local printer's folder.
 */
describe('examples/checkout.ts', () => {
  let api: TestService;
  let shop: IssuedClient;
  let photos: PhotoServer;

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true' });
    shop = await api.createClient('Example shop');
    photos = await startPhotoServer(
      Object.fromEntries(
        await Promise.all(
          [1, 2, 3].map(async (day) => [
            `/${day}.jpg`,
            { body: await makePhoto({ width: 2400, height: 1700, takenAt: `2024:05:0${day} 10:00:00` }) },
          ]),
        ),
      ),
    );
  });
  afterAll(async () => {
    await photos?.close();
    await api?.stop();
  });

  it('makes a book from photos, quotes and orders it, follows its events until the local printer has it', async () => {
    const lines: string[] = [];
    const result = await checkout({
      baseUrl: api.url,
      credentials: shop.credentials.prod,
      photoUrls: ['/1.jpg', '/2.jpg', '/3.jpg'].map((photo) => photos.url(photo)),
      orderId: 'example-1001',
      log: (line) => lines.push(line),
    });

    expect(result.quoteId).toMatch(/^q_/);
    expect(result.grandTotal).toBeGreaterThan(0);
    const walk = result.events.filter((event) => event.type === 'order.line.status_changed');
    expect(walk.map((event) => (event.data as { line: { status: string } }).line.status)).toEqual([
      'paid',
      'received',
      'processing',
      'rendering',
      'rendered',
      'sending printjob',
      'sent printjob',
    ]);
    expect(walk.map((event) => event.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(lines).toContain(`Order example-1001: projects ${result.projectId} accepted for printing`);

    const job = JSON.parse(
      await readFile(path.join(api.config.dataDir, 'printjobs', 'example-1001', result.projectId, 'job.json'), 'utf8'),
    );
    expect(job).toMatchObject({ orderId: 'example-1001', projectId: result.projectId, quantity: 1 });
    expect(photos.hits.get('/1.jpg')).toBeGreaterThan(0);
  });

  it('runs as an integrator runs it: `npx tsx examples/checkout.ts`, saying what is missing or refused', async () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const missing = await run('npx', ['tsx', 'examples/checkout.ts'], {
      cwd: root,
      env: { ...process.env, BASE_URL: api.url },
    }).catch((error) => error);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('set ACCESS_KEY');

    const refused = await run('npx', ['tsx', 'examples/checkout.ts'], {
      cwd: root,
      env: {
        ...process.env,
        BASE_URL: api.url,
        ACCESS_KEY: shop.credentials.prod.accessKey,
        ACCESS_SECRET: 'not-the-secret',
        PHOTO_URLS: photos.url('/1.jpg'),
      },
    }).catch((error) => error);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('UNAUTHENTICATED');
  });
});
