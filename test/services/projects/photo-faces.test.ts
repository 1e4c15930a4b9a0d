import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';
import { graphql } from '../../support/graphql';
import { startPhotoServer, type PhotoServer } from '../../support/photo-server';
import { waitFor } from '../../support/wait';
import { faceOnLandscape, landscape, type PixelBox } from '../../support/face-photos';
import type { IssuedClient } from '../../../src/services/clients/client-admin';

/**
 * Faces through the service: found when a project's photos are analysed (a real face from
 * face-api's demo photo sample1.jpg, MIT, placed by sharp near a wide photo's edge; and a landscape
 * without one), answered to their own shop as Photo.faces, kept in the slot by the automatic crop
 * the editor draws (PhotoSlot.cropRect), never answered to another shop, gone with the project.
 */
const PHOTO = { width: 3600, height: 1800 };
const QUERY = `query ($id: String!) { project(id: $id) {
  photos { id url status faces { x y width height score } }
  pages { number photos { photoId crop { x } cropRect { left top width height } } }
} }`;

describe('face boxes of a project photos (GraphQL Photo.faces, the automatic crop, tenancy, deletion)', () => {
  let api: TestService;
  let shop: IssuedClient;
  let otherShop: IssuedClient;
  let photos: PhotoServer;
  let projectId: string;
  let face: PixelBox;

  const countRows = async (sql: string, params: unknown[]) =>
    Number((await (await api.orm()).em.getConnection().execute(sql, params))[0].n);

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true', DELETION_RETENTION: '1s' });
    shop = await api.createClient('Face shop');
    otherShop = await api.createClient('Other shop');
    const placed = await faceOnLandscape({ ...PHOTO, index: 0, faceHeight: 380, faceLeft: 3050, faceTop: 500 });
    face = placed.face;
    photos = await startPhotoServer({
      '/face.jpg': { body: placed.photo },
      '/landscape.jpg': { body: await landscape(3000, 2000).jpeg({ quality: 90 }).toBuffer() },
    });
    const generated = await post(
      api.url,
      '/v2/generate',
      {
        userId: 'face-user',
        sku: 'PB-HC-A4-L',
        psp: 'local',
        marketId: 0,
        photos: ['/face.jpg', '/landscape.jpg'].map(photos.url),
      },
      serviceHeader(shop.credentials.dev),
    );
    expect(generated.status, JSON.stringify(generated.body)).toBe(200);
    projectId = new URL(generated.body.url).searchParams.get('id')!;
    await waitFor(
      async () =>
        (
          await request(api.url, 'GET', `/v2/project/status?id=${projectId}`, {
            headers: serviceHeader(shop.credentials.dev),
          })
        ).body.status?.project === 'editable',
      60_000,
      'the book to be built',
    );
  });
  afterAll(async () => {
    await photos?.close();
    await api?.stop();
  });

  it('answers each photo its faces, and the automatic crop keeps the face in its slot', async () => {
    const answer = await graphql(api.url, serviceHeader(shop.credentials.dev), QUERY, { id: projectId });
    expect(answer.errors).toBeUndefined();
    const { photos: list, pages } = answer.data.project;
    const withFace = list.find((p: any) => p.url.endsWith('/face.jpg'));
    const without = list.find((p: any) => p.url.endsWith('/landscape.jpg'));
    expect(without.faces).toEqual([]);
    expect(withFace.faces).toHaveLength(1);
    const [found] = withFace.faces;
    // The detector's box overlaps the face placed there.
    expect(found.x * PHOTO.width).toBeLessThan(face.x + face.width);
    expect((found.x + found.width) * PHOTO.width).toBeGreaterThan(face.x);
    expect(Object.keys(found).sort()).toEqual(['height', 'score', 'width', 'x', 'y']);

    const slot = pages.flatMap((p: any) => p.photos).find((s: any) => s.photoId === withFace.id);
    expect(slot.crop).toBeNull();
    const rect = slot.cropRect;
    // The centred crop would cut the face in two; the automatic one shows all of it.
    expect(0.5 + rect.width / 2).toBeLessThan((face.x + face.width / 2) / PHOTO.width);
    expect(rect.left).toBeLessThanOrEqual(face.x / PHOTO.width);
    expect(rect.left + rect.width).toBeGreaterThanOrEqual((face.x + face.width) / PHOTO.width);
    expect(rect.top).toBeLessThanOrEqual(face.y / PHOTO.height);
    expect(rect.top + rect.height).toBeGreaterThanOrEqual((face.y + face.height) / PHOTO.height);
  });

  it("another shop, or the shop's other environment, reads no face box of the project", async () => {
    for (const credentials of [otherShop.credentials.dev, shop.credentials.prod]) {
      const answer = await graphql(api.url, serviceHeader(credentials), QUERY, { id: projectId });
      expect(answer.data?.project ?? null).toBeNull();
      expect(answer.errors?.[0].extensions?.code).toBe('NOT_FOUND');
      expect(JSON.stringify(answer)).not.toContain('"faces"');
    }
  });

  it('deleting the project removes its face boxes', async () => {
    expect(
      await countRows('SELECT count(*) AS n FROM photos WHERE project_id = ? AND faces IS NOT NULL', [projectId]),
    ).toBe(2);
    const deleted = await post(
      api.url,
      '/v2/project/delete',
      { user: 'face-user', type: 'sync', ids: [projectId] },
      serviceHeader(shop.credentials.dev),
    );
    expect(deleted.status).toBe(200);
    await waitFor(
      async () => (await countRows('SELECT count(*) AS n FROM photos WHERE project_id = ?', [projectId])) === 0,
      20_000,
      'the photos to be expunged',
    );
    expect(await countRows('SELECT count(*) AS n FROM projects WHERE id = ?', [projectId])).toBe(0);
  });
});
