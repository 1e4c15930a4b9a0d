import { execFileSync } from 'node:child_process';
import { heifEncAvailable as heifEnc } from '../../support/heif-enc';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IssuedClient } from '../../../src/services/clients/client-admin';
import { Photo } from '../../../src/db/entities';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';
import { editableProject } from '../../support/print-fixtures';
import { editorCredentialsFor, editorHeaders } from '../../support/editor-link';
import { makePhoto } from '../../support/photo-server';
import { waitFor } from '../../support/wait';

const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (text: string) => Buffer.from(text).toString('base64');

function metadata(projectId: string, filename = 'photo.jpg', filetype = 'image/jpeg'): string {
  return `projectId ${b64(projectId)},filename ${b64(filename)},filetype ${b64(filetype)}`;
}

/** POST /v2/uploads as tus-js-client sends it; `body` makes it creation-with-upload. */
async function create(
  api: TestService,
  auth: Record<string, string>,
  projectId: string,
  length: number,
  body?: Buffer,
): Promise<Response> {
  return fetch(`${api.url}/v2/uploads`, {
    method: 'POST',
    headers: {
      ...TUS,
      ...auth,
      'upload-length': String(length),
      'upload-metadata': metadata(projectId),
      ...(body ? { 'content-type': 'application/offset+octet-stream' } : {}),
    },
    ...(body ? { body } : {}),
  });
}

function patch(location: string, auth: Record<string, string>, offset: number, chunk: Buffer): Promise<Response> {
  return fetch(location, {
    method: 'PATCH',
    headers: { ...TUS, ...auth, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    body: chunk,
  });
}

const head = (location: string, auth: Record<string, string>) =>
  fetch(location, { method: 'HEAD', headers: { ...TUS, ...auth } });

async function projectPhotos(api: TestService, auth: Record<string, string>, projectId: string) {
  const answer = await post(
    api.url,
    '/graphql',
    {
      query: `query ($id: String!) { project(id: $id) { status { photos } photos { id status width height capturedAt exifOrientation problem { code } } pages { photos { photoId } } } }`,
      variables: { id: projectId },
    },
    auth,
  );
  if (!answer.body.data?.project) throw new Error(JSON.stringify(answer.body));
  return answer.body.data.project as {
    status: { photos: string };
    photos: {
      id: string;
      status: string;
      width: number;
      height: number;
      capturedAt: string | null;
      exifOrientation: number;
    }[];
    pages: { photos: { photoId: string }[] }[];
  };
}

/** What the decoder recorded of a photo (not in the API): its format, and the key it prints from. */
async function storedPhoto(api: TestService, photoId: string) {
  const orm = await api.orm();
  return orm.em.fork().findOneOrFail(Photo, { id: photoId }, { filters: false });
}

const photosStatus = async (api: TestService, auth: Record<string, string>, projectId: string) =>
  (await request(api.url, 'GET', `/v2/project/status?id=${projectId}`, { headers: auth })).body.status.photos;

/** The bytes an unfinished upload holds at the server: its file in DATA_DIR/uploads. */
async function bytesAtServer(api: TestService, uploadId: string): Promise<number> {
  return (await readFile(path.join(api.config.dataDir, 'uploads', uploadId))).length;
}

describe('photo uploads over tus 1.0 (docs/api.md, Uploads)', () => {
  let api: TestService;
  let shop: IssuedClient;
  let other: IssuedClient;
  let auth: Record<string, string>;
  let otherAuth: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService({
      UPLOAD_MAX_BYTES: String(3 * 1024 * 1024),
      UPLOAD_MAX_PHOTOS_PER_PROJECT: '4',
      UPLOAD_BYTES_PER_DAY: String(12 * 1024 * 1024),
      UPLOAD_EXPIRY: '2s',
    });
    shop = await api.createClient('Upload shop');
    other = await api.createClient('Other shop');
    auth = serviceHeader(shop.credentials.dev);
    otherAuth = serviceHeader(other.credentials.dev);
  }, 120_000);
  afterAll(() => api?.stop());

  it('OPTIONS names the tus version and the extensions, without credentials', async () => {
    const answer = await fetch(`${api.url}/v2/uploads`, { method: 'OPTIONS' });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('tus-version')).toContain('1.0.0');
    expect(answer.headers.get('tus-extension')?.split(',').sort()).toEqual(
      ['creation', 'creation-with-upload', 'expiration', 'termination'].sort(),
    );
    expect(answer.headers.get('tus-max-size')).toBe(String(3 * 1024 * 1024));
  });

  it('resumes a photo sent in two halves, HEAD in between; the photo is analysed, placed in the book and counted once', async () => {
    const projectId = await editableProject(api, auth, { userId: 'uploader' });
    const photo = await makePhoto({ width: 1600, height: 1200, takenAt: '2024:06:01 10:00:00' });
    const half = Math.floor(photo.length / 2);

    const created = await create(api, auth, projectId, photo.length);
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^${api.url}/v2/uploads/[0-9a-f-]{36}$`));
    const uploadId = location.split('/').pop()!;
    expect(await photosStatus(api, auth, projectId)).toBe('uploading');

    const first = await patch(location, auth, 0, photo.subarray(0, half));
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-offset')).toBe(String(half));
    // The connection drops here; the client asks where to go on, and sends only the rest.
    const resumed = await head(location, auth);
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('upload-offset')).toBe(String(half));
    expect(resumed.headers.get('upload-length')).toBe(String(photo.length));
    expect(await bytesAtServer(api, uploadId)).toBe(half);

    const second = await patch(location, auth, half, photo.subarray(half));
    expect(second.status).toBe(204);
    expect(second.headers.get('upload-offset')).toBe(String(photo.length));
    expect(second.headers.get('upload-photo-id')).toBe(uploadId);

    await waitFor(async () => (await photosStatus(api, auth, projectId)) === 'idle', 30_000, 'photos idle');
    const project = await projectPhotos(api, auth, projectId);
    const uploaded = project.photos.find((p) => p.id === uploadId)!;
    expect(uploaded).toMatchObject({ status: 'idle', width: 1600, height: 1200 });
    expect(await storedPhoto(api, uploadId)).toMatchObject({
      format: 'jpeg',
      bytes: photo.length,
      sha256: createHash('sha256').update(photo).digest('hex'),
    });
    expect(uploaded.capturedAt).toBe('2024-06-01T10:00:00.000Z');
    await waitFor(
      async () =>
        (await projectPhotos(api, auth, projectId)).pages.some((page) =>
          page.photos.some((s) => s.photoId === uploadId),
        ),
      30_000,
      'the uploaded photo placed in the book',
    );
    // Its bytes left the upload store for the file store; a HEAD still says it is whole.
    await expect(readdir(path.join(api.config.dataDir, 'uploads'))).resolves.not.toContain(uploadId);
    const after = await head(location, auth);
    expect(after.headers.get('upload-offset')).toBe(String(photo.length));

    // The same bytes again (creation-with-upload, whole in the POST): one photo, the first.
    const again = await create(api, auth, projectId, photo.length, photo);
    expect(again.status).toBe(201);
    expect(again.headers.get('upload-offset')).toBe(String(photo.length));
    expect(again.headers.get('upload-photo-id')).toBe(uploadId);
    expect(again.headers.get('upload-duplicate')).toBe('true');
    expect((await projectPhotos(api, auth, projectId)).photos.filter((p) => p.id === uploadId)).toHaveLength(1);
    expect((await projectPhotos(api, auth, projectId)).photos).toHaveLength(1);
  }, 120_000);

  it('terminates an open upload: its bytes and its photo go', async () => {
    const projectId = await editableProject(api, auth, { userId: 'terminator' });
    const created = await create(api, auth, projectId, 1000);
    const location = created.headers.get('location')!;
    expect(await photosStatus(api, auth, projectId)).toBe('uploading');
    const deleted = await fetch(location, { method: 'DELETE', headers: { ...TUS, ...auth } });
    expect(deleted.status).toBe(204);
    expect((await head(location, auth)).status).toBe(404);
    expect(await photosStatus(api, auth, projectId)).toBe('none');
  }, 60_000);

  it('expires an abandoned upload and removes its bytes', async () => {
    const projectId = await editableProject(api, auth, { userId: 'abandoner' });
    const created = await create(api, auth, projectId, 5000);
    const location = created.headers.get('location')!;
    const uploadId = location.split('/').pop()!;
    expect((await patch(location, auth, 0, Buffer.alloc(100, 1))).status).toBe(204);
    expect(await bytesAtServer(api, uploadId)).toBe(100);
    await waitFor(async () => (await head(location, auth)).status === 404, 20_000, 'upload expired');
    await expect(readdir(path.join(api.config.dataDir, 'uploads'))).resolves.not.toContain(uploadId);
    expect(await photosStatus(api, auth, projectId)).toBe('none');
  }, 60_000);

  it('refuses over the limits with the limit named: size 413, photos per project 422, pixels 422', async () => {
    const projectId = await editableProject(api, auth, { userId: 'limits' });
    const tooBig = await create(api, auth, projectId, 3 * 1024 * 1024 + 1);
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toMatchObject({
      code: 'UPLOAD_TOO_LARGE',
      detail: expect.stringContaining('UPLOAD_MAX_BYTES'),
    });

    // A PNG declaring 11000x10000 pixels (110 MP) in a few KB: refused at its last byte, nothing kept.
    const bomb = await sharp({ create: { width: 11000, height: 10000, channels: 3, background: '#000' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const refused = await create(api, auth, projectId, bomb.length, bomb);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({
      code: 'PHOTO_PIXEL_LIMIT',
      detail: expect.stringContaining('pixels'),
    });
    const notImage = Buffer.from('this is not a photo at all');
    const text = await create(api, auth, projectId, notImage.length, notImage);
    expect(text.status).toBe(422);
    expect(await text.json()).toMatchObject({ code: 'NOT_AN_IMAGE' });
    expect(await photosStatus(api, auth, projectId)).toBe('none');

    for (let i = 0; i < 4; i++) expect((await create(api, auth, projectId, 10)).status).toBe(201);
    const fifth = await create(api, auth, projectId, 10);
    expect(fifth.status).toBe(422);
    expect(await fifth.json()).toMatchObject({
      code: 'PROJECT_PHOTO_LIMIT',
      detail: expect.stringContaining('UPLOAD_MAX_PHOTOS_PER_PROJECT'),
    });
  }, 120_000);

  it('refuses past the bytes a client may upload in 24 hours with 429 and Retry-After, counting only accepted uploads', async () => {
    const busy = serviceHeader((await api.createClient('Busy shop')).credentials.dev);
    const first = await editableProject(api, busy, { userId: 'busy-1' });
    const second = await editableProject(api, busy, { userId: 'busy-2' });
    const threeMiB = 3 * 1024 * 1024;
    for (const projectId of [first, first, second, second])
      expect((await create(api, busy, projectId, threeMiB)).status).toBe(201);
    const over = await create(api, busy, second, 1);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await over.json()).toMatchObject({
      code: 'UPLOAD_DAILY_LIMIT',
      detail: expect.stringContaining('UPLOAD_BYTES_PER_DAY'),
    });
    // Another client's budget is its own.
    const projectId = await editableProject(api, otherAuth, { userId: 'calm' });
    expect((await create(api, otherAuth, projectId, threeMiB)).status).toBe(201);
  }, 120_000);

  it('refuses an upload to a deleted project with 409 and its status', async () => {
    const projectId = await editableProject(api, auth, { userId: 'deleted-one' });
    const open = await create(api, auth, projectId, 10);
    expect(
      (await post(api.url, '/v2/project/delete', { user: 'deleted-one', type: 'sync', ids: [projectId] }, auth)).status,
    ).toBe(200);
    const refused = await create(api, auth, projectId, 10);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'PROJECT_DELETED', detail: expect.stringContaining('deleted') });
    const late = await patch(open.headers.get('location')!, auth, 0, Buffer.alloc(10));
    expect(late.status).toBe(409);
  }, 60_000);

  it('keeps tenants and editor links apart: no upload into, nor HEAD/PATCH/DELETE of, another one', async () => {
    const projectId = await editableProject(api, auth, { userId: 'owner' });
    const otherProject = await editableProject(api, auth, { userId: 'neighbour' });
    const link = editorHeaders(await editorCredentialsFor(api.url, auth, projectId));

    expect((await create(api, otherAuth, projectId, 10)).status).toBe(404);
    expect((await create(api, link, otherProject, 10)).status).toBe(404);
    expect((await create(api, {}, projectId, 10)).status).toBe(401);

    // The editor link uploads into its own project.
    const photo = await makePhoto({ width: 800, height: 600 });
    const byEditor = await create(api, link, projectId, photo.length, photo);
    expect(byEditor.status).toBe(201);

    const shops = await create(api, auth, otherProject, 100);
    const location = shops.headers.get('location')!;
    for (const stranger of [otherAuth, link]) {
      expect((await head(location, stranger)).status).toBe(404);
      expect((await patch(location, stranger, 0, Buffer.alloc(100))).status).toBe(404);
      expect((await fetch(location, { method: 'DELETE', headers: { ...TUS, ...stranger } })).status).toBe(404);
    }
    expect((await head(location, auth)).headers.get('upload-offset')).toBe('0');
  }, 120_000);
});

describe('HEIC photos (iPhone), decoded by libheif (heic-decode)', () => {
  let api: TestService;
  let auth: Record<string, string>;
  let heic: Buffer | undefined;

  beforeAll(async () => {
    if (!heifEnc) return;
    // A JPEG taken turned (EXIF Orientation 6) on a known day, made into HEIC by Debian's heif-enc.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'heic-'));
    const jpeg = await makePhoto({ width: 1200, height: 800, orientation: 6, takenAt: '2023:12:24 18:30:00' });
    await writeFile(path.join(dir, 'in.jpg'), jpeg);
    execFileSync('heif-enc', ['-q', '80', '-o', path.join(dir, 'photo.heic'), path.join(dir, 'in.jpg')]);
    heic = await readFile(path.join(dir, 'photo.heic'));
    // A proof renders the book within the request; this machine is shared.
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true', REQUEST_TIMEOUT: '5m' });
    auth = serviceHeader((await api.createClient('HEIC shop')).credentials.dev);
  }, 120_000);
  afterAll(() => api?.stop());

  it.skipIf(!heifEnc)(
    'an uploaded HEIC is a photo: upright by its orientation, with its capture time',
    async () => {
      const projectId = await editableProject(api, auth, { userId: 'iphone' });
      const created = await create(api, auth, projectId, heic!.length, heic);
      expect(created.status).toBe(201);
      const photoId = created.headers.get('upload-photo-id')!;
      await waitFor(async () => (await photosStatus(api, auth, projectId)) === 'idle', 30_000, 'HEIC analysed');
      const photo = (await projectPhotos(api, auth, projectId)).photos.find((p) => p.id === photoId)!;
      expect(photo).toMatchObject({ status: 'idle', width: 800, height: 1200, exifOrientation: 6 });
      // Kept as uploaded (not re-encoded at intake); the thumbnail is upright.
      const stored = await storedPhoto(api, photoId);
      expect(stored).toMatchObject({ format: 'heif', originalKey: expect.not.stringMatching(/decoded/) });
      expect(await api.service.files.get(stored.originalKey!)).toEqual(heic);
      const thumbnail = await sharp(await api.service.files.get(stored.thumbnailKey!)).metadata();
      expect([thumbnail.width, thumbnail.height, thumbnail.orientation]).toEqual([341, 512, undefined]);
      expect(photo.capturedAt).toBe('2023-12-24T18:30:00.000Z');
    },
    120_000,
  );

  it.skipIf(!heifEnc)(
    'a HEIC photo URL given to generate decodes too',
    async () => {
      const { startPhotoServer } = await import('../../support/photo-server');
      const server = await startPhotoServer({ '/photo.heic': { body: heic!, type: 'image/heic' } });
      try {
        const projectId = await editableProject(api, auth, {
          userId: 'url-iphone',
          photos: [server.url('/photo.heic')],
        });
        const [photo] = (await projectPhotos(api, auth, projectId)).photos;
        expect(photo).toMatchObject({ status: 'idle', width: 800, height: 1200 });
        expect(await storedPhoto(api, photo.id)).toMatchObject({ format: 'heif' });
        expect(photo.capturedAt).toBe('2023-12-24T18:30:00.000Z');
        // Printed from the HEIC's own pixels, decoded at render time: the proof's first page shows the
        // photo (the upright portrait's blue-to-yellow gradient), not an empty slot.
        const proof = await post(api.url, '/v2/project/proof', { id: projectId }, auth);
        expect(proof.status, JSON.stringify(proof.body)).toBe(200);
        const pdf = Buffer.from(await (await fetch(proof.body.previewUrl as string)).arrayBuffer());
        const dir = await mkdtemp(path.join(os.tmpdir(), 'heic-proof-'));
        await writeFile(path.join(dir, 'proof.pdf'), pdf);
        execFileSync('pdftoppm', ['-f', '2', '-l', '2', '-r', '30', '-png', 'proof.pdf', 'page'], { cwd: dir });
        const page = (await readdir(dir)).find((name) => name.endsWith('.png'))!;
        const { channels } = await sharp(path.join(dir, page)).stats();
        // A page of paper and text is near white with little spread; the photo brings colour and contrast.
        expect(Math.max(...channels.map((c) => c.stdev))).toBeGreaterThan(25);
      } finally {
        await server.close();
      }
    },
    120_000,
  );

  it.runIf(!heifEnc)(
    'is skipped: heif-enc (Debian libheif-examples, scripts/install-test-tools.sh) is not installed',
    () => {
      expect(heifEnc).toBe(false);
    },
  );
});
