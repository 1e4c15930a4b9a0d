import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectBuildActivities } from '../../../src/activities/project-build-activities';
import { Photo } from '../../../src/db/entities';
import { ACROSS_TENANTS } from '../../../src/db/tenant-filter';
import { createSafeFetch } from '../../../src/outbound/safe-fetch';
import { FaceFinding } from '../../../src/services/projects/face-finding';
import { PhotoFaces } from '../../../src/services/projects/photo-faces';
import { emForProject } from '../../../src/services/tenancy/row-tenant-scope';
import type { IssuedClient } from '../../../src/services/clients/client-admin';
import { graphql } from '../../support/graphql';
import { post, serviceHeader } from '../../support/http';
import { startTestService, type TestService } from '../../support/harness';
import { faceOnLandscape, landscape } from '../../support/face-photos';
import { startPhotoServer, type PhotoServer } from '../../support/photo-server';

/**
 * A face detector that cannot run (its WebAssembly would not start, here injected through the
 * build activities' `detectFaces` dependency) never fails or stalls a build: every photo is
 * analysed, the book is built, each photo's faces are unknown (null, not []), the reason is logged
 * once for the whole build, and the crops are those of photos without faces. Later, when the faces
 * are needed for a crop that reaches paper (PhotoFaces, as a print, a proof or a cover preview asks),
 * they are detected once and stored. The service runs as ROLE=api, so its own workers do not build
 * the project: the test runs the build's steps itself, with real PostgreSQL, HTTP and files.
 */
const QUERY = `query ($id: String!) { project(id: $id) {
  photos { id url status faces { x y width height score } }
  pages { photos { photoId crop { x } cropRect { left top width height } } }
} }`;
const PHOTO = { width: 3600, height: 1800 };

describe('face detection that fails (fallback) and faces found later for older photos', () => {
  let api: TestService;
  let shop: IssuedClient;
  let photos: PhotoServer;
  let projectId: string;
  let faceRight: number;
  const logged: { level: number; msg: string; reason?: string }[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => logged.push(JSON.parse(line)) });
  const query = () => graphql(api.url, serviceHeader(shop.credentials.dev), QUERY, { id: projectId });
  const slotOf = (data: any, url: string) => {
    const photo = data.project.photos.find((p: any) => p.url.endsWith(url));
    return { photo, slot: data.project.pages.flatMap((p: any) => p.photos).find((s: any) => s.photoId === photo.id) };
  };

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true', ROLE: 'api' });
    shop = await api.createClient('Fallback shop');
    const placed = await faceOnLandscape({ ...PHOTO, index: 0, faceHeight: 380, faceLeft: 3050, faceTop: 500 });
    faceRight = (placed.face.x + placed.face.width) / PHOTO.width;
    photos = await startPhotoServer({
      '/face.jpg': { body: placed.photo },
      '/landscape.jpg': { body: await landscape(3000, 2000).jpeg({ quality: 90 }).toBuffer() },
      '/other.jpg': { body: await landscape(2000, 3000).jpeg({ quality: 90 }).toBuffer() },
    });
    const generated = await post(
      api.url,
      '/v2/generate',
      {
        userId: 'fallback-user',
        sku: 'PB-HC-A4-L',
        psp: 'local',
        marketId: 0,
        photos: ['/face.jpg', '/landscape.jpg', '/other.jpg'].map(photos.url),
      },
      serviceHeader(shop.credentials.dev),
    );
    expect(generated.status, JSON.stringify(generated.body)).toBe(200);
    projectId = new URL(generated.body.url).searchParams.get('id')!;
  });
  afterAll(async () => {
    await photos?.close();
    await api?.stop();
  });

  it('a detector that throws: the build completes, faces are unknown (null), the reason is logged once, crops are centred', async () => {
    let calls = 0;
    const activities = createProjectBuildActivities({
      orm: api.service.orm,
      files: api.service.files,
      fetch: createSafeFetch({ allowLoopback: true, userAgent: 'face-fallback-test' }),
      log,
      config: api.config,
      pepper: '',
      engine: api.service.engine,
      detectFaces: async () => {
        calls++;
        throw new Error('the TensorFlow.js WebAssembly backend did not start');
      },
    });
    const { photoIds, downloadDeadline } = await activities.startBuilding(projectId);
    expect(photoIds).toHaveLength(3);
    for (const id of photoIds) await activities.downloadPhoto(id, downloadDeadline);
    for (const id of photoIds) await activities.analyzePhoto(id);
    expect(await activities.buildBook(projectId)).toMatchObject({ status: 'editable' });
    // Three photos and the cover preview asked; none failed.
    expect(calls).toBeGreaterThanOrEqual(3);

    const rows = await (await api.orm()).em
      .fork()
      .find(Photo, { project: projectId }, { fields: ['status', 'faces'], ...ACROSS_TENANTS });
    expect(rows.map((r) => [r.status, r.faces])).toEqual(Array(3).fill(['idle', null]));
    const warnings = logged.filter((l) => l.level === 40 && l.msg.startsWith('face detection did not run'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0].reason).toBe('Error: the TensorFlow.js WebAssembly backend did not start');
    expect(logged.filter((l) => l.level === 20 && l.msg.startsWith('face detection did not run')).length).toBe(
      calls - 1,
    );

    const answer = await query();
    expect(answer.errors).toBeUndefined();
    const { photo, slot } = slotOf(answer.data, '/face.jpg');
    expect(photo.faces).toBeNull();
    // The crop of a photo without faces: centred (it cuts the face near the edge, which the next test mends).
    expect(slot.crop).toBeNull();
    expect(slot.cropRect.left + slot.cropRect.width / 2).toBeCloseTo(0.5, 6);
    expect(slot.cropRect.top + slot.cropRect.height / 2).toBeCloseTo(0.5, 6);
    expect(slot.cropRect.left + slot.cropRect.width).toBeLessThan(faceRight);
  });

  it('faces unknown are detected once when a crop needs them, stored, and the crop then keeps the face', async () => {
    const em = (await emForProject(api.service.orm, projectId))!;
    const faces = new PhotoFaces(api.service.files, new FaceFinding(log));
    const project = { id: projectId } as Parameters<PhotoFaces['ofProject']>[1];
    const found = await faces.ofProject(em, project);
    expect([...found.values()].map((boxes) => boxes.length)).toEqual([1]);
    // Stored: a second pass finds nothing left to detect.
    expect(await faces.fillMissing(em.fork(), { project: projectId })).toEqual({
      checked: 0,
      withFaces: 0,
      withoutFaces: 0,
      unknown: 0,
    });

    const answer = await query();
    const { photo, slot } = slotOf(answer.data, '/face.jpg');
    expect(photo.faces).toHaveLength(1);
    expect(slotOf(answer.data, '/landscape.jpg').photo.faces).toEqual([]);
    expect(slot.cropRect.left + slot.cropRect.width).toBeGreaterThanOrEqual(faceRight);
  });

  it('a photo whose thumbnail is gone from the store keeps its faces unknown, and the pass goes on', async () => {
    const em = (await emForProject(api.service.orm, projectId))!;
    const rows = await em.fork().find(Photo, { project: projectId }, { fields: ['url', 'thumbnailKey'] });
    const other = rows.find((r) => r.url.endsWith('/other.jpg'))!;
    // As an older photo whose faces were never looked for, and whose thumbnail the store lost.
    await em.getConnection().execute('UPDATE photos SET faces = NULL WHERE id = ?', [other.id]);
    expect(await api.service.files.move(other.thumbnailKey!, `${other.thumbnailKey}.lost`)).toBe(true);
    try {
      const faces = new PhotoFaces(api.service.files, new FaceFinding(log));
      expect(await faces.fillMissing(em.fork(), { project: projectId })).toEqual({
        checked: 1,
        withFaces: 0,
        withoutFaces: 0,
        unknown: 1,
      });
      const found = await faces.ofProject(em.fork(), { id: projectId } as Parameters<PhotoFaces['ofProject']>[1]);
      expect([...found.values()].map((boxes) => boxes.length)).toEqual([1]);
    } finally {
      await api.service.files.move(`${other.thumbnailKey}.lost`, other.thumbnailKey!);
    }
  });

  it("another shop's tenant scope finds none of the project's photos to detect", async () => {
    const other = await api.createClient('Other fallback shop');
    const em = api.service.orm.em.fork();
    em.setFilterParams('tenant', { clientId: other.clientId, env: 'dev' });
    const faces = new PhotoFaces(api.service.files, new FaceFinding(log));
    expect((await faces.fillMissing(em, { project: projectId })).checked).toBe(0);
  });
});
