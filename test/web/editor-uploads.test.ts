import { execFileSync } from 'node:child_process';
import { heifEncAvailable as heifEnc } from '../support/heif-enc';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page, Route } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../support/photo-server';
import { editableProject, printBody } from '../support/print-fixtures';
import { waitFor } from '../support/wait';
import { darkPixels } from '../imaging/print/print-images';
import { currentEditorLink } from '../support/editor-link';
import { printedPages } from '../support/printed-pages';
import { browserAvailable, launchBrowser, NO_BROWSER_REASON } from '../support/browser';
import { markerPhoto, redBox } from '../support/marker-photo';
import { countUploadedBytes } from '../support/upload-byte-count';
import type { IssuedClient } from '../../src/services/clients/client-admin';

/** The editor's PATCH size (web/app/photo-uploads.js CHUNK_SIZE). */
const CHUNK = 4 * 1024 * 1024;
const BIG = 'big-noise.jpg';
const HEIC = 'iphone.heic';
const MARKER = 'marker.jpg';

if (!browserAvailable) console.warn(NO_BROWSER_REASON);
if (!heifEnc) console.warn('no heif-enc (Debian libheif-examples): the editor upload test is skipped');

interface PatchSeen {
  uploadUrl: string;
  offset: number;
}

describe.skipIf(!browserAvailable || !heifEnc)(
  'the editor adds photos from the device: 20 files (a HEIC, a 30 MB JPEG), one cut at half and resumed, tray, crop, caption, undo, German, print',
  () => {
    let api: TestService;
    let shop: IssuedClient;
    let photos: PhotoServer;
    let browser: Awaited<ReturnType<typeof launchBrowser>>;
    let projectId: string;
    let editorUrl: string;
    let dir: string;
    const counter = countUploadedBytes();
    const files: string[] = [];
    /** Upload id of each file name, from the Location the service answered to the editor's POST. */
    const uploadIdOf = new Map<string, string>();
    const patches: PatchSeen[] = [];
    const auth = () => serviceHeader(shop.credentials.dev);

    beforeAll(async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'editor-uploads-'));
      // 17 small distinct photos (distinct bytes: the same bytes twice are one photo).
      for (let i = 0; i < 17; i++) {
        const name = `small-${String(i + 1).padStart(2, '0')}.jpg`;
        writeFileSync(
          path.join(dir, name),
          await makePhoto({
            width: 900,
            height: 600,
            colour: `#${(0x203040 + i * 0x0a0b0c).toString(16).slice(-6)}`,
            takenAt: `2024:07:${String(i + 1).padStart(2, '0')} 12:00:00`,
          }),
        );
        files.push(name);
      }
      // The marker photo the crop is checked with, on screen and on paper.
      writeFileSync(path.join(dir, MARKER), await markerPhoto('#d0d4d8'));
      files.push(MARKER);
      // An iPhone photo: HEIC made by Debian's heif-enc.
      writeFileSync(path.join(dir, 'for-heic.jpg'), await makePhoto({ width: 1200, height: 900, orientation: 6 }));
      execFileSync('heif-enc', ['-q', '80', '-o', path.join(dir, HEIC), path.join(dir, 'for-heic.jpg')]);
      files.push(HEIC);
      // ~30 MB: random pixels at JPEG quality 100 do not compress (about 2.9 bytes a pixel).
      const [width, height] = [3700, 2780];
      writeFileSync(
        path.join(dir, BIG),
        await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
          .jpeg({ quality: 100, chromaSubsampling: '4:4:4' })
          .toBuffer(),
      );
      files.push(BIG);
      expect(files).toHaveLength(20);

      api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true' });
      shop = await api.createClient('Upload editor shop');
      const originals = new Map([
        ['/a.jpg', await markerPhoto('#dddddd')],
        ['/b.jpg', await markerPhoto('#bbccdd')],
      ]);
      photos = await startPhotoServer(Object.fromEntries([...originals].map(([p, body]) => [p, { body }])));
      projectId = await editableProject(api, auth(), {
        userId: 'upload-user',
        sku: 'PB-HC-A4-L',
        photos: ['/a.jpg', '/b.jpg'].map(photos.url),
      });
      editorUrl = await currentEditorLink(api.url, auth(), projectId);
      browser = await launchBrowser();
    }, 180_000);
    afterAll(async () => {
      counter.stop();
      await browser?.close();
      await photos?.close();
      await api?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    async function open(url = editorUrl): Promise<Page> {
      const page = await browser.context.newPage();
      page.on('pageerror', (error) => console.error('editor page error:', error.message));
      page.on('console', (message) => message.type() === 'error' && console.error('editor console:', message.text()));
      // What the editor sends, seen (not changed): which upload is which file, and each PATCH's offset.
      page.on('response', async (response) => {
        const sent = response.request();
        if (sent.method() !== 'POST' || !sent.url().endsWith('/v2/uploads')) return;
        const metadata = Object.fromEntries(
          ((await sent.headerValue('upload-metadata')) ?? '').split(',').map((pair) => {
            const [key, value = ''] = pair.split(' ');
            return [key, Buffer.from(value, 'base64').toString()];
          }),
        );
        const location = await response.headerValue('location');
        if (location) uploadIdOf.set(metadata.filename, location.split('/').pop()!);
      });
      page.on('request', async (sent) => {
        if (sent.method() !== 'PATCH' || !sent.url().includes('/v2/uploads/')) return;
        patches.push({ uploadUrl: sent.url(), offset: Number(await sent.headerValue('upload-offset')) });
      });
      await page.goto(url);
      await page.getByTestId('page-1').locator('[data-photo-id] img').first().waitFor();
      return page;
    }

    const book = async () =>
      (await request(api.url, 'GET', `/v2/project/book?id=${projectId}`, { headers: auth() })).body as {
        revision: number;
        book: {
          pages: {
            number: number;
            photos: { photoId: string; crop?: { zoom: number } }[];
            captions?: { text: string; x: number; y: number; width: number; sizePt: number }[];
          }[];
        };
      };
    const placedIds = async () => (await book()).book.pages.flatMap((p) => p.photos.map((s) => s.photoId));
    const sizeOf = (name: string) => statSync(path.join(dir, name)).size;

    it('uploads 20 files from the file input; one cut at half continues after a reload from the server’s offset, sending nothing twice', async () => {
      const page = await open();
      const half = sizeOf(BIG) / 2;
      let smallCut: string | undefined;
      let bigCut: PatchSeen | undefined;
      // The network, cut: a small file's first PATCH once (the editor retries at once), and every
      // PATCH of the big file from its half on (until the tab is reloaded).
      const cut = async (route: Route) => {
        const sent = route.request();
        if (sent.method() !== 'PATCH') return route.continue();
        const offset = Number(await sent.headerValue('upload-offset'));
        const name = await nameOf(sent.url());
        if (offset === 0 && !smallCut && name !== BIG) {
          smallCut = sent.url();
          return route.abort('internetdisconnected');
        }
        if (offset >= half && name === BIG) {
          bigCut ??= { uploadUrl: sent.url(), offset };
          return route.abort('internetdisconnected');
        }
        return route.continue();
      };
      /** The file an upload URL is for: its POST's answer is seen (asynchronously) before its first PATCH. */
      const nameOf = async (url: string) => {
        const id = url.split('/').pop();
        for (let i = 0; i < 50; i++) {
          const found = [...uploadIdOf].find(([, uploadId]) => uploadId === id);
          if (found) return found[0];
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return undefined;
      };
      await page.route('**/v2/uploads/*', cut);
      await page.getByTestId('photo-files').setInputFiles(files.map((name) => path.join(dir, name)));
      await expect
        .poll(() => page.locator('[data-testid="upload"][data-state="done"]').count(), { timeout: 120_000 })
        .toBe(19);
      // One labelled progress bar per file.
      expect(await page.getByRole('progressbar').count()).toBe(20);
      expect(await page.getByRole('progressbar', { name: HEIC }).getAttribute('value')).toBe(String(sizeOf(HEIC)));
      await waitFor(async () => bigCut !== undefined, 60_000, 'the big upload to be cut at half');
      expect(smallCut).toBeDefined();
      const bigId = uploadIdOf.get(BIG)!;
      // The server holds the first half (its offset), the rest never arrived.
      expect(counter.bytesOf(bigId)).toBe(bigCut!.offset);
      expect(bigCut!.offset).toBeGreaterThanOrEqual(half);
      expect(bigCut!.offset).toBeLessThan(half + CHUNK);
      // The cut small upload was retried by the editor and finished; the server got it once.
      const smallId = smallCut!.split('/').pop()!;
      const smallName = [...uploadIdOf].find(([, id]) => id === smallId)![0];
      expect(counter.bytesOf(smallId)).toBe(sizeOf(smallName));

      // A reload: the unfinished upload is listed; the same file picked again continues it.
      // (Reloaded with the network still cut: a retry under way must not reach the server meanwhile.)
      await page.reload();
      await page.unroute('**/v2/uploads/*', cut);
      await page.getByTestId('uploads-left').waitFor();
      expect(await page.getByTestId('upload-left').count()).toBe(1);
      expect(await page.getByTestId('upload-left').textContent()).toContain(BIG);
      const serverHas = counter.bytesOf(bigId);
      const patchesBefore = patches.length;
      await page.getByTestId('photo-files').setInputFiles(path.join(dir, BIG));
      await page.locator('[data-testid="upload"][data-state="done"]').waitFor({ timeout: 120_000 });
      const resumed = patches.slice(patchesBefore).filter((p) => p.uploadUrl === bigCut!.uploadUrl);
      // It continued at what the server had (the cut's offset), not at 0.
      expect(serverHas).toBe(bigCut!.offset);
      expect(resumed[0].offset).toBe(serverHas);
      expect(uploadIdOf.get(BIG)).toBe(bigId); // no new upload was made
      // Counted at the server: each byte of every file arrived once, the big one's first half too.
      expect(counter.bytesOf(bigId)).toBe(sizeOf(BIG));
      for (const name of files) expect(counter.bytesOf(uploadIdOf.get(name)!), name).toBe(sizeOf(name));
      expect(counter.total()).toBe(files.reduce((sum, name) => sum + sizeOf(name), 0));
      console.log(
        `${files.length} files, ${(counter.total() / 1e6).toFixed(1)} MB received once each; ${BIG} (${(sizeOf(BIG) / 1e6).toFixed(1)} MB) cut at ${(bigCut!.offset / 1e6).toFixed(1)} MB and resumed there after a reload`,
      );
      await page.close();
    }, 300_000);

    it('all 20 photos are in the tray and in the book, the HEIC decoded; a tray photo goes onto a slot by drag, another by choosing', async () => {
      const uploaded = files.map((name) => uploadIdOf.get(name)!);
      await waitFor(
        async () => {
          const placed = await placedIds();
          return uploaded.every((id) => placed.includes(id));
        },
        120_000,
        'every upload to be placed in the book',
      );
      const page = await open();
      const tray = page.getByTestId('tray');
      for (const id of uploaded) await tray.locator(`[data-photo-id="${id}"][data-kind="used"]`).waitFor();
      expect(await tray.getByTestId('tray-photo').count()).toBe(22);
      const heic = (
        await post(
          api.url,
          '/graphql',
          {
            query: 'query ($id: String!) { project(id: $id) { photos { id status width height } } }',
            variables: { id: projectId },
          },
          auth(),
        )
      ).body.data.project.photos.find((p: { id: string }) => p.id === uploadIdOf.get(HEIC));
      // Upright by its EXIF orientation 6: 900 x 1200.
      expect(heic).toMatchObject({ status: 'idle', width: 900, height: 1200 });

      // Out of the book to the tray (unused), then dragged from the tray onto page 1's photo.
      const markerId = uploadIdOf.get(MARKER)!;
      await page.locator(`.slot[data-photo-id="${markerId}"]`).click();
      await page.getByTestId('unplace').click();
      await tray.locator(`[data-photo-id="${markerId}"][data-kind="unused"]`).waitFor();
      const replaced = await page.locator('[data-testid="page-1"] [data-slot="0"]').getAttribute('data-photo-id');
      // A real drag with the mouse (HTML5 drag and drop), both ends on the screen at once.
      await page.setViewportSize({ width: 1280, height: 2400 });
      await tray
        .locator(`[data-photo-id="${markerId}"] button`)
        .dragTo(page.locator('[data-testid="page-1"] [data-slot="0"]'));
      await page.locator(`[data-testid="page-1"] [data-slot="0"][data-photo-id="${markerId}"]`).waitFor();
      await tray.locator(`[data-photo-id="${replaced}"][data-kind="unused"]`).waitFor();

      // By keyboard or touch: choose the tray photo, then the slot it replaces (page 3's).
      await tray.locator(`[data-photo-id="${replaced}"] button`).focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('tray-picked').waitFor();
      await page.locator('[data-testid="page-3"] [data-slot="0"]').focus();
      await page.keyboard.press('Enter');
      await page.locator(`[data-testid="page-3"] [data-slot="0"][data-photo-id="${replaced}"]`).waitFor();
      const placed = await placedIds();
      expect(placed[0]).toBe(markerId);
      expect(placed).toContain(replaced);

      // A file that is not an image: refused in the browser by its name, or by the server with its words.
      writeFileSync(path.join(dir, 'notes.txt'), 'shopping list');
      writeFileSync(path.join(dir, 'not-really.jpg'), 'this is text, not a JPEG');
      await page
        .getByTestId('photo-files')
        .setInputFiles([path.join(dir, 'notes.txt'), path.join(dir, 'not-really.jpg')]);
      const failed = page.locator('[data-testid="upload"][data-state="failed"]');
      await expect.poll(() => failed.count(), { timeout: 30_000 }).toBe(2);
      expect(await failed.nth(0).textContent()).toContain('Not a photo');
      expect(await failed.nth(1).textContent()).toMatch(/Not uploaded \(422\): Upload-Metadata\.filename: \S/);
      await page.close();
    }, 240_000);

    it('crop, caption, undo and redo; German; the order’s interior.pdf shows the crop and caption as the editor did', async () => {
      const page = await open();
      await page.locator('[data-testid="page-1"] [data-slot="0"]').click();
      await page.getByTestId('zoom').fill('2');
      await waitFor(
        async () => (await book()).book.pages[0].photos[0].crop?.zoom === 2,
        10_000,
        'the crop to be saved',
      );

      await page.locator('details.caption-form').nth(1).locator('summary').click();
      await page.getByTestId('caption-text-2').fill('Uploaded from the phone');
      await page.getByTestId('caption-add-2').click();
      await page.getByTestId('caption-2-0').waitFor();
      await page.getByTestId('undo').click();
      await page.getByTestId('caption-2-0').waitFor({ state: 'detached' });
      await page.getByTestId('redo').click();
      await page.getByTestId('caption-2-0').waitFor();
      expect((await book()).book.pages[1].captions?.[0].text).toBe('Uploaded from the phone');
      expect((await book()).book.pages[0].photos[0].crop?.zoom).toBe(2);

      // Where the marker sits on page 1 on screen.
      const sheet = page.getByTestId('page-1').locator('.page');
      await page.waitForFunction(() =>
        [...(globalThis as any).document.querySelectorAll('[data-testid="page-1"] img')].every((i: any) => i.complete),
      );
      const pageBox = (await sheet.boundingBox())!;
      // In the middle of the window: the editor's sticky header covers what is scrolled to the top.
      await sheet.evaluate((element) => element.scrollIntoView({ block: 'center' }));
      const screen = await redBox(await sheet.screenshot());
      await page.close();

      // The same link in German: the tray and Add photos speak it.
      const german = await open(`${editorUrl}&language=de`);
      await german.getByRole('heading', { name: 'Fotos hinzufügen' }).waitFor();
      await german.getByRole('heading', { name: 'Deine Fotos' }).waitFor();
      expect(await german.getByTestId('tray').textContent()).toContain('Im Buch, Seite');
      expect(await german.locator('html').getAttribute('lang')).toBe('de');
      await german.close();

      const caption = (await book()).book.pages[1].captions![0];
      expect((await post(api.url, '/v2/print', printBody('upload-editor-1', projectId), auth())).status).toBe(200);
      const [paper1, paper2] = await printedPages(api.url, 'upload-editor-1', auth(), { timeoutMs: 240_000 });
      const paper = await redBox(paper1.png, paper1.trim);
      for (const side of ['left', 'right'] as const)
        expect(Math.abs(screen[side] - paper[side]) * pageBox.width, side).toBeLessThan(3);
      for (const side of ['top', 'bottom'] as const)
        expect(Math.abs(screen[side] - paper[side]) * pageBox.height, side).toBeLessThan(3);
      const trim = paper2.trim;
      const box = {
        left: trim.left + Math.round(caption.x * trim.width),
        top: trim.top + Math.round(caption.y * trim.height),
        width: Math.round(caption.width * trim.width),
        height: Math.round(((caption.sizePt * 1.3) / 72) * 100),
      };
      expect(await darkPixels(paper2.png, box)).toBeGreaterThan(50);
      expect(await darkPixels(paper2.png, { ...box, top: box.top - box.height - 4 })).toBe(0);
    }, 360_000);
  },
);
