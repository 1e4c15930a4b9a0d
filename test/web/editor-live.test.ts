import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { startPhotoServer, type PhotoServer } from '../support/photo-server';
import { editableProject, printBody } from '../support/print-fixtures';
import { darkPixels } from '../imaging/print/print-images';
import { currentEditorLink } from '../support/editor-link';
import { printedPages } from '../support/printed-pages';
import { browserAvailable, launchBrowser, NO_BROWSER_REASON } from '../support/browser';
import { markerPhoto, redBox } from '../support/marker-photo';
import { renderPrintPage } from '../../src/imaging/print/render-page';
import type { IssuedClient } from '../../src/services/clients/client-admin';

if (!browserAvailable) console.warn(NO_BROWSER_REASON);

describe.skipIf(!browserAvailable)(
  'the editor: what the screen shows is what prints, and two editors stay in step',
  () => {
    let api: TestService;
    let shop: IssuedClient;
    let photos: PhotoServer;
    let first: Awaited<ReturnType<typeof launchBrowser>>;
    let second: Awaited<ReturnType<typeof launchBrowser>>;
    let projectId: string;
    let editorUrl: string;
    const originals = new Map<string, Buffer>();

    beforeAll(async () => {
      api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true' });
      shop = await api.createClient('Live editor shop');
      originals.set('/a.jpg', await markerPhoto('#dddddd'));
      originals.set('/b.jpg', await markerPhoto('#bbccdd'));
      photos = await startPhotoServer(Object.fromEntries([...originals].map(([path, body]) => [path, { body }])));
      const auth = serviceHeader(shop.credentials.dev);
      projectId = await editableProject(api, auth, {
        userId: 'live-user',
        sku: 'PB-HC-A4-L',
        photos: ['/a.jpg', '/b.jpg'].map(photos.url),
      });
      editorUrl = await currentEditorLink(api.url, auth, projectId);
      [first, second] = await Promise.all([launchBrowser(), launchBrowser()]);
    }, 120_000);
    afterAll(async () => {
      await first?.close();
      await second?.close();
      await photos?.close();
      await api?.stop();
    });

    async function open(browser: typeof first): Promise<Page> {
      const page = await browser.context.newPage();
      page.on('pageerror', (error) => console.error('editor page error:', error.message));
      page.on('console', (message) => message.type() === 'error' && console.error('editor console:', message.text()));
      await page.goto(editorUrl);
      await page.getByTestId('page-1').locator('[data-photo-id] img').first().waitFor();
      return page;
    }

    /** Where the marker sits on page 1 on screen, as fractions of the page, and the page's width in pixels. */
    async function onScreen(page: Page) {
      const sheet = page.getByTestId('page-1').locator('.page');
      await page.waitForFunction(() =>
        [...(globalThis as any).document.querySelectorAll('[data-testid="page-1"] img')].every((i: any) => i.complete),
      );
      const box = (await sheet.boundingBox())!;
      return { marker: await redBox(await sheet.screenshot()), widthPx: box.width, heightPx: box.height };
    }

    /** Where the marker sits on page 1 as print renders it (the interior page JPEG of interior.pdf), as fractions of the trim box. */
    async function onPaper() {
      const book = await request(api.url, 'GET', `/v2/project/book?id=${projectId}`, {
        headers: serviceHeader(shop.credentials.dev),
      });
      const page1 = book.body.book.pages[0];
      const photoUrls = (
        await post(
          api.url,
          '/graphql',
          { query: 'query ($id: String!) { project(id: $id) { photos { id url } } }', variables: { id: projectId } },
          serviceHeader(shop.credentials.dev),
        )
      ).body.data.project.photos as { id: string; url: string }[];
      const format = { widthMm: 297, heightMm: 210, bleedMm: 3, dpi: 150 };
      const rendered = await renderPrintPage({
        page: page1,
        format,
        loadPhoto: async (id) => originals.get(new URL(photoUrls.find((p) => p.id === id)!.url).pathname)!,
        colorCorrection: false,
      });
      const bleed = Math.round((format.bleedMm / 25.4) * format.dpi);
      return redBox(rendered.jpeg, {
        left: bleed,
        top: bleed,
        width: rendered.widthPx - 2 * bleed,
        height: rendered.heightPx - 2 * bleed,
      });
    }

    async function expectSamePlace(page: Page) {
      const [screen, paper] = await Promise.all([onScreen(page), onPaper()]);
      // At the editor's scale: a few pixels (the screen shows a thumbnail, scaled by the browser).
      for (const side of ['left', 'right'] as const)
        expect(Math.abs(screen.marker[side] - paper[side]) * screen.widthPx, side).toBeLessThan(3);
      for (const side of ['top', 'bottom'] as const)
        expect(Math.abs(screen.marker[side] - paper[side]) * screen.heightPx, side).toBeLessThan(3);
      return { screen, paper };
    }

    it('shows a photo where print puts it: the automatic crop, then a zoomed crop set by the zoom slider', async () => {
      const page = await open(first);
      const automatic = await expectSamePlace(page);
      // The marker is right of centre and not cut: the same automatic crop on both sides, not an attention crop on one.
      expect(automatic.paper.left).toBeGreaterThan(0.5);

      await page.getByTestId('page-1').locator('[data-photo-id]').first().click();
      const slider = page.getByTestId('zoom');
      await slider.fill('2'); // input and change: the crop is saved
      await page.waitForFunction(() =>
        (globalThis as any).document
          .querySelector('.notice')
          ?.textContent?.startsWith('Saved: cropped photo 1 on page 1'),
      );
      const zoomed = await expectSamePlace(page);
      // The zoom moved the marker out towards the page's edge, on paper as on screen.
      expect(zoomed.paper.left - automatic.paper.left).toBeGreaterThan(0.1);

      // Panned by keyboard-reachable buttons: more of the right side shows, the marker moves left, on paper as on screen.
      await page.getByTestId('page-1').locator('[data-photo-id]').first().click();
      await page.getByRole('button', { name: 'Show more of the photo to the right' }).click();
      await page.waitForFunction(() =>
        (globalThis as any).document
          .querySelector('.notice')
          ?.textContent?.startsWith('Saved: moved photo 1 in its frame on page 1'),
      );
      const panned = await expectSamePlace(page);
      expect(panned.paper.left).toBeLessThan(zoomed.paper.left - 0.02);
      await page.close();
    });

    it("two editors on one book (two browsers) see each other's edits within a second, and undo/redo survive a reload", async () => {
      const [a, b] = await Promise.all([open(first), open(second)]);
      const firstPhotoOf = (page: Page, n: number) =>
        page.getByTestId(`page-${n}`).locator('[data-photo-id]').first().getAttribute('data-photo-id');
      const before = [await firstPhotoOf(a, 1), await firstPhotoOf(a, 2)];

      const move = a.getByRole('button', { name: 'Move page 1 right' });
      await move.waitFor();
      const started = Date.now();
      await move.evaluate((button: any) => button.click());
      await b.waitForFunction(
        (expected) =>
          (globalThis as any).document
            .querySelector('[data-testid="page-1"] [data-photo-id]')
            ?.getAttribute('data-photo-id') === expected,
        before[1],
        { timeout: 1_000, polling: 'raf' },
      );
      const elapsed = Date.now() - started;
      console.log(`the second editor showed the first one's edit ${elapsed} ms after the click`);
      expect(elapsed).toBeLessThan(1_000);

      await b.getByText('Text on page 2', { exact: true }).click();
      await b.getByTestId('caption-text-2').fill('Seen from the other tab');
      await b.getByTestId('caption-add-2').click();
      await a.getByTestId('caption-2-0').waitFor({ timeout: 1_000 });
      expect(await a.getByTestId('caption-2-0').textContent()).toBe('Seen from the other tab');

      // Undo twice in one editor (the caption, then the move), reload it: Redo still knows both.
      await a.getByTestId('undo').click();
      await a.getByTestId('caption-2-0').waitFor({ state: 'detached' });
      await a.keyboard.press('Control+z');
      await a.waitForFunction(
        (expected) =>
          (globalThis as any).document
            .querySelector('[data-testid="page-1"] [data-photo-id]')
            ?.getAttribute('data-photo-id') === expected,
        before[0],
      );
      await b.waitForFunction(
        (expected) =>
          (globalThis as any).document
            .querySelector('[data-testid="page-1"] [data-photo-id]')
            ?.getAttribute('data-photo-id') === expected,
        before[0],
        { timeout: 1_000 },
      );
      await a.reload();
      await a.getByTestId('redo').waitFor();
      expect(await a.getByTestId('redo').isEnabled()).toBe(true);
      await a.getByTestId('redo').click();
      await a.waitForFunction(
        (expected) =>
          (globalThis as any).document
            .querySelector('[data-testid="page-1"] [data-photo-id]')
            ?.getAttribute('data-photo-id') === expected,
        before[1],
      );
      await a.keyboard.press('Control+Shift+z');
      await a.getByTestId('caption-2-0').waitFor();
      await b.getByTestId('caption-2-0').waitFor({ timeout: 1_000 });
    });

    it('interior.pdf shows the crop and the caption exactly where the editor shows them', async () => {
      const page = await open(first);
      await page.getByTestId('caption-2-0').waitFor();
      const pageBox = (await page.getByTestId('page-1').locator('.page').boundingBox())!;
      const screen = await onScreen(page);
      const book = (
        await request(api.url, 'GET', `/v2/project/book?id=${projectId}`, {
          headers: serviceHeader(shop.credentials.dev),
        })
      ).body.book;
      const caption = book.pages[1].captions[0];
      await page.close();

      const auth = serviceHeader(shop.credentials.dev);
      expect((await post(api.url, '/v2/print', printBody('live-editor-1', projectId), auth)).status).toBe(200);
      const [paper1, paper2] = await printedPages(api.url, 'live-editor-1', auth, { timeoutMs: 120_000 });
      const paper = await redBox(paper1.png, paper1.trim);
      for (const side of ['left', 'right'] as const)
        expect(Math.abs(screen.marker[side] - paper[side]) * pageBox.width, side).toBeLessThan(3);
      for (const side of ['top', 'bottom'] as const)
        expect(Math.abs(screen.marker[side] - paper[side]) * pageBox.height, side).toBeLessThan(3);

      // The caption is set inside its box on page 2, and nowhere above it.
      const trim = paper2.trim;
      const box = {
        left: trim.left + Math.round(caption.x * trim.width),
        top: trim.top + Math.round(caption.y * trim.height),
        width: Math.round(caption.width * trim.width),
        height: Math.round(((caption.sizePt * 1.3) / 72) * 100),
      };
      expect(await darkPixels(paper2.png, box)).toBeGreaterThan(50);
      expect(await darkPixels(paper2.png, { ...box, top: box.top - box.height - 4 })).toBe(0);
    }, 180_000);
  },
);
