import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/harness';
import { graphql } from '../../support/graphql';
import { post, serviceHeader } from '../../support/http';
import { startPhotoServer, type PhotoServer } from '../../support/photo-server';
import { waitFor } from '../../support/wait';
import { makeLabelledSet, type LabelledPhoto } from '../../support/curation-set';
import type { IssuedClient } from '../../../src/services/clients/client-admin';

const PROJECT = `query ($id: String!) { project(id: $id) {
  status { project }
  photos { id clientPhotoId width height curation { kept } }
  pages { number layout photos { photoId x width } }
  preflight { printable problems { code severity page } }
} }`;

/**
 * A layflat smartbook made as an integrator makes one: two days of photos served over loopback,
 * `generate` with a layflat product (PB-LF-30-S, 300 mm square, a spread prints 600 x 300 mm), the
 * build flow, and the book read back over GraphQL. The domain rules are tested on buildBook
 * (smartbook-spreads.test.ts); this checks they reach a real project: the analysed sizes and
 * scores, the product's binding and format, and a preflight that accepts the spreads.
 */
describe('a layflat smartbook through generate', () => {
  let api: TestService;
  let shop: IssuedClient;
  let server: PhotoServer;
  let roll: LabelledPhoto[];

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true' });
    shop = await api.createClient('Layflat smartbook shop');
    // 16 distinct scenes over two days, 3800 px on the long side: a 4:3 landscape fills a spread at
    // about 160 DPI, above the preflight's 150.
    roll = await makeLabelledSet({
      scenes: Array.from({ length: 16 }, () => ({ copies: [] })),
      longSide: 3800,
      events: 2,
      seed: 11,
    });
    server = await startPhotoServer(Object.fromEntries(roll.map((p) => [`/${p.name}`, { body: p.bytes }])));
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await api?.stop();
  });

  it("gives each day's best landscape photo a spread from a left-hand page, places every photo once, and preflights printable", async () => {
    const auth = serviceHeader(shop.credentials.dev);
    const generated = await post(
      api.url,
      '/v2/generate',
      {
        userId: 'layflat-roll',
        sku: 'PB-LF-30-S',
        psp: 'printhub',
        marketId: 0,
        layoutType: 'smartbook',
        photos: roll.map((p) => ({
          id: p.name,
          url: server.url(`/${p.name}`),
        })),
      },
      auth,
    );
    expect(generated.status, JSON.stringify(generated.body)).toBe(200);
    const id = new URL(generated.body.url).searchParams.get('id')!;
    let project: any;
    await waitFor(
      async () => {
        project = (await graphql(api.url, auth, PROJECT, { id })).data?.project;
        return project?.status.project === 'editable';
      },
      120_000,
      'the layflat smartbook to be editable',
    );

    const pages: {
      number: number;
      layout: string;
      photos: { photoId: string; x: number; width: number }[];
    }[] = project.pages;
    const spreads = pages.filter((p) => p.layout === 'spread' && p.photos.length > 0);
    // One spread a day: each day's photos are an event of eight, enough for its best to stand out.
    expect(spreads).toHaveLength(2);
    const byId = new Map<string, any>(project.photos.map((p: any) => [p.id, p]));
    for (const spread of spreads) {
      expect(spread.number % 2, `page ${spread.number} starts a spread`).toBe(0);
      expect(spread.photos).toHaveLength(1);
      expect(spread.photos[0]).toMatchObject({ x: 0, width: 2 });
      const photo = byId.get(spread.photos[0].photoId);
      expect(photo.width).toBeGreaterThan(photo.height);
      // The right-hand page is the spread's continuation: no photo of its own.
      expect(pages.find((p) => p.number === spread.number + 1)).toMatchObject({
        layout: 'spread',
        photos: [],
      });
    }
    // The two spreads show photos of different days (one per event), in capture order.
    const dayOf = (photoId: string) => roll.find((p) => p.name === byId.get(photoId).clientPhotoId)!.capturedAt!;
    const [first, second] = spreads.map((s) => dayOf(s.photos[0].photoId).getTime());
    expect(second - first).toBeGreaterThan(12 * 3_600_000);

    // Every photo is kept (no copies among them) and placed exactly once.
    expect(project.photos.every((p: any) => p.curation.kept)).toBe(true);
    const placed = pages.flatMap((p) => p.photos.map((s) => s.photoId)).sort();
    expect(placed).toEqual(project.photos.map((p: any) => p.id).sort());

    // The preflight accepts the book as laid out: no low resolution across a spread, no empty slot.
    const blocking = project.preflight.problems.filter((p: any) => p.severity === 'blocking');
    expect(blocking).toEqual([]);
    expect(project.preflight.problems.map((p: any) => p.code)).not.toContain('RESOLUTION_TOO_LOW');
    expect(project.preflight.printable).toBe(true);
  }, 180_000);
});
