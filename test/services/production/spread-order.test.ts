import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/harness';
import { post, serviceHeader } from '../../support/http';
import { graphql } from '../../support/graphql';
import { makePhoto, startPhotoServer, type PhotoServer } from '../../support/photo-server';
import { printBody } from '../../support/print-fixtures';
import { printedPages, type PrintedPage } from '../../support/printed-pages';
import { waitFor } from '../../support/wait';
import type { IssuedClient } from '../../../src/services/clients/client-admin';

/**
 * A layflat book ordered with a spread on pages 2-3: interior.pdf as the printer gets it, read back
 * by poppler, carries the photo's left half on page 2 and its right half on page 3, continuous at the fold.
 */
describe('a spread in an ordered layflat book', () => {
  let api: TestService;
  let shop: IssuedClient;
  let server: PhotoServer;
  let projectId: string;
  const auth = () => serviceHeader(shop.credentials.dev);

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true' });
    shop = await api.createClient('Layflat shop');
    // 21 photos for a product of 20 at least: one leaves page 3 free for the spread.
    const photos: Record<string, { body: Buffer }> = {};
    for (let i = 0; i < 21; i++)
      photos[`/${i}.jpg`] = {
        body: await makePhoto({
          width: 3600,
          height: 1800,
          colour: i === 1 ? '#000000' : '#3a7bd5',
          takenAt: `2024:06:01 10:${String(i).padStart(2, '0')}:00`,
        }),
      };
    server = await startPhotoServer(photos);
    const generated = await post(
      api.url,
      '/v2/generate',
      {
        userId: 'layflat-user',
        sku: 'PB-LF-30-S',
        psp: 'printhub',
        marketId: 0,
        layoutType: 'fastbook',
        photos: Object.keys(photos).map((p) => server.url(p)),
      },
      auth(),
    );
    expect(generated.status, JSON.stringify(generated.body)).toBe(200);
    projectId = new URL(generated.body.url).searchParams.get('id')!;
    await waitFor(
      async () =>
        (
          await graphql(api.url, auth(), 'query ($id: String!) { project(id: $id) { status { project } } }', {
            id: projectId,
          })
        ).data?.project?.status.project === 'editable',
      90_000,
      'the layflat book to be editable',
    );
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    await api?.stop();
  });

  it('prints page 2 with the left half and page 3 with the right half, continuous across the fold', async () => {
    expect(
      (await post(api.url, '/v2/project/book/unplace', { id: projectId, slot: { page: 3, slot: 0 } }, auth())).status,
    ).toBe(200);
    const set = await graphql(
      api.url,
      auth(),
      'mutation ($id: String!) { setPageLayout(projectId: $id, page: 2, layout: "spread") { pages { number layout photos { width } } preflight { printable problems { code severity } } } }',
      { id: projectId },
    );
    expect(set.errors).toBeUndefined();
    expect(set.data.setPageLayout.pages.slice(1, 3).map((p: { layout: string }) => p.layout)).toEqual([
      'spread',
      'spread',
    ]);
    expect(set.data.setPageLayout.preflight.printable, JSON.stringify(set.data.setPageLayout.preflight)).toBe(true);
    // The spread's right page is not a blank page to the preflight.
    expect(set.data.setPageLayout.preflight.problems.map((p: { code: string }) => p.code)).not.toContain('BLANK_PAGE');

    expect((await post(api.url, '/v2/print', printBody('layflat-1', projectId), auth())).status).toBe(200);
    const [, left, right] = await printedPages(api.url, 'layflat-1', auth(), { pages: 3, timeoutMs: 400_000 });
    const l = await columns(left);
    const r = await columns(right);
    const foldLeft = l.at(left.trim.left + left.trim.width - 1);
    const foldRight = r.at(right.trim.left);
    const step = diff(l.at(left.trim.left + left.trim.width - 3), foldLeft);
    // Across the fold the photo moves on as little as it does between two columns of one page.
    expect(diff(foldLeft, foldRight), `${foldLeft} | ${foldRight}`).toBeLessThanOrEqual(step + 8);
    // Each page shows the photo, not paper, up to its edges (the bleed too).
    expect(Math.min(...l.at(0))).toBeLessThan(240);
    expect(Math.min(...r.at(r.width - 1))).toBeLessThan(240);
    // The two halves differ: the same pixels twice would not be a spread.
    expect(diff(l.at(left.trim.left + 5), r.at(right.trim.left + right.trim.width - 5))).toBeGreaterThan(20);
  }, 480_000);
});

/** The mean colour of each column over the trim's height. */
async function columns(page: PrintedPage) {
  const { data, info } = await sharp(page.png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    at(x: number): number[] {
      const sums = [0, 0, 0];
      for (let y = page.trim.top; y < page.trim.top + page.trim.height; y++)
        for (let c = 0; c < 3; c++) sums[c] += data[(y * info.width + x) * 3 + c];
      return sums.map((sum) => sum / page.trim.height);
    },
  };
}

const diff = (a: number[], b: number[]) => Math.max(...a.map((v, i) => Math.abs(v - b[i])));
