import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { graphql } from '../support/graphql';
import { post, serviceHeader } from '../support/http';
import { startPhotoServer, type PhotoServer } from '../support/photo-server';
import { waitFor } from '../support/wait';
import { makeLabelledSet } from '../support/curation-set';
import { browserAvailable, launchBrowser, NO_BROWSER_REASON } from '../support/browser';
import type { IssuedClient } from '../../src/services/clients/client-admin';

if (!browserAvailable) console.warn(NO_BROWSER_REASON);

/** What the smartbook left out is in the editor's tray, greyed with its reason, and goes back into the book. */
describe.skipIf(!browserAvailable)('the editor shows what the smartbook left out and why', () => {
  let api: TestService;
  let shop: IssuedClient;
  let server: PhotoServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let projectId: string;
  let editorUrl: string;
  const auth = () => serviceHeader(shop.credentials.dev);
  const book = async () =>
    (
      await graphql(
        api.url,
        auth(),
        'query ($id: String!) { project(id: $id) { photos { id curation { kept reason } } pages { photos { photoId } } } }',
        { id: projectId },
      )
    ).data.project;

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true' });
    shop = await api.createClient('Curation shop');
    // Two scenes, each an original and a blurred copy of it: the smartbook keeps the two originals.
    const roll = await makeLabelledSet({ scenes: [{ copies: ['blurred'] }, { copies: ['blurred'] }], events: null });
    server = await startPhotoServer(Object.fromEntries(roll.map((photo) => [`/${photo.name}`, { body: photo.bytes }])));
    const generated = await post(
      api.url,
      '/v2/generate',
      {
        userId: 'camera-roll',
        sku: 'PB-HC-A4-L',
        psp: 'local',
        marketId: 0,
        layoutType: 'smartbook',
        language: 'en',
        photos: roll.map((photo) => ({ id: photo.name, url: server.url(`/${photo.name}`) })),
      },
      auth(),
    );
    expect(generated.status, JSON.stringify(generated.body)).toBe(200);
    editorUrl = generated.body.url;
    projectId = new URL(editorUrl).searchParams.get('id')!;
    await waitFor(
      async () =>
        (
          await graphql(api.url, auth(), 'query ($id: String!) { project(id: $id) { status { project } } }', {
            id: projectId,
          })
        ).data?.project?.status.project === 'editable',
      90_000,
      'the smartbook to be editable',
    );
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await api?.stop();
  });

  it('lists the left-out copies greyed with their reason, and one goes back onto a slot by choosing it', async () => {
    const before = await book();
    const leftOut = before.photos.filter((p: { curation: { kept: boolean } | null }) => p.curation?.kept === false);
    expect(leftOut.map((p: { curation: { reason: string } }) => p.curation.reason)).toEqual(['blurry', 'blurry']);

    const page = await browser.context.newPage();
    await page.goto(editorUrl);
    const tray = page.getByTestId('tray');
    const greyed = tray.locator('[data-kind="left-out"]');
    await expect.poll(() => greyed.count(), { timeout: 20_000 }).toBe(2);
    for (const text of await greyed.allTextContents()) expect(text).toContain('Left out: blurred');
    expect(
      await greyed
        .locator('img')
        .first()
        .evaluate((img) => (globalThis as any).getComputedStyle(img).filter),
    ).toContain('grayscale');

    // Put one back: choose it in the tray, then the slot it replaces.
    const back = leftOut[0].id as string;
    await tray.locator(`[data-photo-id="${back}"] button`).click();
    await page.getByTestId('tray-picked').waitFor();
    await page.locator('[data-testid="page-1"] [data-slot="0"]').click();
    await page.locator(`[data-testid="page-1"] [data-slot="0"][data-photo-id="${back}"]`).waitFor();
    await tray.locator(`[data-photo-id="${back}"][data-kind="used"]`).waitFor();
    const after = await book();
    expect(after.pages.flatMap((p: { photos: { photoId: string }[] }) => p.photos.map((s) => s.photoId))).toContain(
      back,
    );
    await page.close();
  }, 120_000);
});
