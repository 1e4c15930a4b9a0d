import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestService, type TestService } from '../../support/harness';
import { graphql } from '../../support/graphql';
import { post, request, serviceHeader } from '../../support/http';
import { startPhotoServer, type PhotoServer } from '../../support/photo-server';
import { waitFor } from '../../support/wait';
import { makeLabelledSet, type LabelledPhoto } from '../../support/curation-set';
import type { IssuedClient } from '../../../src/services/clients/client-admin';

const PROJECT = `query ($id: String!) { project(id: $id) {
  status { project }
  photos { id clientPhotoId curation { kept reason groupId score } }
  pages { number layout photos { photoId } }
  preflight { printable problems { code severity page message } }
} }`;

/**
 * The done-when, through the service: photos served over loopback, generate, the build flow,
 * GraphQL and REST read back.
 */
describe('a smartbook from a camera roll', () => {
  let api: TestService;
  let shop: IssuedClient;
  let other: IssuedClient;
  let server: PhotoServer;
  let roll: LabelledPhoto[];
  let timed: { name: string; at: string }[];

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true' });
    shop = await api.createClient('Smartbook shop');
    other = await api.createClient('Other shop');
    // Four scenes, each as an original, a re-encoded and resized copy and a blurred copy.
    roll = await makeLabelledSet({
      scenes: Array.from({ length: 4 }, () => ({ copies: ['reencoded', 'blurred'] })),
      events: null,
    });
    // Five photos whose capture times run opposite to their upload order, an afternoon five hours after a morning.
    timed = [
      { name: 't4', at: '2026:06:01 17:10:00' },
      { name: 't3', at: '2026:06:01 17:00:00' },
      { name: 't2', at: '2026:06:01 12:20:00' },
      { name: 't1', at: '2026:06:01 12:10:00' },
      { name: 't0', at: '2026:06:01 12:00:00' },
    ];
    const timedScenes = await makeLabelledSet({ scenes: timed.map(() => ({ copies: [] })), events: null, seed: 7 });
    const routes: Record<string, { body: Buffer }> = {};
    for (const photo of roll) routes[`/${photo.name}`] = { body: photo.bytes };
    for (const [i, t] of timed.entries())
      routes[`/${t.name}.jpg`] = {
        body: await sharp(timedScenes[i].bytes)
          .withExifMerge({ IFD2: { DateTimeOriginal: t.at, OffsetTimeOriginal: '+00:00' } })
          .jpeg()
          .toBuffer(),
      };
    server = await startPhotoServer(routes);
  });
  afterAll(async () => {
    await server?.close();
    await api?.stop();
  });

  async function generate(userId: string, photos: { id: string; url: string }[], layoutType: string) {
    const generated = await post(
      api.url,
      '/v2/generate',
      { userId, sku: 'PB-HC-A4-L', psp: 'local', marketId: 0, layoutType, photos },
      serviceHeader(shop.credentials.dev),
    );
    expect(generated.status).toBe(200);
    const id = new URL(generated.body.url).searchParams.get('id')!;
    let project: any;
    await waitFor(
      async () => {
        project = (await graphql(api.url, serviceHeader(shop.credentials.dev), PROJECT, { id })).data?.project;
        return project?.status.project === 'editable';
      },
      60_000,
      'the book to be editable',
    );
    return { id, project };
  }

  it('holds exactly the four originals; every copy answers kept: false with duplicate or blurry, on GraphQL and REST', async () => {
    const { id, project } = await generate(
      'roll-user',
      roll.map((p) => ({ id: p.name, url: server.url(`/${p.name}`) })),
      'smartbook',
    );
    const byClientId = new Map<string, any>(project.photos.map((p: any) => [p.clientPhotoId, p]));
    const placed = project.pages.flatMap((page: any) => page.photos.map((s: any) => s.photoId)).sort();
    const originals = roll.filter((p) => !p.copy);
    expect(placed).toEqual(originals.map((p) => byClientId.get(p.name).id).sort());
    for (const photo of roll) {
      const { curation } = byClientId.get(photo.name);
      const original = byClientId.get(`${photo.shot}.jpg`);
      if (!photo.copy) expect(curation).toMatchObject({ kept: true, reason: 'kept', groupId: original.id });
      else
        expect(curation, photo.name).toMatchObject({
          kept: false,
          reason: photo.copy === 'blurred' ? 'blurry' : 'duplicate',
          groupId: original.id,
        });
      expect(curation.score).toBeGreaterThan(0);
    }

    // 1200 x 900 px photos on an A4 landscape page: laid out where they print at 150 DPI or more.
    // (Page 0, the cover, is one photo over the whole front whatever its size.)
    const interior = project.preflight.problems.filter((p: any) => p.page > 0);
    const below = interior.filter((p: any) => p.code === 'RESOLUTION_TOO_LOW' || /low resolution/.test(p.message));
    expect(below).toEqual([]);
    const problems = interior.map((p: any) => p.code);
    expect(problems).not.toContain('EMPTY_SLOT');
    expect(project.preflight.printable).toBe(true);

    // REST: the same decisions, in the client's order.
    const status = await request(api.url, 'GET', `/v2/project/status?id=${id}`, {
      headers: serviceHeader(shop.credentials.dev),
    });
    expect(status.status).toBe(200);
    expect(status.body.curatedPhotos.map((p: any) => p.clientPhotoId)).toEqual(roll.map((p) => p.name));
    for (const photo of status.body.curatedPhotos)
      expect(photo.curation).toEqual(byClientId.get(photo.clientPhotoId).curation);

    // A duplicate keeps the decisions, its groups naming its own photos.
    const copy = await post(api.url, '/v2/project/duplicate', { id }, serviceHeader(shop.credentials.dev));
    expect(copy.status).toBe(200);
    let copied: any;
    await waitFor(
      async () => {
        copied = (await graphql(api.url, serviceHeader(shop.credentials.dev), PROJECT, { id: copy.body.id })).data
          ?.project;
        return copied?.status.project === 'editable';
      },
      30_000,
      'the copy to be editable',
    );
    const copiedIds = new Map<string, string>(copied.photos.map((p: any) => [p.clientPhotoId, p.id]));
    for (const photo of copied.photos) {
      const source = byClientId.get(photo.clientPhotoId);
      const sourceGroup = project.photos.find((p: any) => p.id === source.curation.groupId);
      expect(photo.curation).toEqual({ ...source.curation, groupId: copiedIds.get(sourceGroup.clientPhotoId) });
    }

    // Another shop sees neither the project nor its photos' decisions.
    const foreign = await request(api.url, 'GET', `/v2/project/status?id=${id}`, {
      headers: serviceHeader(other.credentials.dev),
    });
    expect(foreign.status).toBe(404);
    const foreignGraphql = await graphql(api.url, serviceHeader(other.credentials.dev), PROJECT, { id });
    expect(foreignGraphql.data?.project ?? null).toBeNull();
    expect(JSON.stringify(foreignGraphql)).not.toContain('duplicate');
  });

  it('lays out photos by capture time, not upload order, with a new page where hours pass', async () => {
    const { project } = await generate(
      'story-user',
      timed.map((t) => ({ id: t.name, url: server.url(`/${t.name}.jpg`) })),
      'smartbook',
    );
    const names = new Map<string, string>(project.photos.map((p: any) => [p.id, p.clientPhotoId]));
    const pages: string[][] = project.pages
      .map((page: any) => page.photos.map((s: any) => names.get(s.photoId)))
      .filter((ids: string[]) => ids.length > 0);
    // In time order page after page (a page's own slots may put its hero first).
    const pageOf = (name: string) => pages.findIndex((ids) => ids.includes(name));
    expect(pages.flat().sort()).toEqual(['t0', 't1', 't2', 't3', 't4']);
    expect(pageOf('t0')).toBeLessThanOrEqual(pageOf('t1'));
    expect(pageOf('t1')).toBeLessThanOrEqual(pageOf('t2'));
    // The afternoon starts on a page of its own: no page holds morning and afternoon.
    expect(pageOf('t3')).toBeGreaterThan(pageOf('t2'));
    for (const ids of pages)
      expect(ids.some((n) => ['t0', 't1', 't2'].includes(n)) && ids.some((n) => ['t3', 't4'].includes(n))).toBe(false);
  });

  it('a fastbook keeps every photo and records no curation', async () => {
    const some = roll.slice(0, 3);
    const { project } = await generate(
      'fast-user',
      some.map((p) => ({ id: p.name, url: server.url(`/${p.name}`) })),
      'fastbook',
    );
    expect(project.pages.flatMap((page: any) => page.photos)).toHaveLength(3);
    expect(project.photos.map((p: any) => p.curation)).toEqual([null, null, null]);
  });
});
