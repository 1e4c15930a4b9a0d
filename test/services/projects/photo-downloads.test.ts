import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Photo } from '../../../src/db/entities';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../../support/photo-server';
import { startSilentServer, type SilentServer } from '../../support/silent-server';
import { waitFor } from '../../support/wait';

const generateBody = (userId: string, photos: string[]) => ({
  userId,
  sku: 'PB-HC-A4-P',
  psp: 'local',
  marketId: 0,
  photos,
});

async function projectIdOf(api: TestService, auth: Record<string, string>, body: unknown): Promise<string> {
  const response = await post(api.url, '/v2/generate', body, auth);
  expect(response.status).toBe(200);
  return new URL(response.body.url).searchParams.get('id')!;
}

async function whenEditable(
  api: TestService,
  auth: Record<string, string>,
  id: string,
  timeoutMs: number,
): Promise<void> {
  await waitFor(
    async () =>
      (await request(api.url, 'GET', `/v2/project/status?id=${id}`, { headers: auth })).body.status?.project ===
      'editable',
    timeoutMs,
    `${id} to be editable`,
  );
}

async function photosOf(api: TestService, projectId: string): Promise<Photo[]> {
  const orm = await api.orm();
  return orm.em.fork().find(Photo, { project: projectId }, { orderBy: { position: 'asc' } });
}

describe('a build has a bounded duration: photos not fetched by its download deadline fail', () => {
  let api: TestService;
  let silent: SilentServer;
  let photos: PhotoServer;

  beforeAll(async () => {
    api = await startTestService({
      ALLOW_LOOPBACK_URLS: 'true',
      PHOTO_DOWNLOAD_TIMEOUT: '1s',
      BUILD_DOWNLOAD_DEADLINE: '3s',
    });
    silent = await startSilentServer();
    photos = await startPhotoServer({ '/good.jpg': { body: await makePhoto({ width: 900, height: 600 }) } });
  });
  afterAll(async () => {
    await api?.stop();
    await silent?.close();
    await photos?.close();
  });

  it('tries a hanging photo twice, fails the photos left at the deadline without fetching them, and builds the book from the rest', async () => {
    const auth = serviceHeader((await api.createClient('Hanging photos')).credentials.dev);
    // Photos are fetched 4 at a time: the good photo and 3 hanging ones first, then 8 more hanging.
    const hanging = Array.from({ length: 11 }, (_, i) => silent.url(`/hang-${i}.jpg`));
    const id = await projectIdOf(api, auth, generateBody('hanging-photos', [photos.url('/good.jpg'), ...hanging]));

    await whenEditable(api, auth, id, 45_000);

    const [good, ...failed] = await photosOf(api, id);
    expect(good).toMatchObject({ status: 'idle' });
    expect(failed.map((photo) => photo.status)).toEqual(Array(11).fill('failed'));
    // The first batch's hanging photos gave up after their attempts (or at the deadline) ...
    for (const photo of failed.slice(0, 3))
      expect(['DOWNLOAD_FAILED', 'DOWNLOAD_TIME_LIMIT']).toContain(photo.problem?.code);
    // ... and the later batches were past the deadline: never fetched, failed with the limit.
    for (const photo of failed.slice(3)) {
      expect(photo.problem).toEqual({
        code: 'DOWNLOAD_TIME_LIMIT',
        message: "not downloaded within the build's download time limit (3 s)",
      });
    }
    expect(silent.connections()).toBeLessThanOrEqual(3 * 2);
    const status = await request(api.url, 'GET', `/v2/project/status?id=${id}`, { headers: auth });
    expect(status.body.status).toMatchObject({ project: 'editable', photos: 'idle' });
  });
});

describe('photo downloads stream to the file store', () => {
  let api: TestService;
  let server: http.Server;
  let photo: Buffer;
  let release: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true' });
    photo = await makePhoto({ width: 2400, height: 1600 });
    // Sends the first half of the photo, then waits for the test before sending the rest.
    server = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': photo.length });
      response.write(photo.subarray(0, photo.length / 2));
      void released.then(() => response.end(photo.subarray(photo.length / 2)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    release();
    await api?.stop();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('writes the bytes to disk as they arrive, then decodes the stored file', async () => {
    const auth = serviceHeader((await api.createClient('Streaming photos')).credentials.dev);
    const { port } = server.address() as AddressInfo;
    const id = await projectIdOf(api, auth, generateBody('streaming', [`http://127.0.0.1:${port}/big.jpg`]));

    // Half the photo has arrived and the rest has not been sent: it is already on disk.
    const files = path.join(api.config.dataDir, 'files');
    await waitFor(
      async () => {
        const names = await readdir(files, { recursive: true }).catch(() => [] as string[]);
        for (const name of names.filter((entry) => entry.endsWith('.tmp'))) {
          const { size } = await stat(path.join(files, name)).catch(() => ({ size: -1 }));
          if (size === Math.floor(photo.length / 2)) return name;
        }
        return undefined;
      },
      15_000,
      'the first half of the photo on disk',
    );

    release();
    await whenEditable(api, auth, id, 30_000);
    const [stored] = await photosOf(api, id);
    expect(stored).toMatchObject({ status: 'idle', bytes: photo.length, width: 2400, height: 1600 });
  });
});
