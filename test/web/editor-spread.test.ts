import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { graphql } from '../support/graphql';
import { post, serviceHeader } from '../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../support/photo-server';
import { waitFor } from '../support/wait';
import { browserAvailable, launchBrowser, NO_BROWSER_REASON } from '../support/browser';
import type { IssuedClient } from '../../src/services/clients/client-admin';

if (!browserAvailable) console.warn(NO_BROWSER_REASON);

/** A layflat book's editor offers the spread layout, draws the photo across both pages, and leaves it again. */
describe.skipIf(!browserAvailable)('the editor shows a spread across its two pages (layflat)', () => {
  let api: TestService;
  let shop: IssuedClient;
  let server: PhotoServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  const auth = () => serviceHeader(shop.credentials.dev);

  async function generate(sku: string, psp: string): Promise<{ url: string; id: string }> {
    const generated = await post(
      api.url,
      '/v2/generate',
      {
        userId: 'spread-user',
        sku,
        psp,
        marketId: 0,
        layoutType: 'fastbook',
        language: 'en',
        photos: ['/1.jpg', '/2.jpg', '/3.jpg'].map((p) => server.url(p)),
      },
      auth(),
    );
    expect(generated.status, JSON.stringify(generated.body)).toBe(200);
    const id = new URL(generated.body.url).searchParams.get('id')!;
    await waitFor(
      async () =>
        (await graphql(api.url, auth(), 'query ($id: String!) { project(id: $id) { status { project } } }', { id }))
          .data?.project?.status.project === 'editable',
      60_000,
      `the ${sku} book to be editable`,
    );
    return { url: generated.body.url, id };
  }

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true' });
    shop = await api.createClient('Spread browser shop');
    const colours = ['#c0392b', '#2980b9', '#27ae60'];
    server = await startPhotoServer(
      Object.fromEntries(
        await Promise.all(
          colours.map(async (colour, i) => [
            `/${i + 1}.jpg`,
            { body: await makePhoto({ width: 3000, height: 1500, colour, takenAt: `2024:06:0${i + 1} 10:00:00` }) },
          ]),
        ),
      ),
    );
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await api?.stop();
  });

  it('offers Spread on a left page whose facing page is free, draws one photo over both pages, and leaves it', async () => {
    const { url, id } = await generate('PB-LF-30-S', 'printhub');
    // Free page 3, the right page of the opening 2-3.
    expect((await post(api.url, '/v2/project/book/unplace', { id, slot: { page: 3, slot: 0 } }, auth())).status).toBe(
      200,
    );
    const page = await browser.context.newPage();
    await page.goto(url);
    const layout2 = page.getByLabel('Layout of page 2', { exact: true });
    await layout2.waitFor({ timeout: 20_000 });
    expect(await layout2.locator('option[value="spread"]').count()).toBe(1);
    // A right page never starts one.
    expect(await page.getByLabel('Layout of page 3', { exact: true }).locator('option[value="spread"]').count()).toBe(
      0,
    );

    await layout2.selectOption('spread');
    await expect.poll(() => page.getByText('Saved: layout of page 2').count(), { timeout: 10_000 }).toBe(1);
    const left = page.locator('[data-testid="page-2"] [data-slot="0"]');
    const right = page.locator('[data-testid="page-3"] [data-slot="0"]');
    await right.waitFor();
    const photoId = await left.getAttribute('data-photo-id');
    // The same photo on both pages, the slot two pages wide, the right page's one page width to the left.
    expect(await right.getAttribute('data-photo-id')).toBe(photoId);
    expect(await left.evaluate((e: any) => [e.style.left, e.style.width])).toEqual(['0%', '200%']);
    expect(await right.evaluate((e: any) => [e.style.left, e.style.width])).toEqual(['-100%', '200%']);
    // On screen the two halves meet at the fold: the left one's right edge is the right one's left edge.
    const [a, b] = [await left.boundingBox(), await right.boundingBox()];
    expect(Math.abs(a!.x + a!.width / 2 - (b!.x + b!.width / 2))).toBeLessThan(2);
    await page.getByTestId('spread-right-3').waitFor();
    // Choosing it on the right page chooses the spread's one slot, on page 2.
    await right.click();
    await expect.poll(() => left.getAttribute('aria-pressed')).toBe('true');

    // Leaving the spread: the photo back on page 2 alone, page 3 blank.
    await layout2.selectOption('full');
    await expect.poll(() => page.locator('[data-testid="page-3"] [data-slot]').count(), { timeout: 10_000 }).toBe(0);
    expect(await page.locator('[data-testid="page-2"] [data-slot="0"]').getAttribute('data-photo-id')).toBe(photoId);
    await page.close();
  }, 120_000);

  it('a hardcover book offers no spread', async () => {
    const { url } = await generate('PB-HC-A4-L', 'local');
    const page = await browser.context.newPage();
    await page.goto(url);
    const layout2 = page.getByLabel('Layout of page 2', { exact: true });
    await layout2.waitFor({ timeout: 20_000 });
    expect(await layout2.locator('option[value="spread"]').count()).toBe(0);
    await page.close();
  }, 120_000);
});
